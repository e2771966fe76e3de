package build

import (
	"strings"
	"unicode/utf8"
)

// maxContent bounds the text gathered for one name or Text: a clickable
// container can hold the whole page, and nobody reads more than this.
const maxContent = 1000

// textBuf gathers text for names and content. Pieces from adjacent inline
// elements are joined as they are; a block boundary adds a space. The result
// is whitespace-collapsed by collapse.
type textBuf struct {
	b    strings.Builder
	full bool
}

func (t *textBuf) add(s string) {
	if t.full || s == "" {
		return
	}
	t.b.WriteString(s)
	if t.b.Len() >= maxContent {
		t.full = true
	}
}

func (t *textBuf) space() {
	if !t.full && t.b.Len() > 0 {
		t.b.WriteByte(' ')
	}
}

func (t *textBuf) String() string { return collapse(t.b.String()) }

// collapse trims s and replaces each run of white space with one space. It
// returns s itself when there is nothing to change, to save an allocation.
func collapse(s string) string {
	clean := true
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		sp := c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f'
		if sp && (prevSpace || c != ' ') || c >= utf8.RuneSelf {
			clean = false
			break
		}
		prevSpace = sp
	}
	if clean && !prevSpace {
		return s
	}
	if clean && s == "" {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// content appends the text of the children of node i to t, as accname's
// name from content does: hidden nodes are skipped unless hidden is true
// (the target of aria-labelledby may be hidden), a child's aria-label stands
// for its content, images give their alt text and embedded controls their
// value.
func (b *builder) content(x *doc, i int32, t *textBuf, hidden bool) {
	for c := x.first[i]; c >= 0 && !t.full; c = x.next[c] {
		switch x.nodeType(c) {
		case textNode:
			if x.layout[c] >= 0 {
				if x.style(c, styleVisibility) == "visible" || hidden {
					t.add(x.layoutText(c))
				}
			} else if hidden {
				t.add(x.nodeValue(c))
			}
		case elementNode:
			b.contentOf(x, c, t, hidden)
		}
	}
}

// contentOf appends what element c contributes to its ancestor's name.
func (b *builder) contentOf(x *doc, c int32, t *textBuf, hidden bool) {
	tag := x.name(c)
	if skipTags[tag] {
		return
	}
	if !hidden {
		if v, _ := x.attr(c, "aria-hidden"); v == "true" {
			return
		}
		if x.layout[c] < 0 && x.first[c] < 0 {
			return
		}
	}
	// Chromium separates the text of every child that is not plain inline
	// (blocks, inline-blocks, replaced elements) with a space.
	block := x.layout[c] >= 0 && (x.style(c, styleDisplay) != "inline" || tag == "svg")
	if block || tag == "BR" {
		t.space()
	}
	defer func() {
		if block {
			t.space()
		}
	}()
	if v, ok := x.attr(c, "aria-label"); ok && strings.TrimSpace(v) != "" {
		t.add(v)
		return
	}
	switch tag {
	case "svg":
		for k := x.first[c]; k >= 0; k = x.next[k] {
			if x.name(k) == "title" {
				t.space()
				b.content(x, k, t, true)
				t.space()
				break
			}
		}
		return
	case "IMG":
		v, _ := x.attr(c, "alt")
		t.add(v)
		return
	case "INPUT":
		typ, _ := x.attr(c, "type")
		switch strings.ToLower(typ) {
		case "hidden":
		case "checkbox", "radio", "file":
		case "submit", "reset", "button", "image":
			t.add(b.inputButtonName(x, c, strings.ToLower(typ)))
		default:
			// A secret field's value is no part of a name.
			if !secretInput(x, c, "") {
				t.add(inputValue(x, c))
			}
		}
		return
	case "SELECT":
		t.add(b.selectedText(x, c))
		return
	case "TEXTAREA":
		t.add(x.values[c])
		return
	}
	if role := b.explicitRole(x, c); role == "textbox" || role == "searchbox" {
		return
	}
	b.content(x, c, t, hidden)
}

// contentText returns the collapsed text content of node i.
// The last result is cached: decorate asks for the name and then the Text
// of the same element, and both are its content.
func (b *builder) contentText(x *doc, i int32, hidden bool) string {
	if b.memo.x == x && b.memo.i == i && b.memo.hidden == hidden {
		return b.memo.s
	}
	var t textBuf
	b.content(x, i, &t, hidden)
	s := t.String()
	b.memo.x, b.memo.i, b.memo.hidden, b.memo.s = x, i, hidden, s
	return s
}

// inputValue returns the value of an <input>. Chromium reports an empty value
// of some inputs as a string of newlines, which an input cannot hold.
func inputValue(x *doc, i int32) string {
	v := x.values[i]
	if strings.ContainsAny(v, "\r\n") {
		return ""
	}
	return v
}

// inputButtonName is the name of an input button: its value, or the
// browser's default label.
func (b *builder) inputButtonName(x *doc, i int32, typ string) string {
	if typ == "image" {
		if v, ok := x.attr(i, "alt"); ok && strings.TrimSpace(v) != "" {
			return v
		}
	}
	if v, ok := x.attr(i, "value"); ok && v != "" {
		return v
	}
	switch typ {
	case "submit", "image":
		return "Submit"
	case "reset":
		return "Reset"
	}
	return ""
}

// selectedText returns the text of the first selected option of a <select>.
func (b *builder) selectedText(x *doc, sel int32) string {
	first := int32(-1)
	var found int32 = -1
	var walk func(i int32)
	walk = func(i int32) {
		for c := x.first[i]; c >= 0 && found < 0; c = x.next[c] {
			switch x.name(c) {
			case "OPTION":
				if first < 0 {
					first = c
				}
				if x.has(c, flagSelected) {
					found = c
				}
			case "OPTGROUP":
				walk(c)
			}
		}
	}
	walk(sel)
	if found < 0 {
		// A single-choice select with no selected option shows its first.
		if m, _ := x.attr(sel, "multiple"); m != "" || first < 0 {
			return ""
		}
		found = first
	}
	return b.optionText(x, found)
}

func (b *builder) optionText(x *doc, o int32) string {
	if v, ok := x.attr(o, "label"); ok && v != "" {
		return collapse(v)
	}
	return b.contentText(x, o, true)
}

// accName computes the accessible name of element i with role role, and the
// text of its associated <label> if it has one.
func (b *builder) accName(x *doc, i int32, tag, role string) (name, label string) {
	if v, ok := x.attr(i, "aria-labelledby"); ok {
		var t textBuf
		for id := range strings.FieldsSeq(v) {
			if r := x.byID(id); r >= 0 {
				t.space()
				if al, ok := x.attr(r, "aria-label"); ok && strings.TrimSpace(al) != "" {
					t.add(al)
				} else {
					b.content(x, r, &t, true)
				}
			}
		}
		if s := t.String(); s != "" {
			return s, ""
		}
	}
	if v, ok := x.attr(i, "aria-label"); ok {
		if s := collapse(v); s != "" {
			return s, ""
		}
	}
	switch tag {
	case "INPUT", "SELECT", "TEXTAREA", "METER", "PROGRESS", "OUTPUT":
		typ := ""
		if tag == "INPUT" {
			typ, _ = x.attr(i, "type")
			typ = strings.ToLower(typ)
		}
		switch typ {
		case "submit", "reset", "button":
			if s := collapse(b.inputButtonName(x, i, typ)); s != "" {
				return s, ""
			}
		case "image":
			// alt, then value; title and the default "Submit" come below.
			if s := collapse(b.inputButtonName(x, i, typ)); s != "" && s != "Submit" {
				return s, ""
			}
		}
		if typ == "submit" || typ == "reset" || typ == "button" || typ == "image" {
			break
		}
		if label = b.labelText(x, i); label != "" {
			return label, label
		}
	case "IMG":
		if v, ok := x.attr(i, "alt"); ok {
			if s := collapse(v); s != "" {
				return s, ""
			}
		}
	case "FIELDSET":
		if s := b.childText(x, i, "LEGEND"); s != "" {
			return s, ""
		}
	case "TABLE":
		if s := b.childText(x, i, "CAPTION"); s != "" {
			return s, ""
		}
	case "FIGURE":
		if s := b.childText(x, i, "FIGCAPTION"); s != "" {
			return s, ""
		}
	case "IFRAME", "FRAME":
		if v, ok := x.attr(i, "title"); ok {
			return collapse(v), ""
		}
	}
	if tag == "OPTION" {
		// Options have no layout text of their own: the select paints them.
		if s := b.optionText(x, i); s != "" {
			return s, ""
		}
	}
	if nameFromContent[role] {
		if s := b.contentText(x, i, false); s != "" {
			return s, ""
		}
	}
	if v, ok := x.attr(i, "title"); ok {
		if s := collapse(v); s != "" {
			return s, ""
		}
	}
	if role == "textbox" || role == "searchbox" || role == "combobox" {
		if v, ok := x.attr(i, "placeholder"); ok {
			return collapse(v), ""
		}
		if v, ok := x.attr(i, "aria-placeholder"); ok {
			return collapse(v), ""
		}
	}
	if tag == "INPUT" {
		if typ, _ := x.attr(i, "type"); strings.EqualFold(typ, "image") {
			return "Submit", ""
		}
	}
	return "", ""
}

// labelText returns the text of the labels of control i: <label for=id> and
// a wrapping <label>. The control's own value is left out of it.
func (b *builder) labelText(x *doc, i int32) string {
	var t textBuf
	if id, ok := x.attr(i, "id"); ok && id != "" {
		if l := x.labelFor(id); l >= 0 {
			b.labelContent(x, l, i, &t)
		}
	}
	for p := x.d.Nodes.ParentIndex[i]; p >= 0; p = x.d.Nodes.ParentIndex[p] {
		if x.nodeType(int32(p)) != elementNode {
			break
		}
		if x.name(int32(p)) == "LABEL" {
			if _, ok := x.attr(int32(p), "for"); !ok {
				t.space()
				b.labelContent(x, int32(p), i, &t)
			}
			break
		}
	}
	return t.String()
}

// labelContent adds the content of label l without control self.
func (b *builder) labelContent(x *doc, l, self int32, t *textBuf) {
	for c := x.first[l]; c >= 0; c = x.next[c] {
		if c == self {
			continue
		}
		switch x.nodeType(c) {
		case textNode:
			if x.layout[c] >= 0 && x.style(c, styleVisibility) == "visible" {
				t.add(x.layoutText(c))
			}
		case elementNode:
			if x.first[c] >= 0 && containsNode(x, c, self) {
				b.labelContent(x, c, self, t)
				continue
			}
			b.contentOf(x, c, t, false)
		}
	}
}

func containsNode(x *doc, anc, n int32) bool {
	for p := x.d.Nodes.ParentIndex[n]; p >= 0; p = x.d.Nodes.ParentIndex[p] {
		if int32(p) == anc {
			return true
		}
	}
	return false
}

// childText returns the content of the first child element with the tag.
func (b *builder) childText(x *doc, i int32, tag string) string {
	for c := x.first[i]; c >= 0; c = x.next[c] {
		if x.nodeType(c) == elementNode && x.name(c) == tag {
			return b.contentText(x, c, false)
		}
	}
	return ""
}
