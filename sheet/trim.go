package sheet

// Trim cuts trailing blank rows and columns (a cell is blank when its
// value is empty; formatting alone does not keep it) and pads rows to the
// same width.
func Trim(rows [][]Cell) [][]Cell {
	last := -1
	width := 0
	for i, r := range rows {
		w := 0
		for j, c := range r {
			if c.Value != "" {
				w = j + 1
			}
		}
		if w > 0 {
			last = i
		}
		width = max(width, w)
	}
	rows = rows[:last+1]
	for i, r := range rows {
		if len(r) > width {
			r = r[:width]
		}
		for len(r) < width {
			r = append(r, Cell{})
		}
		rows[i] = r
	}
	return rows
}
