package outline

import (
	"cmp"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxName caps names and values in rendered lines; JSON keeps them whole.
const maxName = 100

// RenderOptions tunes Render. The zero value renders every line, viewport
// first.
type RenderOptions struct {
	// Interactive keeps only the lines with refs, the headings (for
	// orientation; not one whose only line is a link of its words: the
	// link says it), the status and alert regions that say something
	// (with their words: the page's answer to an action), and the landmarks, dialogs, forms, lists of choices,
	// tables and iframes that hold a ref. Other ancestors are elided and
	// their children move up.
	Interactive bool
	// Compact drops generic, group, list, listitem, rowgroup and paragraph
	// lines that have no name and one child; the child takes their place.
	Compact bool
	// Depth is the deepest level printed, counted from 0 at the top; 0
	// means unlimited.
	Depth int
	// Viewport is the visible area the tree was built with. With it, a line
	// off screen is "above" when its box ends above the viewport and "below"
	// otherwise; without it, lines before the first on-screen line are
	// above.
	Viewport Rect
	// Full renders every line. Otherwise the lines on screen are rendered
	// and the others summed up in one line above and one below, as in
	// "(40 more lines below: 32 links, 3 buttons, heading "Help" — scroll,
	// or snapshot --full)". A tree built without a viewport is always
	// rendered in full.
	Full bool
	// URL, when set, gives the address a link line shows after its flags
	// (url="…"), from the href the page wrote; "" shows none. The caller
	// resolves relative addresses and masks what must not be shown.
	URL func(n *Node, href string) string
}

// line is one element of the output before it is written.
type line struct {
	n      *Node
	depth  int
	inline string // text printed after ": " instead of a child line
	on     int8   // on screen: 1 yes, 0 no, -1 unknown (no box)
	// unnamed leaves the name out: its one child line says it.
	unnamed bool
}

// saysItsChild reports whether l is a heading whose one child line has its
// name: a heading that holds only a link (a product, a story, a search
// result) is written `heading [level=2]:` over the link, rather than the
// same words twice. rest are the lines after l.
func saysItsChild(l line, rest []line) bool {
	n := l.n
	if n.Role != "heading" || n.Ref != "" || n.Name == "" || l.inline != "" || len(rest) == 0 ||
		rest[0].depth != l.depth+1 || rest[0].n.Name != n.Name || rest[0].n.Role == "text" {
		return false
	}
	return len(rest) == 1 || rest[1].depth <= l.depth
}

// namedByItsControl reports whether the lines of heading n's subtree (sub)
// are one line with a ref that bears n's name: a product, a story, a search
// result whose title is a link. Interactive leaves such a heading out and
// its link takes its place: the heading's line would only say "level 2"
// over the words of the link, at 8 tokens a line on a page of results.
func namedByItsControl(n *Node, sub []line) bool {
	return n.Name != "" && len(sub) == 1 && sub[0].n.Ref != "" && sub[0].n.Name == n.Name
}

type renderer struct {
	opts  RenderOptions
	lines []line
}

// Render writes the outline of root's children, one element a line, indented
// by two spaces a level, in the family of Playwright's aria snapshots:
//
//   - heading "Checkout" [level=1]
//   - textbox "Email" [required] [ref=e5] value="ann@example.com"
//   - checkbox "Subscribe" [checked] [ref=e7]
//   - textbox ~"Username" [ref=e8]
//   - textbox "Birthday" [type=date] [ref=e9] value="2012-06-24"
//   - list:
//   - listitem: One
//   - text: loose text run
//
// A name the page does not give but a person reads beside the element
// (Node.Inferred) is written ~"…", so that a reader knows it is inferred.
// A value is written as value="…" after the flags, so that it cannot be
// taken for text content, which follows a colon. Names and values are quoted
// with Go escaping and capped at 100 characters. A line whose element has
// child lines ends with a colon; a heading whose one child line bears its
// name (a link) leaves the name to that line. The root itself is not
// written: the caller writes the page's header. Render returns the number
// of lines written.
func Render(w io.Writer, root *Node, opts RenderOptions) (int, error) {
	if root == nil {
		return 0, nil
	}
	r := &renderer{opts: opts, lines: make([]line, 0, 256)}
	for _, c := range root.Children {
		r.emit(c, 0)
	}
	lines := r.lines
	if opts.Depth > 0 {
		lines = slices.DeleteFunc(lines, func(l line) bool { return l.depth >= opts.Depth })
	}
	var above, below []line
	if !opts.Full && root.InViewport {
		lines, above, below = onScreen(lines, opts.Viewport)
	}
	buf := make([]byte, 0, 64*len(lines)+256)
	count := 0
	if len(above) > 0 {
		buf = appendSummary(buf, above, "above", "scroll up")
		count++
	}
	for k, l := range lines {
		parent := k+1 < len(lines) && lines[k+1].depth > l.depth
		if parent && saysItsChild(l, lines[k+1:]) {
			l.unnamed = true
		}
		buf = appendLine(buf, l, parent, opts.URL)
		count++
	}
	if len(below) > 0 {
		buf = appendSummary(buf, below, "below", "scroll")
		count++
	}
	_, err := w.Write(buf)
	return count, err
}

// emit appends the lines of n's subtree at depth and returns whether any of
// them is on screen (for the ancestors that hold it).
func (r *renderer) emit(n *Node, depth int) {
	start := len(r.lines)
	if n.Role == "text" {
		if !r.opts.Interactive {
			r.lines = append(r.lines, line{n: n, depth: depth, on: onOf(n)})
		}
		return
	}
	r.lines = append(r.lines, line{n: n, depth: depth})
	kids := n.Children
	inline := ""
	if len(kids) == 1 && kids[0].Role == "text" && !r.opts.Interactive {
		inline, kids = kids[0].Name, nil
	}
	if r.opts.Interactive && n.Ref != "" && n.Name == "" && n.Text != "" {
		// Its text lines are dropped in this mode: say what it holds.
		inline = n.Text
	}
	if r.opts.Interactive && live[n.Role] && n.Ref == "" {
		// Its text lines are dropped in this mode: its words are the
		// page's answer (the controls in it keep their lines).
		inline = rowText(n)
	}
	if r.opts.Interactive && n.Role == "row" && n.Ref == "" {
		// A table row keeps its own text (the cells that are not
		// controls): "click Gretchen" names the row of an inbox whose
		// sender is plain text beside the link that opens it.
		inline = rowText(n)
	}
	r.lines[start].inline = inline
	for _, c := range kids {
		r.emit(c, depth+1)
	}
	sub := r.lines[start+1:]
	keep := true
	switch {
	case r.opts.Interactive:
		keep = n.Ref != "" || n.Role == "heading" && !namedByItsControl(n, sub) || live[n.Role] && inline != "" || landmarkish[n.Role] && len(sub) > 0 ||
			n.Role == "row" && inline != "" && slices.ContainsFunc(sub, func(l line) bool { return l.n.Ref != "" })
	case r.opts.Compact:
		// A line that carries its one child's text inline is content,
		// not an empty wrapper.
		keep = !(structural[n.Role] && n.Name == "" && n.Ref == "" && len(n.Children) == 1 && inline == "")
	}
	on := onOf(n)
	for _, l := range sub {
		if l.on == 1 {
			on = 1
			break
		}
	}
	if keep {
		r.lines[start].on = on
		return
	}
	// Elide n: its children move up a level. Lines of the subtree that are
	// not in view inherit nothing from it, since it is gone.
	for k := range sub {
		sub[k].depth--
	}
	r.lines = slices.Delete(r.lines, start, start+1)
}

// rowText is the text a row shows outside its controls, capped: its text
// runs and the names of its cells that hold no control, in order.
func rowText(n *Node) string {
	var parts []string
	size := 0
	add := func(t string) {
		if t = strings.TrimSpace(t); t != "" {
			parts = append(parts, t)
			size += len(t) + 1
		}
	}
	var walk func(*Node)
	walk = func(n *Node) {
		for _, c := range n.Children {
			switch {
			case size > maxName, c.Ref != "":
			case c.Role == "text":
				add(c.Name)
			case holdsRef(c) || c.Name == "":
				walk(c)
			default:
				add(c.Name)
			}
		}
	}
	walk(n)
	return strings.Join(parts, " ")
}

func holdsRef(n *Node) bool {
	for _, c := range n.Children {
		if c.Ref != "" || holdsRef(c) {
			return true
		}
	}
	return false
}

func onOf(n *Node) int8 {
	switch {
	case n.Box.Empty():
		return -1
	case n.InViewport:
		return 1
	}
	return 0
}

// onScreen splits lines into those on screen and those above and below it. A
// line without a box is where its parent is. Lines off screen before the first
// line on screen are above it, the others below it.
func onScreen(lines []line, vp Rect) (shown, above, below []line) {
	var stack []int8 // on-screen status by depth
	first := -1
	for k := range lines {
		l := &lines[k]
		if l.on < 0 {
			l.on = 1
			if l.depth > 0 && l.depth <= len(stack) {
				l.on = stack[l.depth-1]
			}
		}
		stack = append(stack[:min(l.depth, len(stack))], l.on)
		if l.on == 1 && first < 0 {
			first = k
		}
	}
	if first < 0 {
		return nil, nil, lines
	}
	shown = make([]line, 0, len(lines))
	for k, l := range lines {
		switch {
		case l.on == 1:
			shown = append(shown, l)
		case !vp.Empty() && !l.n.Box.Empty():
			if l.n.Box.Y+l.n.Box.H <= vp.Y {
				above = append(above, l)
			} else {
				below = append(below, l)
			}
		case k < first:
			above = append(above, l)
		default:
			below = append(below, l)
		}
	}
	return shown, above, below
}

// appendLine writes one line. parent says that child lines follow.
func appendLine(buf []byte, l line, parent bool, url func(*Node, string) string) []byte {
	n := l.n
	for range l.depth {
		buf = append(buf, "  "...)
	}
	buf = append(buf, "- "...)
	buf = append(buf, n.Role...)
	if n.Role == "text" {
		buf = append(buf, ": "...)
		buf = appendPlain(buf, n.Name)
		return append(buf, '\n')
	}
	if n.Name != "" && !(parent && cellRoles[n.Role]) && !l.unnamed {
		buf = append(buf, ' ')
		buf = strconv.AppendQuote(buf, Truncate(n.Name, maxName))
	} else if n.Name == "" && n.Inferred != "" {
		// Not the page's own name: what a person reads beside it.
		buf = append(buf, " ~"...)
		buf = strconv.AppendQuote(buf, Truncate(n.Inferred, maxName))
	}
	if n.Type != "" {
		buf = append(buf, " [type="...)
		buf = append(buf, n.Type...)
		buf = append(buf, ']')
	}
	if n.Level > 0 {
		buf = append(buf, " [level="...)
		buf = strconv.AppendInt(buf, int64(n.Level), 10)
		buf = append(buf, ']')
	}
	switch n.Checked {
	case "true":
		buf = append(buf, " [checked]"...)
	case "mixed":
		buf = append(buf, " [checked=mixed]"...)
	}
	if n.Selected {
		buf = append(buf, " [selected]"...)
	}
	if n.Expanded != nil {
		if *n.Expanded {
			buf = append(buf, " [expanded]"...)
		} else {
			buf = append(buf, " [expanded=false]"...)
		}
	}
	if n.Disabled {
		buf = append(buf, " [disabled]"...)
	}
	if n.Required {
		buf = append(buf, " [required]"...)
	}
	if n.Invalid != "" {
		// The page's words (setCustomValidity) in a flag: brackets in
		// them become parentheses, so they can neither end the flag nor
		// start one (a "[ref=e1]" of the page's).
		buf = append(buf, " [invalid: "...)
		buf = appendPlain(buf, Truncate(flagSafe.Replace(n.Invalid), maxName))
		buf = append(buf, ']')
	}
	if n.Ref != "" {
		buf = append(buf, " [ref="...)
		buf = append(buf, n.Ref...)
		buf = append(buf, ']')
	}
	if n.Value != "" {
		buf = append(buf, " value="...)
		buf = strconv.AppendQuote(buf, Truncate(n.Value, maxName))
	}
	if href := n.Attrs["href"]; url != nil && href != "" && n.Role == "link" {
		if u := url(n, href); u != "" {
			buf = append(buf, " url="...)
			buf = strconv.AppendQuote(buf, u)
		}
	}
	switch {
	case l.inline != "":
		buf = append(buf, ": "...)
		buf = appendPlain(buf, l.inline)
	case parent:
		buf = append(buf, ':')
	}
	return append(buf, '\n')
}

// flagSafe makes page text safe inside a bracketed flag.
var flagSafe = strings.NewReplacer("[", "(", "]", ")")

// appendPlain appends page text that is printed unquoted (a text line, a
// line's inline text) with every control character as a space. Names and
// values are quoted, which escapes them; this text is not, and a page's
// escape sequence (\x1b[2J clears the reader's terminal, \x1b]52 writes
// their clipboard) or bell would otherwise reach the terminal of the person
// reading the outline as is.
//
// Text that ends as the line Carry writes for a region it folds
// ("- banner: (unchanged)") is quoted instead: a page's <header> that
// says "(unchanged)" must not tell the reader that the banner and its refs
// are the last page's.
func appendPlain(buf []byte, s string) []byte {
	if strings.HasSuffix(strings.TrimRightFunc(s, unicode.IsSpace), strings.TrimSpace(Unchanged)) {
		return strconv.AppendQuote(buf, s)
	}
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return append(buf, s...)
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			r = ' '
		}
		buf = utf8.AppendRune(buf, r)
	}
	return buf
}

