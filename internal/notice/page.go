package notice

import (
	"strings"

	"github.com/waymark-dev/waymark/internal/outline"
)

// maxCorpus caps the text searched for interstitial phrases.
const maxCorpus = 20000

// shortPage is the most visible text an interstitial page has. Phrase and
// title rules count only below it, so that an article quoting "Just a
// moment..." is not taken for Cloudflare's challenge.
const shortPage = 2500

// item is one node of the outline in document order.
type item struct {
	n      *outline.Node
	parent int    // index of the parent item, -1 for the root
	box    int    // index of the nearest container ancestor (see boxRoles), -1 for none
	norm   string // norm of what the node says: its name, or its text
}

// boxRoles are the containers a banner's text and buttons must share.
// Generic boxes are not in the outline (the builder lifts their children), so a
// banner made of plain divs shares only the document.
var boxRoles = map[string]bool{
	"dialog": true, "alertdialog": true, "region": true, "complementary": true,
	"banner": true, "contentinfo": true, "form": true, "iframe": true,
	"navigation": true, "main": true, "article": true, "group": true,
}

// page is the Input made ready for the detectors.
type page struct {
	in       Input
	title    string // Input.Title, or the outline root's name
	items    []item
	textLen  int    // bytes of visible text in the outline (or Input.Text)
	corpus   string // norm of the title, the outline's text and Input.Text, capped
	hasBoxes bool   // some node has a layout box: a zero box then means hidden
}

func newPage(in Input) *page {
	pg := &page{in: in, title: in.Title}
	if pg.title == "" && in.Outline != nil {
		pg.title = in.Outline.Name
	}
	var text strings.Builder
	text.WriteString(pg.title)
	if in.Outline != nil {
		stack := []int{}
		boxes := []int{}
		in.Outline.Walk(func(n *outline.Node, depth int) bool {
			stack = stack[:min(depth, len(stack))]
			boxes = boxes[:min(depth, len(boxes))]
			it := item{n: n, parent: -1, box: -1}
			if len(stack) > 0 {
				it.parent = stack[len(stack)-1]
				it.box = boxes[len(boxes)-1]
			}
			it.norm = norm(say(n))
			i := len(pg.items)
			pg.items = append(pg.items, it)
			stack = append(stack, i)
			if boxRoles[n.Role] {
				boxes = append(boxes, i)
			} else {
				boxes = append(boxes, it.box)
			}
			if n.Box.W > 0 && n.Box.H > 0 {
				pg.hasBoxes = true
			}
			if n.Role == "text" || n.Role == "heading" {
				pg.textLen += len(n.Name)
				if text.Len() < maxCorpus {
					text.WriteByte(' ')
					text.WriteString(n.Name)
				}
			}
			return true
		})
	}
	if in.Text != "" && text.Len() < maxCorpus {
		text.WriteByte(' ')
		text.WriteString(in.Text[:min(len(in.Text), maxCorpus)])
		pg.textLen = max(pg.textLen, len(in.Text))
	}
	pg.corpus = norm(text.String())
	return pg
}

// say is what node n says: its name, else its text.
func say(n *outline.Node) string {
	if n.Name != "" {
		return n.Name
	}
	return n.Text
}

// short reports whether the page has as little text as an interstitial.
func (pg *page) short() bool { return pg.textLen < shortPage }

// visible reports whether n has a box; without layout in the outline at all
// (a tree built by hand), every node counts as visible.
func (pg *page) visible(n *outline.Node) bool {
	return !pg.hasBoxes || n.Box.W > 1 && n.Box.H > 1
}

// within reports whether item j is item i or a descendant of it.
func (pg *page) within(j, i int) bool {
	for ; j >= 0; j = pg.items[j].parent {
		if j == i {
			return true
		}
	}
	return false
}

// attr returns the lower-cased attribute of n.
func attr(n *outline.Node, name string) string {
	return strings.ToLower(n.Attrs[name])
}

// control is a button or link with what it says and its ref.
type control struct {
	n    *outline.Node
	name string
}

// label is a control for a message: "Reject all" [ref=e12].
func (c control) label() string {
	s := quote(c.name, 40)
	if c.n.Ref != "" {
		s += " [ref=" + c.n.Ref + "]"
	}
	return s
}

// pressable reports whether n is something that answers a banner or dialog.
func pressable(n *outline.Node) bool {
	switch n.Role {
	case "button", "link", "menuitem", "switch":
		return true
	}
	return false
}
