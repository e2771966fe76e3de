package sheet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// RecipeFormat names the grid recipe's file format; older versions keep
// loading.
const RecipeFormat = "waymark.grid/1"

// Recipe reads a list from a sheet with no model (waymark.grid/1): the
// table is found again by its header row's texts, and each field is read
// from the column under its header, wherever that column went. Rows added
// above the table, columns inserted or swapped change nothing; a header
// renamed or removed is a misfit that names it.
type Recipe struct {
	Format string `json:"format"`
	// List is the answer's property holding the rows when the schema is
	// an object holding one list; empty when it is an array.
	List string `json:"list,omitempty"`
	// Title is the table's title when it was learned; among tables whose
	// headers fit, the one under this title is read.
	Title string `json:"title,omitempty"`
	// Header is the header row's texts when it was learned, left to
	// right, blank cells left out: the anchor the table is found by.
	Header []string      `json:"header"`
	Fields []RecipeField `json:"fields"`
	// Learned is how many rows were read when it was learned.
	Learned int `json:"learned"`
}

// RecipeField is one field of a grid recipe: the header of its column.
type RecipeField struct {
	Name string `json:"name"`
	// Type and Format are the schema's: string, number, integer or
	// boolean; a string of format date or date-time is given in ISO 8601.
	Type   string `json:"type"`
	Format string `json:"format,omitempty"`
	// Header is the text of the column's header cell.
	Header string `json:"header"`
	// Column is the column's letters when learned: only a hint, for two
	// columns under one header text.
	Column string `json:"column,omitempty"`
}

// ErrMisfit is wrapped by the errors of a grid recipe that no longer fits
// the sheet.
var ErrMisfit = errors.New("the grid recipe no longer fits the sheet")

// Recipe is the grid recipe that reads the plan's table again: the header
// row as anchor, each field by its column's header. An error when a
// field has no column, or its column no header (nothing to find it by),
// or two fields' columns share a header text.
func (p *Plan) Recipe(list string, rows int) (*Recipe, error) {
	r := &Recipe{Format: RecipeFormat, List: list, Title: p.Table.Title, Learned: rows}
	for _, c := range p.Table.Columns {
		if c.Header != "" {
			r.Header = append(r.Header, c.Header)
		}
	}
	for _, f := range p.Fields {
		col, ok := p.Columns[f.Name]
		if !ok {
			return nil, fmt.Errorf("no grid recipe: field %s is in no column", f.Name)
		}
		c, _ := p.Table.Column(col)
		if c.Header == "" {
			return nil, fmt.Errorf("no grid recipe: field %s's column %s has no header to find it by", f.Name, ColumnName(col))
		}
		r.Fields = append(r.Fields, RecipeField{Name: f.Name, Type: f.Type, Format: f.Format, Header: c.Header, Column: ColumnName(col)})
	}
	return r, r.Check()
}

// ParseRecipe reads a grid recipe file and checks it.
func ParseRecipe(b []byte) (*Recipe, error) {
	var r Recipe
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a grid recipe: %v", err)
	}
	return &r, r.Check()
}

// Check says what is wrong with a grid recipe, or nil.
func (r *Recipe) Check() error {
	if r.Format != RecipeFormat {
		return fmt.Errorf("format %q: this waymark reads %s", r.Format, RecipeFormat)
	}
	if len(r.Fields) == 0 {
		return fmt.Errorf("the grid recipe has no fields")
	}
	seen := map[string]string{}
	for _, f := range r.Fields {
		switch {
		case f.Name == "":
			return fmt.Errorf("a field has no name")
		case !slices.Contains([]string{"string", "number", "integer", "boolean"}, f.Type):
			return fmt.Errorf("field %s: type %q: a grid recipe reads strings, numbers and booleans", f.Name, f.Type)
		case f.Format != "" && (f.Type != "string" || f.Format != FormatDate && f.Format != FormatDateTime):
			return fmt.Errorf("field %s: format %q: a grid recipe reads date and date-time strings", f.Name, f.Format)
		case strings.TrimSpace(f.Header) == "":
			return fmt.Errorf("field %s has no header", f.Name)
		case seen[fold(f.Header)] != "":
			return fmt.Errorf("fields %s and %s have one header %q", seen[fold(f.Header)], f.Name, f.Header)
		}
		if f.Column != "" {
			if _, err := ParseRef(f.Column + "1"); err != nil {
				return fmt.Errorf("field %s: column %q is not a column's letters", f.Name, f.Column)
			}
		}
		seen[fold(f.Header)] = f.Name
	}
	return nil
}

// Marshal writes a grid recipe as indented JSON.
func (r *Recipe) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// fieldsOf are the recipe's fields as a list's.
func (r *Recipe) fieldsOf() []Field {
	out := make([]Field, len(r.Fields))
	for i, f := range r.Fields {
		out[i] = Field{Name: f.Name, Type: f.Type, Format: f.Format}
	}
	return out
}

