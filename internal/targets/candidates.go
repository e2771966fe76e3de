package targets

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/locator"
	"github.com/waymark-dev/waymark/internal/outline"
)

// CSSCounter counts the elements a CSS selector matches on the page now,
// and says whether the element being located is one of them: a selector
// that matches one element, but another one, must never be chosen (an
// element in a shadow root is out of a document query's reach, and a
// look-alike outside answers instead).
type CSSCounter func(selector string) (matches int, includes bool, err error)

// maxTextLocator bounds the text a text locator is built from: a long text
// is prose, not a control's words.
const maxTextLocator = 80

// Locate lists every locator that reaches n with its match count, in the
// order of preference (role, text, label, placeholder, testid, css), and
// chooses the first that matches exactly one element. An element inside an
// iframe is counted within its frame, and the frame chain is given. css may
// be nil (no CSS candidates).
func Locate(root, n *outline.Node, css CSSCounter) calls.Evidence {
	ev := calls.Evidence{Ref: n.Ref, Fingerprint: Fingerprint(root, n), Candidates: []calls.Candidate{}}
	ev.Fingerprint.Row = RowOf(root, n)
	scope, chain := frameScope(root, n)
	ev.Frame = chain
	for _, loc := range nonCSS(n) {
		ev.Candidates = append(ev.Candidates, calls.Candidate{Kind: string(loc.Kind), Value: loc.String(), Matches: count(scope, loc, n)})
	}
	if css != nil && len(chain) == 0 {
		for _, sel := range cssSelectors(n) {
			c, includes, err := css(sel)
			if err != nil || !includes {
				continue // it does not reach the element
			}
			ev.Candidates = append(ev.Candidates, calls.Candidate{Kind: calls.KindCSS, Value: "css=" + sel, Matches: c})
		}
	}
	for _, c := range ev.Candidates {
		if c.Matches == 1 {
			ev.Chosen = c.Value
			break
		}
	}
	return ev
}

// nonCSS builds the role, text, label, placeholder and test id locators
// of n that parse back to themselves.
func nonCSS(n *outline.Node) []locator.Locator {
	var out []locator.Locator
	add := func(l locator.Locator) {
		if p, err := locator.Parse(l.String()); err == nil && p == l {
			out = append(out, l)
		}
	}
	if n.Name != "" {
		add(locator.Locator{Kind: locator.Role, Value: n.Role, Name: n.Name, HasName: true, Exact: true})
	} else {
		add(locator.Locator{Kind: locator.Role, Value: n.Role})
	}
	if t := strings.Join(strings.Fields(n.Text), " "); t != "" && len(t) <= maxTextLocator {
		add(locator.Locator{Kind: locator.Text, Value: t, Exact: true})
	}
	if l := strings.Join(strings.Fields(n.Label), " "); l != "" {
		add(locator.Locator{Kind: locator.Label, Value: l, Exact: true})
	}
	if p := n.Attrs["placeholder"]; p != "" {
		add(locator.Locator{Kind: locator.Placeholder, Value: p, Exact: true})
	}
	if id := TestID(n); id != "" {
		add(locator.Locator{Kind: locator.TestID, Value: id, Exact: true})
	}
	return out
}

// count is how many elements of the scope loc names; n itself must be one
// of them, or the locator does not reach it and counts as 0.
func count(scope *outline.Node, loc locator.Locator, n *outline.Node) int {
	ms := Match(scope, loc)
	for _, m := range ms {
		if m == n {
			return len(ms)
		}
	}
	return 0
}

// frameScope returns the subtree to count in (the innermost iframe holding
// n, or the root) and the chain of iframes from the top, each named by a
// locator unique within its own scope where one exists.
func frameScope(root, n *outline.Node) (*outline.Node, []string) {
	path := PathTo(root, n)
	scope := root
	var chain []string
	for _, p := range path[:len(path)-1] {
		if p.Role != "iframe" || p == root {
			continue
		}
		name := ""
		for _, loc := range nonCSS(p) {
			if count(scope, loc, p) == 1 {
				name = loc.String()
				break
			}
		}
		if name == "" {
			name = fmt.Sprintf("iframe %q", p.Name)
		}
		chain = append(chain, name)
		scope = p
	}
	return scope, chain
}

// cssSelectors builds selectors from stable attributes only: an id that
// does not look generated, a form field's name, a test id, and stable
// classes.
func cssSelectors(n *outline.Node) []string {
	tag := strings.ToLower(n.Tag)
	if tag == "" {
		return nil
	}
	var out []string
	if id := n.Attrs["id"]; Stable(id) && cssIdent(id) {
		out = append(out, "#"+id)
	}
	if name := n.Attrs["name"]; Stable(name) && (tag == "input" || tag == "select" || tag == "textarea" || tag == "button") {
		out = append(out, tag+"[name="+strconv.Quote(name)+"]")
	}
	for _, k := range testIDAttrs {
		if v := n.Attrs[k]; v != "" {
			out = append(out, "["+k+"="+strconv.Quote(v)+"]")
			break
		}
	}
	var classes []string
	for _, c := range strings.Fields(n.Attrs["class"]) {
		if Stable(c) && cssIdent(c) {
			classes = append(classes, c)
		}
	}
	sort.Strings(classes)
	if len(classes) > 3 {
		classes = classes[:3]
	}
	if len(classes) > 0 {
		out = append(out, tag+"."+strings.Join(classes, "."))
	}
	return out
}

// cssIdent reports whether s can be written in a selector without escapes.
func cssIdent(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, r := range s {
		if !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
