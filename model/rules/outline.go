package rules

import (
	"cmp"

	"github.com/waymark-dev/waymark/internal/outline"
)

// element is one line of the outline that has a ref, with the element
// that holds it.
type element struct {
	outline.Line
	parent string // ref of the nearest element with a ref that holds it, or ""
	// row is the table row or list item (a line with no ref) that holds
	// it, numbered from 1 in the outline, and rowName that row's text; 0
	// and "" when none does.
	row     int
	rowName string
}

// rowRoles are the lines that hold a row's controls and are named by the
// row's text: an inbox's line, a table's row.
var rowRoles = map[string]bool{"row": true, "listitem": true, "article": true}

// parseOutline reads the elements with refs from an outline. Lines it
// cannot read (the page header, summaries, text) are skipped.
func parseOutline(text string) []element {
	var out []element
	// open holds the lines that may still hold the next one: their depth
	// and, for elements, their ref (else "").
	type holder struct {
		depth int
		ref   string
		row   int // the line's number as a row, when it is one
		name  string
	}
	var open []holder
	rows := 0
	for _, l := range outline.Parse(text) {
		for len(open) > 0 && open[len(open)-1].depth >= l.Depth {
			open = open[:len(open)-1]
		}
		e := element{Line: l}
		for i := len(open) - 1; i >= 0; i-- {
			if open[i].ref != "" && e.parent == "" {
				e.parent = open[i].ref
			}
			if open[i].row != 0 && e.row == 0 {
				e.row, e.rowName = open[i].row, open[i].name
			}
		}
		if l.Ref != "" {
			out = append(out, e)
		}
		h := holder{depth: l.Depth, ref: l.Ref}
		if name := cmp.Or(l.Name, l.Text); l.Ref == "" && rowRoles[l.Role] && name != "" {
			// A row is named by its text: "- row: Gretchen".
			rows++
			h.row, h.name = rows, name
		}
		open = append(open, h)
	}
	return out
}
