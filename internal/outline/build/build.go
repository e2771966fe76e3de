package build

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/domsnapshot"

	"github.com/waymark-dev/waymark/internal/outline"
	"github.com/waymark-dev/waymark/secret"
)

// Limits of what Outline copies into a Node.
const (
	maxText      = 200 // Node.Text
	maxClickName = 150 // a clickable container with a longer text is a layout box, not a control
)

// secretInput reports whether the input i, named name, holds a secret
// (secret.Field), from its type, autocomplete, and words.
func secretInput(x *doc, i int32, name string) bool {
	typ, _ := x.attr(i, "type")
	ac, _ := x.attr(i, "autocomplete")
	words := []string{name}
	for _, a := range []string{"name", "id", "placeholder", "aria-label"} {
		if v, ok := x.attr(i, a); ok {
			words = append(words, v)
		}
	}
	return secret.Field{Words: strings.Join(words, " "), Type: typ, Autocomplete: ac}.Secret()
}

// ErrEmpty is returned by Outline for a snapshot without documents.
var ErrEmpty = errors.New("outline: snapshot has no documents")

// builder holds the state of one Outline.
type builder struct {
	snap *domsnapshot.CaptureSnapshotResult
	opts Options
	docs []*doc
	busy []bool // documents being built, against iframe cycles
	tags map[string]string
	// memo is the last contentText.
	memo struct {
		x      *doc
		i      int32
		hidden bool
		s      string
	}
}

// state is what an element passes down to its descendants.
type state struct {
	disabled bool // inside <fieldset disabled>
	section  bool // inside sectioning content: <header>/<footer> are not landmarks
	editable bool // inside a contenteditable root
	control  bool // inside an element with a ref of its own (a link, a button)
}

// level is a node that children are being added to. Generic containers are
// lifted: their children are added to the level of their parent. brk records
// that a block boundary was crossed since the last text run, so the next run
// is joined with a space instead of glued on.
type level struct {
	n   *outline.Node
	brk bool
}

// Outline turns a captureSnapshot result into an outline tree. The root has
// Role "document" and the title of the top document as Name. Outline makes
// no CDP calls and does not keep snap.
func Outline(snap *domsnapshot.CaptureSnapshotResult, opts Options) (*outline.Node, error) {
	if snap == nil || len(snap.Documents) == 0 {
		return nil, ErrEmpty
	}
	b := &builder{
		snap: snap,
		opts: opts,
		docs: make([]*doc, len(snap.Documents)),
		busy: make([]bool, len(snap.Documents)),
		tags: make(map[string]string),
	}
	top, err := b.doc(0)
	if err != nil {
		return nil, err
	}
	root := &outline.Node{Role: "document", Name: collapse(top.str(top.d.Title)), Frame: string(top.frame)}
	if top.n > 0 {
		root.BackendID = int64(top.d.Nodes.BackendNodeID[0])
		root.Box, _ = top.box(0)
	}
	b.busy[0] = true
	b.children(top, 0, &level{n: root}, state{})
	b.finish(root)
	if vp := opts.Viewport; !vp.Empty() {
		root.Walk(func(n *outline.Node, _ int) bool {
			n.InViewport = n.Box.Intersects(vp)
			return true
		})
		root.InViewport = true
	}
	return root, nil
}

// doc returns the index of document k, built on first use.
func (b *builder) doc(k int) (*doc, error) {
	if k < 0 || k >= len(b.docs) {
		return nil, fmt.Errorf("outline: document %d out of range", k)
	}
	if b.docs[k] == nil {
		x, err := newDoc(b.snap.Documents[k], b.snap.Strings)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", k, err)
		}
		b.docs[k] = x
	}
	return b.docs[k], nil
}

// children adds the outline of the children of node i to lv.
func (b *builder) children(x *doc, i int32, lv *level, st state) {
	for c := x.first[i]; c >= 0; c = x.next[c] {
		switch x.nodeType(c) {
		case textNode:
			b.text(x, c, lv)
		case elementNode:
			b.element(x, c, lv, st)
		}
	}
}

// text adds a rendered text node to lv, merged with a text run just before.
func (b *builder) text(x *doc, i int32, lv *level) {
	if x.layout[i] < 0 || x.style(i, styleVisibility) != "visible" {
		return
	}
	s := x.layoutText(i)
	if s == "" {
		return
	}
	box, _ := x.box(i)
	kids := lv.n.Children
	if k := len(kids); k > 0 && kids[k-1].Role == "text" {
		last := kids[k-1]
		if lv.brk {
			last.Name += " "
		}
		last.Name += s
		last.Box = last.Box.Union(box)
	} else {
		lv.n.Children = append(kids, &outline.Node{Role: "text", Name: s, Box: box, Frame: string(x.frame)})
	}
	lv.brk = false
}

