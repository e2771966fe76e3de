package sheet

import (
	"fmt"
	"strings"
)

// View options: how many rows a view shows from each end of the table,
// how many rows where a column changes kind, and how long a cell may be.
const (
	viewEnds   = 3
	viewShifts = 8
	viewCell   = 32
)

// View writes a table compressed for a model: each column summarised
// (kind, values, distinct, smallest and largest), then the header, the
// first and last rows, the rows where a cell is not of its column's kind,
// and the rest counted. Its size does not grow with the table's rows, so
// a model places columns in a 1,000-row sheet for the price of a few
// rows.
func (t *Table) View(g *Grid) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Table %s\nColumns:\n", t.String())
	for _, c := range t.Columns {
		fmt.Fprintf(&b, "- %s", ColumnName(c.Col))
		if c.Header != "" {
			fmt.Fprintf(&b, " %q", clip(c.Header, viewCell))
		}
		k := c.Kind
		if k == KindEmpty {
			k = "empty"
		}
		fmt.Fprintf(&b, ": %s, %d values, %d distinct", k, c.Values, c.Distinct)
		if c.Min != "" {
			fmt.Fprintf(&b, ", from %s to %s", clip(c.Min, viewCell), clip(c.Max, viewCell))
		}
		b.WriteByte('\n')
	}
	show := t.shownRows(g)
	fmt.Fprintf(&b, "Rows (the sheet's row number, then the cells by column; %d of %d rows shown):\n", len(show), t.Rows())
	b.WriteString("row")
	for _, c := range t.Columns {
		b.WriteString(" | " + ColumnName(c.Col))
	}
	b.WriteByte('\n')
	if t.HeaderBy != "" {
		t.writeRow(&b, g, t.Range.From.Row, "header")
	}
	prev := t.First - 1
	for _, r := range show {
		if r > prev+1 {
			fmt.Fprintf(&b, "(%d %s)\n", r-prev-1, plural(r-prev-1, "row"))
		}
		t.writeRow(&b, g, r, "")
		prev = r
	}
	if prev < t.Last {
		fmt.Fprintf(&b, "(%d %s)\n", t.Last-prev, plural(t.Last-prev, "row"))
	}
	if t.Total >= 0 {
		t.writeRow(&b, g, t.Total, "total")
	}
	return b.String()
}

// shownRows are the data rows a view shows, top to bottom: the ends, and
// between them the rows where a column changes kind.
func (t *Table) shownRows(g *Grid) []int {
	shifts := t.shifts
	if shifts == nil { // a table not found by a scan: tell the kinds now
		for r := t.First + viewEnds; r <= t.Last-viewEnds && len(shifts) < viewShifts; r++ {
			for _, c := range t.Columns {
				if k := KindOf(g.At(Ref{Row: r, Col: c.Col}).Value); k != KindEmpty && shifted(k, c.Kind) {
					shifts = append(shifts, r)
					break
				}
			}
		}
	}
	var out []int
	for r := t.First; r < t.First+viewEnds && r <= t.Last; r++ {
		out = append(out, r)
	}
	out = append(out, shifts...)
	for r := max(t.Last-viewEnds+1, t.First+viewEnds); r <= t.Last; r++ {
		out = append(out, r)
	}
	return out
}

func (t *Table) writeRow(b *strings.Builder, g *Grid, r int, label string) {
	fmt.Fprintf(b, "%d", r+1)
	if label != "" {
		fmt.Fprintf(b, " (%s)", label)
	}
	for _, c := range t.Columns {
		b.WriteString(" | " + clip(strings.Join(strings.Fields(g.At(Ref{Row: r, Col: c.Col}).Value), " "), viewCell))
	}
	b.WriteByte('\n')
}

// Text writes a whole grid as text, a row a line and cells parted by
// tabs: what a model would read without tables found by shape (the
// measure [Table.View] is held to).
func (g *Grid) Text() string {
	var b strings.Builder
	for _, row := range g.Rows {
		for j, c := range row {
			if j > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(c.Value)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
