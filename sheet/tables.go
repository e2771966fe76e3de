package sheet

import (
	"fmt"
	"strings"
	"unicode"
)

// Table is a table found in a grid by its shape. Every reference is the
// sheet's (the grid's Origin added).
type Table struct {
	// Range runs from the header (or the first row when there is none)
	// to the last row, the total row included; the title is above it.
	Range Range `json:"range"`
	// Title is the lone cell just above the table (or on its first row,
	// alone), "" when there is none; TitleAt is where it is.
	Title   string `json:"title,omitempty"`
	TitleAt *Ref   `json:"title_at,omitempty"`
	// HeaderBy says how the header row was told: "bold" (bold over plain
	// rows), "types" (text over numbers, dates, yes/no…), "first-row"
	// (a first row of distinct texts over text: a guess), or "" when the
	// table has no header.
	HeaderBy string `json:"header_by,omitempty"`
	// First and Last are the sheet rows of the first and last data rows
	// (the header and the total row left out).
	First int `json:"first"`
	Last  int `json:"last"`
	// Total is the sheet row of the total row, -1 when there is none: a
	// last row whose first cell says Total or Sum, or whose numbers are
	// the sums of the columns above.
	Total   int      `json:"total"`
	Columns []Column `json:"columns"`
	// shifts are the first data rows (past the ends a view shows) that
	// hold a cell not of its column's kind, found with the kinds the scan
	// told; nil when the table was not found by a scan.
	shifts []int
}

// Column is one column of a table, typed by its cells' majority.
type Column struct {
	Col    int    `json:"col"`              // the sheet column
	Header string `json:"header,omitempty"` // the header's text, "" when none
	Kind   Kind   `json:"kind"`
	// Values counts the non-empty data cells, Distinct their different
	// texts. Min and Max are the smallest and largest of a column of
	// numbers or dates, as the sheet writes them.
	Values   int    `json:"values"`
	Distinct int    `json:"distinct"`
	Min      string `json:"min,omitempty"`
	Max      string `json:"max,omitempty"`
}

// Rows counts the table's data rows.
func (t *Table) Rows() int { return t.Last - t.First + 1 }

// Name is the column's header, or its letters when it has none.
func (c Column) Name() string {
	if c.Header != "" {
		return c.Header
	}
	return "column " + ColumnName(c.Col)
}

// Column returns the table's column at a sheet column, or false.
func (t *Table) Column(col int) (Column, bool) {
	for _, c := range t.Columns {
		if c.Col == col {
			return c, true
		}
	}
	return Column{}, false
}

// String describes the table in one line:
//
//	A3:F40 'Orders 2026': 37 rows; Date, Customer, Amount (number), Paid (yes/no); total row 41
//
// A column's kind is named unless it is text or its header says it.
func (t *Table) String() string {
	var b strings.Builder
	b.WriteString(t.Range.String())
	if t.Title != "" {
		fmt.Fprintf(&b, " '%s'", clip(t.Title, 60))
	}
	fmt.Fprintf(&b, ": %d %s; ", t.Rows(), plural(t.Rows(), "row"))
	if t.HeaderBy == "" {
		b.WriteString("no header; ")
	}
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(clip(c.Name(), 40))
		if k := c.Kind; k != KindText && !strings.EqualFold(c.Header, string(k)) {
			if k == KindEmpty {
				k = "empty"
			}
			fmt.Fprintf(&b, " (%s)", k)
		}
	}
	if t.Total >= 0 {
		fmt.Fprintf(&b, "; total row %d", t.Total+1)
	}
	return b.String()
}

