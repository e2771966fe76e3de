package rules

import "github.com/waymark-dev/waymark/internal/outline"

// element is one line of the outline that has a ref, with the element
// that holds it.
type element struct {
	outline.Line
	parent string // ref of the nearest element with a ref that holds it, or ""
}

// parseOutline reads the elements with refs from an outline. Lines it
// cannot read (the page header, summaries, text) are skipped.
func parseOutline(text string) []element {
	var out []element
	// open holds the lines that may still hold the next one: their depth
	// and, for elements, their ref (else "").
	type holder struct {
		depth int
		ref   string
	}
	var open []holder
	for _, l := range outline.Parse(text) {
		for len(open) > 0 && open[len(open)-1].depth >= l.Depth {
			open = open[:len(open)-1]
		}
		e := element{Line: l}
		for i := len(open) - 1; i >= 0; i-- {
			if open[i].ref != "" {
				e.parent = open[i].ref
				break
			}
		}
		if l.Ref != "" {
			out = append(out, e)
		}
		open = append(open, holder{l.Depth, l.Ref})
	}
	return out
}
