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
	return strings.Join(out, "\n"), true
}
