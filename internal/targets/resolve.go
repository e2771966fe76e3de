package targets

import (
	"fmt"
	"sort"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// Thresholds of resolution by fingerprint.
const (
	// accept is the score a candidate needs to be taken without its
	// locator: most of the recorded evidence agrees.
	accept = 0.6
	// margin is how far the best candidate must lead the next one;
	// closer than that, nothing is pressed (ambiguous).
	margin = 0.15
	// samePlace is the score of a conflicting element that stands where
	// the recorded one stood (replaced rather than missing).
	samePlace = 0.35
)

// Result is where a recorded element is on the page now.
type Result struct {
	Status     string // calls.Found, Moved, Ambiguous, Replaced, Missing
	Node       *outline.Node
	Comparison Comparison
	Others     []*outline.Node // ambiguous: the equally good candidates
	Reason     string
}

// Resolve finds the element a recorded locator and fingerprint name.
// matches are the elements the locator names now (the caller resolves the
// locator, CSS included). Positional, when row >= 0, takes the element at
// that row of the same kind of list among the equally good candidates.
//
// A fingerprint with a row (not positional) is found by its row's key
// first: the same row's control, or missing when the row is gone.
func Resolve(root *outline.Node, matches []*outline.Node, fp calls.Fingerprint, row int) Result {
	if row < 0 {
		if r, ok := byRow(root, fp); ok {
			return r
		}
	}
	if len(matches) == 1 {
		m := matches[0]
		c := Compare(fp, Fingerprint(root, m))
		if c.Conflict == "" && c.Score >= samePlace {
			return Result{Status: calls.Found, Node: m, Comparison: c, Reason: "the locator matches one element and its fingerprint agrees"}
		}
		// The locator reaches something else now: look for the element
		// by its fingerprint before calling it replaced.
		if r := byFingerprint(root, fp, row, m); r.Status == calls.Moved {
			return r
		}
		reason := "the locator now matches a different element"
		if c.Conflict != "" {
			reason += ": " + c.Conflict
		}
		return Result{Status: calls.Replaced, Node: m, Comparison: c, Reason: reason}
	}
	r := byFingerprint(root, fp, row, nil)
	if r.Status == calls.Moved && len(matches) > 1 {
		r.Reason = fmt.Sprintf("the locator matches %d elements; the fingerprint picks one", len(matches))
	}
	return r
}

type scored struct {
	n *outline.Node
	c Comparison
}

// byFingerprint scores the page's elements of the recorded role (and those
// with its test id) and takes the best only when it is clearly ahead and
// clearly similar.
func byFingerprint(root *outline.Node, fp calls.Fingerprint, row int, exclude *outline.Node) Result {
	var good, conflicting []scored
	root.Walk(func(n *outline.Node, _ int) bool {
		if !element(n) || n == exclude {
			return true
		}
		if n.Role != fp.Role && (fp.TestID == "" || TestID(n) != fp.TestID) {
			return true
		}
		c := Compare(fp, Fingerprint(root, n))
		if c.Conflict != "" {
			conflicting = append(conflicting, scored{n, c})
		} else {
			good = append(good, scored{n, c})
		}
		return true
	})
	sort.SliceStable(good, func(i, j int) bool { return good[i].c.Score > good[j].c.Score })
	// A test id is the page's own promise of identity: an element that
	// keeps it (and its role) needs less of the rest to agree, as when the
	// page is translated.
	need := accept
	if len(good) > 0 && fp.TestID != "" && TestID(good[0].n) == fp.TestID {
		need = samePlace
	}
	if len(good) > 0 && good[0].c.Score >= need {
		best := good[0]
		var ties []*outline.Node
		for _, g := range good[1:] {
			if best.c.Score-g.c.Score < margin {
				ties = append(ties, g.n)
			}
		}
		if len(ties) == 0 {
			return Result{Status: calls.Moved, Node: best.n, Comparison: best.c, Reason: "found by its fingerprint"}
		}
		if row >= 0 {
			if n := atRow(root, append([]*outline.Node{best.n}, ties...), row); n != nil {
				return Result{Status: calls.Moved, Node: n, Comparison: Compare(fp, Fingerprint(root, n)), Reason: fmt.Sprintf("row %d of the list", row)}
			}
		}
		return Result{Status: calls.Ambiguous, Node: best.n, Comparison: best.c, Others: ties,
			Reason: fmt.Sprintf("%d elements fit the fingerprint equally well", len(ties)+1)}
	}
	// Nothing fits. Something that conflicts but stands where the element
	// stood is a replacement; otherwise the element is missing.
	sort.SliceStable(conflicting, func(i, j int) bool { return conflicting[i].c.Score > conflicting[j].c.Score })
	if len(conflicting) > 0 && conflicting[0].c.Score >= samePlace {
		cf := conflicting[0]
		return Result{Status: calls.Replaced, Node: cf.n, Comparison: cf.c, Reason: "a different control stands in its place: " + cf.c.Conflict}
	}
	return Result{Status: calls.Missing, Reason: "nothing on the page fits the recorded element"}
}

// atRow picks, among candidates, the one in the row-th row (listitem or
// row) of their list.
func atRow(root *outline.Node, cands []*outline.Node, row int) *outline.Node {
	for _, n := range cands {
		path := PathTo(root, n)
		for i := len(path) - 2; i > 0; i-- {
			p := path[i]
			if p.Role != "listitem" && p.Role != "row" {
				continue
			}
			parent := path[i-1]
			k := 0
			for _, sib := range parent.Children {
				if sib == p {
					break
				}
				if sib.Role == p.Role {
					k++
				}
			}
			if k == row {
				return n
			}
			break
		}
	}
	return nil
}
