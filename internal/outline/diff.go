package outline

import (
	"slices"
	"strconv"
	"strings"
)

// Limits of a diff reply. Past them the whole outline is clearer than a
// long list of changes, and cheaper to compute.
const (
	maxDiffLines = 60        // changed lines shown
	maxDiffCells = 4_000_000 // lines × lines compared after trimming common ends
)

// Diff returns the lines of a missing from b as "- line" and the lines
// of b new since a as "+ line", in page order; "" when a and b are equal.
// An element line whose ref is on both sides but whose text changed (a
// value typed, a count in a link) is said once, as a "~" line without its
// indent and with only what changed besides its role and ref
// (changedLine): the old text and the place are what the reader saw last
// time, and repeating them costs an agent tokens for nothing.
// It reports false when more than maxDiffLines lines changed or the
// changed middle is too big to compare.
func Diff(a, b string) (string, bool) {
	d, _, ok := DiffFilled(a, b, nil)
	return d, ok
}

// DiffFilled is Diff that leaves out the "~" line of a field whose only
// change is the value the reader filled into it since (filled reports
// whether ref now holds it): the reader's own fill, which its reply
// already confirmed, says nothing new, and on a form it is most of the
// changes. A field that reads otherwise (the page reformatted, cut or
// refused the value) keeps its line. dropped counts the lines left out.
func DiffFilled(a, b string, filled func(ref, value string) bool) (d string, dropped int, ok bool) {
	if a == b {
		return "", 0, true
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
		return "", 0, false
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
			return "", 0, false
		}
	}
	out, dropped = pairByRef(out, filled)
	return strings.Join(out, "\n"), dropped, true
}

// pairByRef folds a removed line and an added line that name the same ref
// into one "~" line at the added line's place, or into none when only its
// value changed and filled says it holds what the reader filled.
func pairByRef(out []string, filled func(ref, value string) bool) ([]string, int) {
	removed := map[string]int{} // ref → index in out
	was := map[string]Line{}    // ref → its removed line, read
	for i, l := range out {
		if rest, ok := strings.CutPrefix(l, "- "); ok {
			if p, ok := ParseLine(rest); ok && p.Ref != "" {
				removed[p.Ref] = i
				was[p.Ref] = p
			}
		}
	}
	if len(removed) == 0 {
		return out, 0
	}
	drop := map[int]bool{}
	dropped := 0
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
			if a := was[p.Ref]; filled != nil && onlyValue(a, p) && filled(p.Ref, p.Value) {
				drop[i] = true
				dropped++
				continue
			}
			out[i] = "~ " + changedLine(was[p.Ref], p)
		}
	}
	kept := out[:0]
	for i, l := range out {
		if !drop[i] {
			kept = append(kept, l)
		}
	}
	return kept, dropped
}

// onlyValue reports whether a line changed from a to b in its value alone.
func onlyValue(a, b Line) bool {
	return b.Value != "" && a.Value != b.Value && a.Role == b.Role && a.Name == b.Name && a.Inferred == b.Inferred &&
		a.Ref == b.Ref && a.URL == b.URL && a.Text == b.Text && slices.Equal(a.Flags, b.Flags)
}

// changedLine is what a "~" line says of an element whose line changed
// from a to b (same ref): without its indent and bullet (the reader saw
// the element at its place last time, and its ref names it), and, when
// only its name, value or text changed, only those besides its role and
// ref: `~ link "Cart (2)" [ref=e5]`, `~ textbox [ref=e9] value="Ann"`. Its
// flags and the words that stayed are what the reader read last time;
// repeating them is most of such a line's tokens. When its role, flags or
// address changed, or a name or text is gone, the whole new line is said
// (a flag that went away cannot be said by leaving it out), as it is when
// only its place changed.
func changedLine(a, b Line) string {
	whole := b.Raw
	if a.Raw == b.Raw || a.Role != b.Role || a.Inferred != b.Inferred || a.URL != b.URL || !slices.Equal(a.Flags, b.Flags) ||
		b.Name == "" && a.Name != "" || b.Text == "" && a.Text != "" {
		return whole
	}
	var buf []byte
	buf = append(buf, b.Role...)
	if b.Name != a.Name {
		buf = append(buf, ' ')
		if b.Inferred {
			buf = append(buf, '~')
		}
		buf = strconv.AppendQuote(buf, b.Name)
	}
	buf = append(buf, " [ref="...)
	buf = append(buf, b.Ref...)
	buf = append(buf, ']')
	if b.Value != a.Value {
		buf = append(buf, " value="...)
		buf = strconv.AppendQuote(buf, b.Value)
	}
	if b.Text != a.Text {
		buf = append(buf, ": "...)
		buf = append(buf, b.Text...)
	}
	return string(buf)
}