// Reading is what a grid recipe read.
type Reading struct {
	Table Table            `json:"table"`
	Rows  []map[string]any `json:"rows"`
	// Dropped holds the pointers within the list of cells that did not
	// read as their field's type (null).
	Dropped []string `json:"dropped,omitempty"`
}

// Read finds the recipe's table in a grid again, with no model, and reads
// its rows (as [Plan.Rows]). The table is the one whose header row holds
// every field's header (case and spacing aside), most of the learned
// header row, and the learned title; fields are read from the columns
// under their headers wherever they moved. An error wrapping [ErrMisfit]
// names the header that is gone and the headers the nearest table has.
func (r *Recipe) Read(g *Grid, now time.Time) (*Reading, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	t, err := r.find(g)
	if err != nil {
		return nil, err
	}
	p := &Plan{Table: t, Fields: r.fieldsOf(), Columns: map[string]int{}}
	for _, f := range r.Fields {
		p.Columns[f.Name] = r.column(t, f)
	}
	rows, dropped := p.Rows(g, now)
	return &Reading{Table: t, Rows: rows, Dropped: dropped}, nil
}

// find is the table the recipe reads: among the tables found by shape,
// then among the rows near the top of each block (a header the shape did
// not tell), the best that holds every field's header.
func (r *Recipe) find(g *Grid) (Table, error) {
	tables := Tables(g)
	best, score := -1, -1
	for i, t := range tables {
		if s := r.score(t); s > score {
			best, score = i, s
		}
	}
	if best >= 0 {
		return tables[best], nil
	}
	// A header row the shape did not tell (a header over text, not bold):
	// a row near a block's top holding every field's header.
	s := newScan(g)
	var found []Table
	for _, b := range s.blocks() {
		for h := b.r0; h < b.r1 && h <= b.r0+2; h++ {
			bb := b
			bb.r0 = h
			if t, ok := s.table(bb, h); ok && r.score(t) >= 0 {
				found = append(found, t)
				break
			}
		}
	}
	for i, t := range found {
		if s := r.score(t); s > score {
			best, score = i, s
		}
	}
	if best >= 0 {
		return found[best], nil
	}
	return Table{}, r.misfit(tables)
}

// score is how well a table fits the recipe: -1 when a field's header is
// missing, else the learned headers it holds, and more under the learned
// title.
func (r *Recipe) score(t Table) int {
	if t.HeaderBy == "" {
		return -1
	}
	has := map[string]int{}
	for _, c := range t.Columns {
		has[fold(c.Header)]++
	}
	for _, f := range r.Fields {
		if has[fold(f.Header)] == 0 {
			return -1
		}
	}
	s := 0
	for _, h := range r.Header {
		if has[fold(h)] > 0 {
			s++
		}
	}
	if r.Title != "" && fold(t.Title) == fold(r.Title) {
		s += len(r.Header) + 1
	}
	return s
}

// column is the column under a field's header: the one nearest the
// learned letters when two share it.
func (r *Recipe) column(t Table, f RecipeField) int {
	hint := -1
	if ref, err := ParseRef(f.Column + "1"); err == nil {
		hint = ref.Col
	}
	best := -1
	for _, c := range t.Columns {
		if fold(c.Header) != fold(f.Header) {
			continue
		}
		if best < 0 || hint >= 0 && absInt(c.Col-hint) < absInt(best-hint) {
			best = c.Col
		}
	}
	return best
}

// misfit says which header is gone, from the table that holds most of
// the fields' headers.
func (r *Recipe) misfit(tables []Table) error {
	if len(tables) == 0 {
		return fmt.Errorf("%w: the sheet has no table", ErrMisfit)
	}
	var near Table
	var missing []string
	for i, t := range tables {
		has := map[string]bool{}
		for _, c := range t.Columns {
			has[fold(c.Header)] = true
		}
		var gone []string
		for _, f := range r.Fields {
			if !has[fold(f.Header)] {
				gone = append(gone, fmt.Sprintf("%q (field %s)", f.Header, f.Name))
			}
		}
		if i == 0 || len(gone) < len(missing) {
			near, missing = t, gone
		}
	}
	if len(missing) == 0 {
		return fmt.Errorf("%w: no table has a header row holding %s", ErrMisfit, strings.Join(r.Header, ", "))
	}
	var heads []string
	for _, c := range near.Columns {
		heads = append(heads, c.Name())
	}
	what := "the header " + missing[0] + " is"
	if len(missing) > 1 {
		what = "the headers " + strings.Join(missing, ", ") + " are"
	}
	return fmt.Errorf("%w: %s gone: the nearest table, %s, has %s", ErrMisfit, what, near.Range, strings.Join(heads, ", "))
}

// fold is a header's text for comparing: case and spacing aside.
func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