// cellRoles are the roles whose name, taken from their content, is left out
// of a line whose children say the same.
var cellRoles = setOf("cell", "gridcell", "columnheader", "rowheader")

// appendSummary writes the line that sums up lines off screen: how many,
// the counts of what has refs, and the first headings by name.
func appendSummary(buf []byte, lines []line, where, hint string) []byte {
	counts := map[string]int{}
	var headings []string
	for _, l := range lines {
		switch {
		case l.n.Role == "heading":
			headings = append(headings, l.n.Name)
		case l.n.Ref != "":
			counts[l.n.Role]++
		}
	}
	roles := make([]string, 0, len(counts))
	for r := range counts {
		roles = append(roles, r)
	}
	slices.SortFunc(roles, func(a, b string) int {
		return cmp.Or(counts[b]-counts[a], strings.Compare(a, b))
	})
	var parts []string
	for _, r := range roles {
		parts = append(parts, strconv.Itoa(counts[r])+" "+plural(r, counts[r]))
	}
	const maxHeadings = 3
	for k, h := range headings {
		if k == maxHeadings {
			parts = append(parts, strconv.Itoa(len(headings)-maxHeadings)+" more "+plural("heading", 2))
			break
		}
		parts = append(parts, "heading "+strconv.Quote(Truncate(h, 40)))
	}
	buf = append(buf, '(')
	buf = strconv.AppendInt(buf, int64(len(lines)), 10)
	buf = append(buf, " more lines "...)
	buf = append(buf, where...)
	if len(parts) > 0 {
		buf = append(buf, ": "...)
		buf = append(buf, strings.Join(parts, ", ")...)
	}
	buf = append(buf, " — "...)
	buf = append(buf, hint...)
	buf = append(buf, ", or "+FullAdvice+")\n"...)
	return buf
}

