package sheet

import (
	"slices"
	"strings"
)

// MaxCells bounds the work of finding tables: a grid is read up to this
// many cells (rows past it are not looked at), so a huge or hostile grid
// costs at most a few hundred milliseconds.
const MaxCells = 1 << 20

// maxCuts bounds how deep blocks are cut into smaller ones: a grid of
// alternating stripes stops being cut there and its blocks are kept
// whole.
const maxCuts = 64

// scan is a grid read once: its cells' texts and kinds in a dense
// rectangle, and counts of non-empty cells so any rectangle's count is
// found in constant time.
type scan struct {
	g          *Grid
	rows, cols int
	text       []string  // rows*cols, trimmed
	kind       []Kind    // rows*cols, told when first asked (kindAt)
	num        []float64 // rows*cols: a numeric cell's number, read with its kind
	told       []bool
	pre        []int32 // (rows+1)*(cols+1): non-empty cells above and left
}

func newScan(g *Grid) *scan {
	s := &scan{g: g, rows: len(g.Rows)}
	for _, row := range g.Rows {
		s.cols = max(s.cols, len(row))
	}
	if s.cols > 0 && s.rows*s.cols > MaxCells {
		s.rows = MaxCells / s.cols
		if s.rows == 0 { // a single row wider than the budget
			s.rows, s.cols = 1, MaxCells
		}
	}
	n := s.rows * s.cols
	s.text = make([]string, n)
	s.kind = make([]Kind, n)
	s.num = make([]float64, n)
	s.told = make([]bool, n)
	s.pre = make([]int32, (s.rows+1)*(s.cols+1))
	w := s.cols + 1
	for i := 0; i < s.rows; i++ {
		row := g.Rows[i]
		var line int32
		for j := 0; j < s.cols; j++ {
			if j < len(row) {
				s.text[i*s.cols+j] = strings.TrimSpace(row[j].Value)
			}
			if s.text[i*s.cols+j] != "" {
				line++
			}
			s.pre[(i+1)*w+j+1] = s.pre[i*w+j+1] + line
		}
	}
	return s
}

// at is the trimmed text of a cell (grid-relative).
func (s *scan) at(r, c int) string { return s.text[r*s.cols+c] }

// cell is the cell itself, with its formatting.
func (s *scan) cell(r, c int) Cell {
	if c < len(s.g.Rows[r]) {
		return s.g.Rows[r][c]
	}
	return Cell{}
}

// kindAt tells a cell's kind once.
func (s *scan) kindAt(r, c int) Kind {
	i := r*s.cols + c
	if !s.told[i] {
		s.kind[i], s.told[i] = KindOf(s.text[i]), true
		if s.kind[i].numeric() {
			n, ok := Number(s.text[i])
			if !ok {
				s.kind[i] = KindText // a number no reading takes: not one
			}
			s.num[i] = n
		}
	}
	return s.kind[i]
}

// numAt is a cell's number, when it is one.
func (s *scan) numAt(r, c int) (float64, bool) {
	if !s.kindAt(r, c).numeric() {
		return 0, false
	}
	return s.num[r*s.cols+c], true
}

// count is how many cells of a rectangle (corners included) are not
// empty.
func (s *scan) count(b rect) int {
	w := s.cols + 1
	return int(s.pre[(b.r1+1)*w+b.c1+1] - s.pre[b.r0*w+b.c1+1] - s.pre[(b.r1+1)*w+b.c0] + s.pre[b.r0*w+b.c0])
}

// rowCount and colCount count a row's or a column's cells within b.
func (s *scan) rowCount(b rect, r int) int { return s.count(rect{r, r, b.c0, b.c1}) }
func (s *scan) colCount(b rect, c int) int { return s.count(rect{b.r0, b.r1, c, c}) }

// rect is a rectangle of the grid, grid-relative, corners included.
type rect struct{ r0, r1, c0, c1 int }

// blocks cuts the grid into dense blocks parted by empty rows and
// columns (recursive XY cuts: rows first, then columns, within each part
// again). A blank cell inside a block parts nothing.
func (s *scan) blocks() []rect {
	var out []rect
	if s.rows > 0 && s.cols > 0 {
		s.cutInto(rect{0, s.rows - 1, 0, s.cols - 1}, 0, &out)
	}
	slices.SortFunc(out, func(a, b rect) int {
		if a.r0 != b.r0 {
			return a.r0 - b.r0
		}
		return a.c0 - b.c0
	})
	return out
}

func (s *scan) cutInto(b rect, depth int, out *[]rect) {
	b, ok := s.tight(b)
	if !ok {
		return
	}
	if depth < maxCuts {
		for _, byRows := range []bool{true, false} {
			if parts := s.split(b, byRows); len(parts) > 1 {
				for _, p := range parts {
					s.cutInto(p, depth+1, out)
				}
				return
			}
		}
	}
	*out = append(*out, b)
}

// tight shrinks b to the cells it holds; false when it holds none.
func (s *scan) tight(b rect) (rect, bool) {
	if s.count(b) == 0 {
		return b, false
	}
	for s.rowCount(b, b.r0) == 0 {
		b.r0++
	}
	for s.rowCount(b, b.r1) == 0 {
		b.r1--
	}
	for s.colCount(b, b.c0) == 0 {
		b.c0++
	}
	for s.colCount(b, b.c1) == 0 {
		b.c1--
	}
	return b, true
}

// split parts b at its empty rows (or columns).
func (s *scan) split(b rect, byRows bool) []rect {
	var parts []rect
	lo, hi := b.c0, b.c1
	if byRows {
		lo, hi = b.r0, b.r1
	}
	start := -1
	for i := lo; i <= hi+1; i++ {
		empty := i > hi
		if !empty {
			if byRows {
				empty = s.rowCount(b, i) == 0
			} else {
				empty = s.colCount(b, i) == 0
			}
		}
		switch {
		case !empty && start < 0:
			start = i
		case empty && start >= 0:
			p := b
			if byRows {
				p.r0, p.r1 = start, i-1
			} else {
				p.c0, p.c1 = start, i-1
			}
			parts = append(parts, p)
			start = -1
		}
	}
	return parts
}