// Describe describes each table of the grid on a line of its own.
func Describe(g *Grid) string {
	var b strings.Builder
	for _, t := range Tables(g) {
		b.WriteString(t.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Tables finds the tables of a grid by their shape: dense blocks parted
// by empty rows and columns (an empty spacer column parts two tables; a
// blank cell inside a table parts nothing), a header row told by bold or
// by the kinds shifting under it, a title in a lone cell just above (or
// alone on the block's first row, as a merged title cell is), a total
// row at the bottom kept out of the rows, and each column typed by its
// majority. A block of one row, or a lone cell that titles no table, is
// not a table. Tables come top to bottom, then left to right. At most
// [MaxCells] cells are read.
func Tables(g *Grid) []Table {
	s := newScan(g)
	var tables []Table
	var lone []Ref // grid-relative lone cells: titles for the tables below
	for _, b := range s.blocks() {
		if cells := s.loneCells(b); cells != nil {
			lone = append(lone, cells...)
			continue
		}
		if t, ok := s.table(b, -1); ok {
			tables = append(tables, t)
		}
	}
	s.titles(tables, lone)
	return tables
}

// loneCells are the cells of a block that holds no table but lines of
// one cell each (a title over a subtitle, or cells set diagonally that no
// empty row or column parts): titles for the tables below. nil for a
// block that may hold a table.
func (s *scan) loneCells(b rect) []Ref {
	rows := b.r1 - b.r0 + 1
	if rows > 3 || b.c0 == b.c1 && rows == 3 || s.count(b) != rows {
		return nil
	}
	var out []Ref
	for r := b.r0; r <= b.r1; r++ {
		if s.rowCount(b, r) != 1 {
			return nil
		}
		for c := b.c0; c <= b.c1; c++ {
			if s.at(r, c) != "" {
				out = append(out, Ref{Row: r, Col: c})
			}
		}
	}
	return out
}

// titles gives each untitled table the nearest lone cell at most three
// rows above its first row, within its columns; a cell titles one table.
func (s *scan) titles(tables []Table, lone []Ref) {
	used := make([]bool, len(lone))
	for i := range tables {
		t := &tables[i]
		if t.Title != "" {
			continue
		}
		best, gap := -1, 4
		for j, l := range lone {
			at := Ref{Row: l.Row + s.g.Origin.Row, Col: l.Col + s.g.Origin.Col}
			if d := t.Range.From.Row - at.Row; !used[j] && d >= 1 && d < gap && at.Col >= t.Range.From.Col && at.Col <= t.Range.To.Col {
				best, gap = j, d
			}
		}
		if best >= 0 {
			l := lone[best]
			used[best] = true
			t.Title, t.TitleAt = s.at(l.Row, l.Col), &Ref{Row: l.Row + s.g.Origin.Row, Col: l.Col + s.g.Origin.Col}
		}
	}
}

// table reads a block as a table: its title row, header, total row and
// columns. header, when not -1, is the grid row to take as the header
// whatever its shape (a grid recipe names it). false when the block is
// no table (one row, or nothing under its header).
func (s *scan) table(b rect, header int) (Table, bool) {
	if b.r0 == b.r1 {
		return Table{}, false
	}
	t := Table{Total: -1}
	top := b.r0
	if header < 0 && b.r1-b.r0 >= 2 && s.rowCount(b, b.r0) == 1 && s.rowCount(b, b.r0+1) >= 2 {
		// A lone cell on the first row over a wider one: a title (a
		// merged title cell reads so).
		for c := b.c0; c <= b.c1; c++ {
			if s.at(b.r0, c) != "" {
				t.Title = s.at(b.r0, c)
				t.TitleAt = &Ref{Row: b.r0 + s.g.Origin.Row, Col: c + s.g.Origin.Col}
			}
		}
		top++
	}
	first := top
	if header >= 0 {
		top, first, t.HeaderBy = header, header+1, "recipe"
	} else if t.HeaderBy = s.headerBy(b, top); t.HeaderBy != "" {
		first = top + 1
	}
	last := b.r1
	if first > last {
		return Table{}, false
	}
	if last-first >= 2 && s.isTotal(b, first, last) {
		t.Total = last
		last--
	}
	t.Range = Range{From: Ref{Row: top, Col: b.c0}, To: Ref{Row: b.r1, Col: b.c1}}
	t.First, t.Last = first, last
	for c := b.c0; c <= b.c1; c++ {
		col := s.column(c, first, last)
		if t.HeaderBy != "" {
			col.Header = s.at(top, c)
		}
		t.Columns = append(t.Columns, col)
	}
	t.shifts = []int{}
	for r := first + viewEnds; r <= last-viewEnds && len(t.shifts) < viewShifts; r++ {
		for i, col := range t.Columns {
			if k := s.kindAt(r, b.c0+i); k != KindEmpty && shifted(k, col.Kind) {
				t.shifts = append(t.shifts, r)
				break
			}
		}
	}
	t.shift(s.g.Origin)
	return t, true
}

// shifted reports whether a cell of kind k stands out in a column of kind
// col (a currency amount in a column of numbers does not).
func shifted(k, col Kind) bool { return k != col && !(col == KindNumber && k.numeric()) }

// shift makes a table's grid-relative rows and columns the sheet's.
func (t *Table) shift(o Ref) {
	t.Range.From.Row += o.Row
	t.Range.To.Row += o.Row
	t.Range.From.Col += o.Col
	t.Range.To.Col += o.Col
	t.First += o.Row
	t.Last += o.Row
	for i := range t.shifts {
		t.shifts[i] += o.Row
	}
	if t.Total >= 0 {
		t.Total += o.Row
	}
	for i := range t.Columns {
		t.Columns[i].Col += o.Col
	}
}

// headerBy tells whether row h heads the block: bold over plain, text
// over other kinds, or distinct texts over text (a guess). "" when it is
// a data row like the rest.
func (s *scan) headerBy(b rect, h int) string {
	if h >= b.r1 {
		return ""
	}
	allText, allBold, distinct := true, true, map[string]bool{}
	n := 0
	for c := b.c0; c <= b.c1; c++ {
		v := s.at(h, c)
		if v == "" {
			continue
		}
		n++
		distinct[strings.ToLower(v)] = true
		if s.kindAt(h, c) != KindText {
			allText = false
		}
		if !s.cell(h, c).Bold {
			allBold = false
		}
	}
	if n == 0 {
		return ""
	}
	if allBold && !s.rowBold(b, h+1) {
		return "bold"
	}
	if !allText {
		return ""
	}
	for c := b.c0; c <= b.c1; c++ {
		if s.at(h, c) == "" {
			continue
		}
		if k := s.majority(c, h+1, b.r1); k != KindText && k != KindEmpty {
			return "types"
		}
	}
	if len(distinct) == n && n >= 2 && n*2 > b.c1-b.c0+1 {
		return "first-row"
	}
	return ""
}

// rowBold reports whether every non-empty cell of a row is bold.
func (s *scan) rowBold(b rect, r int) bool {
	any := false
	for c := b.c0; c <= b.c1; c++ {
		if s.at(r, c) == "" {
			continue
		}
		if !s.cell(r, c).Bold {
			return false
		}
		any = true
	}
	return any
}

// majority is the kind most cells of a column have between rows r0 and
// r1: a kind of more than half the non-empty cells, else number when
// numbers of all kinds are, else text. KindEmpty for an empty column.
func (s *scan) majority(c, r0, r1 int) Kind {
	counts := map[Kind]int{}
	n := 0
	for r := r0; r <= r1; r++ {
		if k := s.kindAt(r, c); k != KindEmpty {
			counts[k]++
			n++
		}
	}
	if n == 0 {
		return KindEmpty
	}
	nums := 0
	for k, m := range counts {
		if m*2 > n {
			return k
		}
		if k.numeric() {
			nums += m
		}
	}
	if nums*2 > n {
		return KindNumber
	}
	return KindText
}

// totalWords start the first cell of a total row.
var totalWords = []string{"total", "totals", "sum", "grand total", "subtotal", "sub-total", "gesamt", "summe", "somme", "totale"}

// isTotal reports whether the block's last row totals the rows above:
// its first cell says so, or each of its numbers is the sum of its
// column above (and it has at least one).
func (s *scan) isTotal(b rect, first, last int) bool {
	for c := b.c0; c <= b.c1; c++ {
		if v := s.at(last, c); v != "" {
			low := strings.ToLower(v)
			for _, w := range totalWords {
				// "Total", "Total:", "Total (USD)", "Sum 2026"; not "Total Gym".
				if rest, ok := strings.CutPrefix(low, w); ok {
					if rest = strings.TrimSpace(rest); rest == "" || !unicode.IsLetter([]rune(rest)[0]) {
						return true
					}
				}
			}
			break
		}
	}
	sums := 0
	for c := b.c0; c <= b.c1; c++ {
		v := s.at(last, c)
		if v == "" {
			continue
		}
		n, ok := s.numAt(last, c)
		if !ok {
			if s.kindAt(last, c) != KindText {
				return false
			}
			continue
		}
		sum := 0.0
		for r := first; r < last; r++ {
			if x, ok := s.numAt(r, c); ok {
				sum += x
			}
		}
		if d := n - sum; d > 0.005*max(1, abs(sum)) || -d > 0.005*max(1, abs(sum)) {
			return false
		}
		sums++
	}
	return sums > 0
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// column summarises a column's data cells.
func (s *scan) column(c, first, last int) Column {
	col := Column{Col: c, Kind: s.majority(c, first, last)}
	seen := map[string]bool{}
	var lo, hi float64
	for r := first; r <= last; r++ {
		v := s.at(r, c)
		if v == "" {
			continue
		}
		col.Values++
		seen[v] = true
		x, ok := s.order(r, c, col.Kind)
		if !ok {
			continue
		}
		if col.Min == "" || x < lo {
			lo, col.Min = x, v
		}
		if col.Max == "" || x > hi {
			hi, col.Max = x, v
		}
	}
	col.Distinct = len(seen)
	return col
}

// order is a cell's place among a column of numbers or dates.
func (s *scan) order(r, c int, k Kind) (float64, bool) {
	if s.kindAt(r, c) == KindEmpty {
		return 0, false
	}
	switch {
	case k.numeric():
		return s.numAt(r, c)
	case k == KindDate:
		if d, ok := parseDate(s.at(r, c)); ok {
			return float64(d.Unix()), true
		}
	}
	return 0, false
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