// add appends built node n to lv, merging text runs.
func (b *builder) add(lv *level, n *outline.Node) {
	kids := lv.n.Children
	if n.Role == "text" {
		if k := len(kids); k > 0 && kids[k-1].Role == "text" {
			last := kids[k-1]
			last.Name += " " + n.Name
			last.Box = last.Box.Union(n.Box)
			return
		}
	}
	lv.n.Children = append(kids, n)
	lv.brk = false
}

// element adds the outline of element i to lv.
func (b *builder) element(x *doc, i int32, lv *level, st state) {
	tag := x.name(i)
	if skipTags[tag] {
		return
	}
	if v, _ := x.attr(i, "aria-hidden"); v == "true" {
		return
	}
	hasLayout := x.layout[i] >= 0
	if !hasLayout && (tag == "OPTION" || tag == "OPTGROUP") {
		return // the options of a drop-down; the select shows its value
	}
	if tag == "svg" {
		b.svg(x, i, lv)
		return
	}
	block := hasLayout && !strings.HasPrefix(x.style(i, styleDisplay), "inline")
	if block || tag == "BR" {
		lv.brk = true
	}
	defer func() {
		if block {
			lv.brk = true
		}
	}()

	cst := st
	switch {
	case tag == "FIELDSET":
		if _, ok := x.attr(i, "disabled"); ok {
			cst.disabled = true
		}
	case sectioning[tag]:
		cst.section = true
	}
	if ce, ok := x.attr(i, "contenteditable"); ok && ce != "false" {
		cst.editable = true
	}

	if hasLayout && x.style(i, styleVisibility) != "visible" {
		// Not exposed itself, but a child may be visibility:visible.
		b.children(x, i, lv, cst)
		return
	}
	role := b.role(x, i, tag, st)
	if role == "none" {
		role = "generic"
	}
	if actionable[role] {
		cst.control = true
	}
	n := &outline.Node{Role: role, Tag: b.lower(tag), Frame: string(x.frame), BackendID: int64(x.d.Nodes.BackendNodeID[i])}
	n.Box, _ = x.box(i)

	own := &level{n: n}
	switch {
	case tag == "INPUT", tag == "TEXTAREA", tag == "IMG":
		// Their DOM children are not content.
	case tag == "SELECT" && role == "combobox":
		// The options of a drop-down are not on screen; Value says which is chosen.
	case tag == "IFRAME" || tag == "FRAME":
		b.frame(x, i, n)
	default:
		b.children(x, i, own, cst)
	}
	b.finish(n)
	for _, c := range n.Children {
		n.Box = n.Box.Union(c.Box)
	}
	if !hasLayout && len(n.Children) == 0 {
		return // display:none, or display:contents with nothing inside
	}
	if n.Box.Empty() && len(n.Children) == 0 && !focusableControl(x, i, tag) && !(actionable[role] && focusable(x, i)) {
		return // nothing to see or click
	}

	if (role == "generic" || role == "listitem") && !st.control && b.clickable(x, i, tag) && !hasRef(n) {
		// Something the page made clickable without a role (a <div> with
		// a click handler, the items of a menu built by script) is
		// something to press: it gets a ref and the role "clickable".
		name := b.contentText(x, i, false)
		inferred := ""
		if name == "" {
			inferred = b.inferName(x, i, n)
		}
		if name != "" && len(name) <= maxClickName || inferred != "" {
			n.Role = "clickable"
			n.Name, n.Inferred = name, inferred
			n.Text = outline.Truncate(name, maxText)
			n.Children = nil
			b.decorate(x, i, n, tag, st, true)
			b.add(lv, n)
			return
		}
	}
	if role == "generic" {
		if !hasName(x, i) {
			for _, c := range n.Children {
				b.add(lv, c)
			}
			lv.brk = block
			return
		}
	}
	b.decorate(x, i, n, tag, st, false)
	if leafish[n.Role] && !hasRef(n) {
		n.Children = nil
	}
	if len(n.Children) == 1 && n.Children[0].Role == "text" && n.Children[0].Name == n.Name {
		n.Children = nil
	}
	b.add(lv, n)
}

