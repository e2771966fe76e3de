package rules

import "github.com/waymark-dev/waymark/internal/outline"

// element is one line of the outline that has a ref.
type element = outline.Line

// parseOutline reads the elements with refs from an outline. Lines it
// cannot read (the page header, summaries, text) are skipped.
func parseOutline(text string) []element {
	var out []element
	for _, l := range outline.Parse(text) {
		if l.Ref != "" {
			out = append(out, l)
		}
	}
	return out
}