// FullAdvice is how a summary line of lines off screen says to see them
// all, in the command line's words: "(40 more lines below: … — scroll,
// or snapshot --full)". The outline is one text for every reader; a front
// with other words for it (MCP's snapshot tool and its full argument)
// says them with [SayFull].
const FullAdvice = "snapshot --full"

// SayFull is text, an outline or a diff of outlines ("+ (…)"), with the
// [FullAdvice] that ends each summary line of lines off screen said as
// advice instead. Only summary lines change: one starts with "(" after
// its diff mark, where every line of the page's own text starts with its
// element's "- " (or its [page] or notice head), so no page can write
// one.
func SayFull(text, advice string) string {
	const end = ", or " + FullAdvice + ")"
	if !strings.Contains(text, end) {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		body := l
		if strings.HasPrefix(body, "+ ") || strings.HasPrefix(body, "- ") {
			body = body[2:]
		}
		if !strings.HasPrefix(body, "(") || !strings.HasSuffix(body, end) {
			continue
		}
		// "(N more lines above" or "below", N a count.
		rest := strings.TrimLeft(body[1:], "0123456789")
		if len(rest) == len(body)-1 || !(strings.HasPrefix(rest, " more lines above") || strings.HasPrefix(rest, " more lines below")) {
			continue
		}
		lines[i] = strings.TrimSuffix(l, FullAdvice+")") + advice + ")"
	}
	return strings.Join(lines, "\n")
}

// plural returns the plural of a role name for a count.
func plural(role string, n int) string {
	if n == 1 {
		return role
	}
	if strings.HasSuffix(role, "x") || strings.HasSuffix(role, "s") {
		return role + "es"
	}
	return role + "s"
}

// Truncate cuts s to at most n runes, ending with "…" when cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			return s[:i] + "…"
		}
		count++
	}
	return s
}