// decorate sets the name, value, states, ref and attributes of element n.
func (b *builder) decorate(x *doc, i int32, n *outline.Node, tag string, st state, clickable bool) {
	if !clickable {
		n.Name, n.Label = b.accName(x, i, tag, n.Role)
	}
	b.states(x, i, n, tag, st)
	if tag == "INPUT" {
		typ, _ := x.attr(i, "type")
		if typ = strings.ToLower(strings.TrimSpace(typ)); typedInputs[typ] {
			n.Type = typ
		}
	}
	ref := clickable || actionable[n.Role]
	if !ref && !st.editable {
		if ce, ok := x.attr(i, "contenteditable"); ok && ce != "false" {
			ref = true
		}
	}
	if !ref {
		// A draggable item is something to act on (drag it), whatever its role.
		if v, ok := x.attr(i, "draggable"); ok && v == "true" {
			ref = true
		}
	}
	if ref && b.opts.Ref != nil {
		n.Ref = b.opts.Ref(x.frame, cdp.BackendNodeID(n.BackendID))
	}
	if ref && n.Name == "" && n.Inferred == "" && n.Role != "iframe" {
		n.Inferred = b.inferName(x, i, n)
	}
	// After the inferred name: a field beside "CVC" is a secret field too.
	b.value(x, i, n, tag)
	if (ref || n.Role == "heading") && n.Text == "" && tag != "INPUT" && tag != "SELECT" && tag != "TEXTAREA" {
		n.Text = outline.Truncate(b.contentText(x, i, false), maxText)
	}
	if a := x.d.Nodes.Attributes; int(i) < len(a) {
		kv := a[i]
		for k := 0; k+1 < len(kv); k += 2 {
			name := x.str(domsnapshot.StringIndex(kv[k]))
			if !keptAttrs[name] {
				continue
			}
			if n.Attrs == nil {
				n.Attrs = make(map[string]string, 2)
			}
			n.Attrs[name] = x.str(domsnapshot.StringIndex(kv[k+1]))
		}
	}
}

// states sets level, checked, selected, expanded, disabled and required.
func (b *builder) states(x *doc, i int32, n *outline.Node, tag string, st state) {
	if n.Role == "heading" {
		n.Level = 2
		if len(tag) == 2 && tag[0] == 'H' && tag[1] >= '1' && tag[1] <= '6' {
			n.Level = int(tag[1] - '0')
		}
		if v, ok := x.attr(i, "aria-level"); ok {
			if l, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && l > 0 {
				n.Level = l
			}
		}
	}
	aria := func(name string) string { v, _ := x.attr(i, name); return strings.TrimSpace(v) }
	if checkable[n.Role] {
		n.Checked = "false"
		typ, _ := x.attr(i, "type")
		native := tag == "INPUT" && (strings.EqualFold(typ, "checkbox") || strings.EqualFold(typ, "radio"))
		if native && x.has(i, flagChecked) {
			n.Checked = "true"
		}
		switch v := aria("aria-checked"); {
		case v == "mixed" && n.Role != "radio" && n.Role != "switch":
			n.Checked = "mixed"
		case !native && v == "true":
			n.Checked = "true"
		}
	}
	if tag == "OPTION" {
		n.Selected = x.has(i, flagSelected)
	} else if aria("aria-selected") == "true" {
		n.Selected = true
	}
	switch v := aria("aria-expanded"); v {
	case "true", "false":
		e := v == "true"
		n.Expanded = &e
	default:
		if tag == "SUMMARY" {
			if p := x.d.Nodes.ParentIndex[i]; p >= 0 && x.name(int32(p)) == "DETAILS" {
				_, open := x.attr(int32(p), "open")
				n.Expanded = &open
			}
		}
	}
	switch tag {
	case "BUTTON", "INPUT", "SELECT", "TEXTAREA", "OPTION", "OPTGROUP", "FIELDSET":
		_, dis := x.attr(i, "disabled")
		n.Disabled = dis || st.disabled
	}
	if aria("aria-disabled") == "true" {
		n.Disabled = true
	}
	switch tag {
	case "INPUT", "SELECT", "TEXTAREA":
		_, n.Required = x.attr(i, "required")
	}
	if aria("aria-required") == "true" {
		n.Required = true
	}
	if msg, ok := b.opts.Invalid[cdp.BackendNodeID(n.BackendID)]; ok && msg != "" {
		n.Invalid = msg
	}
}

// value sets the current value of form controls and ranges. The value
// of a secret field (secret.Field: a password, a CVC, a one-time code) is
// never copied: a non-empty one shows as secret.Masked.
func (b *builder) value(x *doc, i int32, n *outline.Node, tag string) {
	switch tag {
	case "INPUT":
		switch {
		case secretInput(x, i, n.Name+" "+n.Inferred):
			if inputValue(x, i) != "" {
				n.Value = secret.Masked
			}
		case n.Role == "textbox", n.Role == "searchbox", n.Role == "combobox",
			n.Role == "spinbutton", n.Role == "slider", n.Type == "color":
			n.Value = inputValue(x, i)
		}
		return
	case "TEXTAREA":
		n.Value = x.values[i]
		return
	case "SELECT":
		if n.Role == "combobox" {
			n.Value = b.selectedText(x, i)
		}
		return
	case "PROGRESS", "METER":
		n.Value, _ = x.attr(i, "value")
		return
	}
	switch n.Role {
	case "slider", "spinbutton", "progressbar", "meter", "scrollbar":
		if v, ok := x.attr(i, "aria-valuetext"); ok {
			n.Value = v
		} else {
			n.Value, _ = x.attr(i, "aria-valuenow")
		}
	case "textbox", "searchbox", "combobox":
		n.Value = b.contentText(x, i, false)
	}
}

