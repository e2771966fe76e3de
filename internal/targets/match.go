package targets

import (
	"github.com/waymark-dev/waymark/internal/locator"
	"github.com/waymark-dev/waymark/internal/outline"
)

// Match returns the elements of the tree a locator names, in document
// order. A text locator names the innermost elements whose text matches,
// not every ancestor that contains them. Ref and CSS locators match
// nothing here; the driver resolves those.
func Match(root *outline.Node, loc locator.Locator) []*outline.Node {
	var out []*outline.Node
	root.Walk(func(n *outline.Node, _ int) bool {
		if !element(n) || !loc.Match(CandidateOf(n)) {
			return true
		}
		if loc.Kind == locator.Text && hasMatchingChild(n, loc) {
			return true
		}
		out = append(out, n)
		return true
	})
	return out
}

// element reports whether a node is an element a locator can name.
func element(n *outline.Node) bool {
	return n.BackendID != 0 && n.Role != "text" && n.Role != "document"
}

func hasMatchingChild(n *outline.Node, loc locator.Locator) bool {
	for _, c := range n.Children {
		if element(c) && loc.Match(CandidateOf(c)) {
			return true
		}
		if hasMatchingChild(c, loc) {
			return true
		}
	}
	return false
}

// testIDAttrs are the attributes that hold a test id, most common first.
var testIDAttrs = []string{"data-testid", "data-test-id", "data-test", "data-qa", "data-cy"}

// TestID returns the node's test id, if it has one.
func TestID(n *outline.Node) string {
	for _, k := range testIDAttrs {
		if v, ok := n.Attrs[k]; ok && v != "" {
			return v
		}
	}
	return ""
}

// CandidateOf is what a locator sees of a node.
func CandidateOf(n *outline.Node) locator.Candidate {
	c := locator.Candidate{Role: n.Role, Name: n.Name, Text: n.Text, Label: n.Label,
		Placeholder: n.Attrs["placeholder"], TestID: TestID(n)}
	if c.Text == "" {
		c.Text = n.Name
	}
	return c
}
