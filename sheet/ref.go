package sheet

import (
	"fmt"
	"strings"
)

// Ref is one cell's address, zero-based: A1 is {Row: 0, Col: 0}.
type Ref struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

// Range is a rectangle of cells, both corners included.
type Range struct {
	From Ref `json:"from"`
	To   Ref `json:"to"`
}

// maxCol and maxRow bound what a reference may name: Excel's and Google
// Sheets' largest sheets fit.
const (
	maxCol = 18278 // ZZZ
	maxRow = 10_000_000
)

// ColumnName returns a zero-based column's letters: 0 → A, 26 → AA.
func ColumnName(col int) string {
	var b []byte
	for col++; col > 0; col = (col - 1) / 26 {
		b = append([]byte{byte('A' + (col-1)%26)}, b...)
	}
	return string(b)
}

// String returns the reference in A1 form.
func (r Ref) String() string { return fmt.Sprintf("%s%d", ColumnName(r.Col), r.Row+1) }

// String returns the range in A1:B2 form (one cell when both corners are one).
func (r Range) String() string {
	if r.From == r.To {
		return r.From.String()
	}
	return r.From.String() + ":" + r.To.String()
}

// Rows counts the range's rows.
func (r Range) Rows() int { return r.To.Row - r.From.Row + 1 }

// Cols counts the range's columns.
func (r Range) Cols() int { return r.To.Col - r.From.Col + 1 }

// ParseRef reads an A1 reference ("B2", "$B$2", "aa10").
func ParseRef(s string) (Ref, error) {
	t := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), "$", ""))
	i := 0
	col := 0
	for i < len(t) && t[i] >= 'A' && t[i] <= 'Z' {
		col = col*26 + int(t[i]-'A'+1)
		if col > maxCol {
			return Ref{}, fmt.Errorf("cell %q: the column is past ZZZ", s)
		}
		i++
	}
	if i == 0 || i == len(t) {
		return Ref{}, fmt.Errorf("cell %q is not an A1 reference: give a column's letters then a row number, like B2", s)
	}
	row := 0
	for _, c := range t[i:] {
		if c < '0' || c > '9' {
			return Ref{}, fmt.Errorf("cell %q is not an A1 reference: give a column's letters then a row number, like B2", s)
		}
		row = row*10 + int(c-'0')
		if row > maxRow {
			return Ref{}, fmt.Errorf("cell %q: the row is past %d", s, maxRow)
		}
	}
	if row == 0 {
		return Ref{}, fmt.Errorf("cell %q: rows start at 1", s)
	}
	return Ref{Row: row - 1, Col: col - 1}, nil
}

// ParseRange reads "A1:C20" or one cell "B2"; the corners may come in any
// order and are put top-left first.
func ParseRange(s string) (Range, error) {
	a, b, two := strings.Cut(s, ":")
	from, err := ParseRef(a)
	if err != nil {
		return Range{}, err
	}
	to := from
	if two {
		if to, err = ParseRef(b); err != nil {
			return Range{}, err
		}
	}
	if to.Row < from.Row {
		from.Row, to.Row = to.Row, from.Row
	}
	if to.Col < from.Col {
		from.Col, to.Col = to.Col, from.Col
	}
	return Range{From: from, To: to}, nil
}