// frame puts the content document of iframe i, if it is in the snapshot,
// under n. Layout boxes of a child document are relative to that document,
// so they are moved by the position of the iframe's content box (its border
// box less the border and padding, taken as equal on both sides) less the
// child document's scroll offset.
func (b *builder) frame(x *doc, i int32, n *outline.Node) {
	k, ok := x.content[i]
	if !ok || k < 0 || k >= len(b.busy) || b.busy[k] {
		return
	}
	cx, err := b.doc(k)
	if err != nil || cx.n == 0 {
		return
	}
	outer, _ := x.box(i)
	inner, _ := cx.box(0) // the child's viewport, at its origin
	cx.dx = outer.X + (outer.W-inner.W)/2 - cx.d.ScrollOffsetX
	cx.dy = outer.Y + (outer.H-inner.H)/2 - cx.d.ScrollOffsetY
	b.busy[k] = true
	b.children(cx, 0, &level{n: n}, state{})
}

// svg adds an <svg> as an img when it is named, and leaves it out when it is
// not: unnamed SVGs are icons and decoration, and their shapes say nothing.
func (b *builder) svg(x *doc, i int32, lv *level) {
	if x.layout[i] < 0 {
		return
	}
	name := ""
	if v, ok := x.attr(i, "aria-label"); ok {
		name = collapse(v)
	}
	if name == "" {
		for c := x.first[i]; c >= 0; c = x.next[c] {
			if x.name(c) == "title" {
				name = b.contentText(x, c, true)
				break
			}
		}
	}
	if name == "" {
		return
	}
	n := &outline.Node{Role: "img", Name: name, Tag: "svg", Frame: string(x.frame), BackendID: int64(x.d.Nodes.BackendNodeID[i])}
	n.Box, _ = x.box(i)
	b.add(lv, n)
}

// finish collapses the white space of the text runs among n's children and
// drops the runs left empty.
func (b *builder) finish(n *outline.Node) {
	kids := n.Children[:0]
	for _, c := range n.Children {
		if c.Role == "text" {
			c.Name = collapse(c.Name)
			if c.Name == "" {
				continue
			}
		}
		kids = append(kids, c)
	}
	clear(n.Children[len(kids):])
	n.Children = kids
	if len(kids) == 0 {
		n.Children = nil
	}
}

// lower returns the lower-case tag name, cached for the build.
func (b *builder) lower(tag string) string {
	if l, ok := b.tags[tag]; ok {
		return l
	}
	l := strings.ToLower(tag)
	b.tags[tag] = l
	return l
}

// clickable reports whether element i, which has no interactive role, is
// made to be clicked: Chromium says it listens for clicks (the snapshot's
// isClickable: a click, mousedown or mouseup listener, read by the browser
// with no script in the page), or its pointer turns to a hand where its
// parent's does not (the items of a menu whose one listener sits on the
// menu). A <label> is clickable too, but it forwards the click to its
// control, which has its own ref.
func (b *builder) clickable(x *doc, i int32, tag string) bool {
	switch tag {
	case "BODY", "HTML", "LABEL":
		return false
	}
	if x.has(i, flagClickable) {
		return true
	}
	if x.style(i, styleCursor) != "pointer" {
		return false
	}
	p := x.d.Nodes.ParentIndex[i]
	return p < 0 || x.style(int32(p), styleCursor) != "pointer"
}

// hasRef reports whether a descendant of n has a ref.
func hasRef(n *outline.Node) bool {
	for _, c := range n.Children {
		if c.Ref != "" || hasRef(c) {
			return true
		}
	}
	return false
}

// hasName reports whether generic element i is named by an author, which
// keeps it in the outline.
func hasName(x *doc, i int32) bool {
	if v, ok := x.attr(i, "aria-label"); ok && strings.TrimSpace(v) != "" {
		return true
	}
	_, ok := x.attr(i, "aria-labelledby")
	return ok
}

// focusableControl reports whether zero-size element i is a form control an
// agent can still fill or toggle: custom checkboxes and file inputs are often
// made invisible and driven through their label.
func focusableControl(x *doc, i int32, tag string) bool {
	switch tag {
	case "INPUT", "SELECT", "TEXTAREA":
		if typ, _ := x.attr(i, "type"); strings.EqualFold(typ, "hidden") {
			return false
		}
		_, dis := x.attr(i, "disabled")
		return !dis
	}
	return false
}
