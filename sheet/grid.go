package sheet

// Cell is one cell as the sheet shows it.
type Cell struct {
	// Value is the displayed text ("" for an empty cell).
	Value string `json:"v,omitempty"`
	// Bold and Fill come from the clipboard's HTML when it has them;
	// Fill is a CSS colour ("" for none).
	Bold bool   `json:"b,omitempty"`
	Fill string `json:"fill,omitempty"`
	// Merged is set on a cell that spans others (colspan/rowspan > 1).
	Merged bool `json:"merged,omitempty"`
}

// Grid is a rectangle of cells whose top-left cell is Origin.
// Rows may be ragged: a missing cell is empty.
type Grid struct {
	Origin Ref      `json:"origin"`
	Rows   [][]Cell `json:"rows"`
}

// At returns the cell at a reference, or an empty cell outside the grid.
func (g *Grid) At(r Ref) Cell {
	i, j := r.Row-g.Origin.Row, r.Col-g.Origin.Col
	if i < 0 || j < 0 || i >= len(g.Rows) || j >= len(g.Rows[i]) {
		return Cell{}
	}
	return g.Rows[i][j]
}

// Values returns the grid's displayed text, row by row.
func (g *Grid) Values() [][]string {
	out := make([][]string, len(g.Rows))
	for i, row := range g.Rows {
		out[i] = make([]string, len(row))
		for j, c := range row {
			out[i][j] = c.Value
		}
	}
	return out
}
