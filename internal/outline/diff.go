package outline

import "strings"

// Limits of a diff reply. Past them the whole outline is clearer than a
// long list of changes, and cheaper to compute.
const (
	maxDiffLines = 60        // changed lines shown
	maxDiffCells = 4_000_000 // lines × lines compared after trimming common ends
)

// Diff returns the lines of a missing from b as "- line" and the lines
// of b new since a as "+ line", in page order; "" when a and b are equal.
// An element line whose ref is on both sides but whose text changed (a
// value typed, a count in a link) is said once, as "~ line" with its new
// text and without its indent: the old text and the place are what the
// reader saw last time, and repeating them costs an agent tokens for
// nothing.
// It reports false when more than maxDiffLines lines changed or the
// changed middle is too big to compare.
func Diff(a, b string) (string, bool) {
	if a == b {
		return "", true
	}
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	// Trim the common head and tail: an action usually changes one place.
	for len(x) > 0 && len(y) > 0 && x[0] == y[0] {
		x, y = x[1:], y[1:]
	}
	for len(x) > 0 && len(y) > 0 && x[len(x)-1] == y[len(y)-1] {
		x, y = x[:len(x)-1], y[:len(y)-1]
	}
	if len(x)*len(y) > maxDiffCells {
		return "", false
	}
	// lcs[i][j] is the length of the longest common subsequence of x[i:]
	// and y[j:].
	n, m := len(x), len(y)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			i, j = i+1, j+1
			continue
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, "- "+x[i])
			i++
		default:
			out = append(out, "+ "+y[j])
			j++
		}
		if len(out) > maxDiffLines {
			return "", false
		}
	}
	return strings.Join(pairByRef(out), "\n"), true
}

// pairByRef folds a removed line and an added line that name the same ref
// into one "~" line at the added line's place.
func pairByRef(out []string) []string {
	removed := map[string]int{} // ref → index in out
	for i, l := range out {
		if rest, ok := strings.CutPrefix(l, "- "); ok {
			if p, ok := ParseLine(rest); ok && p.Ref != "" {
				removed[p.Ref] = i
			}
		}
	}
	if len(removed) == 0 {
		return out
	}
	drop := map[int]bool{}
	for i, l := range out {
		rest, ok := strings.CutPrefix(l, "+ ")
		if !ok {
			continue
		}
		p, ok := ParseLine(rest)
		if !ok || p.Ref == "" {
			continue
		}
		if j, ok := removed[p.Ref]; ok && !drop[j] {
			drop[j] = true
			// Said without its indent and bullet: the reader saw the
			// element at its place last time, and its ref names it.
			out[i] = "~ " + strings.TrimPrefix(strings.TrimLeft(rest, " "), "- ")
		}
	}
	kept := out[:0]
	for i, l := range out {
		if !drop[i] {
			kept = append(kept, l)
		}
	}
	return kept
}
