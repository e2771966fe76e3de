package targets

import (
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// containerRoles are the ancestors that say where an element sits: a
// landmark, a form, a list or table row, a dialog, a named group.
var containerRoles = map[string]bool{
	"navigation": true, "main": true, "banner": true, "contentinfo": true, "complementary": true,
	"region": true, "form": true, "search": true, "dialog": true, "alertdialog": true,
	"list": true, "listitem": true, "table": true, "row": true, "tabpanel": true, "menu": true,
	"iframe": true, "group": true, "article": true, "toolbar": true, "grid": true, "tree": true,
}

// PathTo returns the nodes from root down to n (both included), or nil
// when n is not in the tree.
func PathTo(root, n *outline.Node) []*outline.Node {
	var path []*outline.Node
	var walk func(x *outline.Node) bool
	walk = func(x *outline.Node) bool {
		path = append(path, x)
		if x == n {
			return true
		}
		for _, c := range x.Children {
			if walk(c) {
				return true
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if walk(root) {
		return path
	}
	return nil
}

// Fingerprint says what n is and where it sits, so that it can be found
// again on a changed page.
func Fingerprint(root, n *outline.Node) calls.Fingerprint {
	fp := calls.Fingerprint{
		Tag: n.Tag, Role: n.Role, Name: norm(n.Name), Inferred: norm(n.Inferred), TestID: TestID(n), Label: norm(n.Label),
		Placeholder: n.Attrs["placeholder"], Type: strings.ToLower(n.Attrs["type"]), Text: clip(norm(n.Text), 120),
	}
	if id := n.Attrs["id"]; Stable(id) {
		fp.ID = id
	}
	path := PathTo(root, n)
	var frames []string
	for _, p := range path[1 : len(path)-1] {
		if !containerRoles[p.Role] {
			continue
		}
		desc := p.Role
		if p.Name != "" && p.Role != "listitem" && p.Role != "row" {
			desc += fmt.Sprintf(" %q", clip(norm(p.Name), 60))
		}
		fp.Ancestors = append(fp.Ancestors, desc)
		if p.Role == "iframe" {
			frames = append(frames, desc)
		}
	}
	if h := headingBefore(root, n); h != "" {
		fp.Ancestors = append(fp.Ancestors, fmt.Sprintf("heading %q", clip(h, 60)))
	}
	fp.Frame = strings.Join(frames, " > ")
	if len(path) >= 2 {
		parent := path[len(path)-2]
		for _, c := range parent.Children {
			if c == n {
				break
			}
			if c.Role == n.Role {
				fp.Index++
			}
		}
	}
	return fp
}

// headingBefore returns the name of the last heading that comes before n
// in document order: the section title a person would read it under.
func headingBefore(root, n *outline.Node) string {
	var last string
	done := false
	root.Walk(func(x *outline.Node, _ int) bool {
		if done {
			return false
		}
		if x == n {
			done = true
			return false
		}
		if x.Role == "heading" && x.Name != "" {
			last = norm(x.Name)
		}
		return true
	})
	return last
}

// norm folds case and runs of white space, as locators compare names.
func norm(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
