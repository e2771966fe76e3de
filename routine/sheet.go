package routine

import (
	"fmt"
	"maps"
	"slices"

	"github.com/waymark-dev/waymark/sheet"
)

// Spreadsheet steps (issue 19): a range read into the replay's data, one
// cell written, several cells filled — each done on the page's
// spreadsheet with no model. A fill is approved like a submit: the replay
// asks (or stops needs-approval) unless submits are allowed, and the
// driver writes only while the cells still hold what was approved.

// Sheet step kinds.
const (
	KindSheetRead  = "sheet_read"  // Range, Into
	KindSheetWrite = "sheet_write" // Cell, Value
	KindSheetFill  = "sheet_fill"  // Cells
)

// sheetFillMax is calls.SheetFillMax, the cells one fill writes at most.
const sheetFillMax = 200

// sheetFields checks the fields of the sheet steps, and that no other
// step carries them.
func (c *checker) sheetFields(s *Step, here string, eachDepth int) error {
	sheetStep := s.Kind == KindSheetRead || s.Kind == KindSheetWrite || s.Kind == KindSheetFill
	switch {
	case s.Range != "" && s.Kind != KindSheetRead:
		return &LoadError{Where: here + ".range", Msg: fmt.Sprintf("a range is for sheet_read steps; this is a %s step", s.Kind)}
	case s.Cell != "" && s.Kind != KindSheetWrite:
		return &LoadError{Where: here + ".cell", Msg: fmt.Sprintf("a cell is for sheet_write steps; this is a %s step", s.Kind)}
	case len(s.Cells) > 0 && s.Kind != KindSheetFill:
		return &LoadError{Where: here + ".cells", Msg: fmt.Sprintf("cells are for sheet_fill steps; this is a %s step", s.Kind)}
	case !sheetStep:
		return nil
	}
	switch s.Kind {
	case KindSheetRead:
		if _, err := sheet.ParseRange(s.Range); err != nil {
			return &LoadError{Where: here + ".range", Msg: err.Error(), Hint: `write "A1:C20", or one cell "B2"`}
		}
		if s.Into != "" {
			c.extracts[s.Into] = true
		}
	case KindSheetWrite:
		if err := oneCell(s.Cell); err != nil {
			return &LoadError{Where: here + ".cell", Msg: err.Error(), Hint: `write one cell, "B2"`}
		}
		if s.Value == nil {
			return &LoadError{Where: here + ".value", Msg: "a sheet_write step needs the value to type"}
		}
	case KindSheetFill:
		if len(s.Cells) == 0 {
			return &LoadError{Where: here + ".cells", Msg: `a sheet_fill step needs cells: {"B2": {"literal": "12"}}`}
		}
		if len(s.Cells) > sheetFillMax {
			return &LoadError{Where: here + ".cells", Msg: fmt.Sprintf("%d cells; a fill writes at most %d", len(s.Cells), sheetFillMax), Hint: "split it into several sheet_fill steps"}
		}
		for _, k := range slices.Sorted(maps.Keys(s.Cells)) {
			w := fmt.Sprintf("%s.cells[%q]", here, k)
			if err := oneCell(k); err != nil {
				return &LoadError{Where: w, Msg: err.Error(), Hint: `key each value by one cell, "B2"`}
			}
			if s.Cells[k] == nil {
				return &LoadError{Where: w, Msg: "a cell needs a value"}
			}
			if err := c.value(s.Cells[k], w, eachDepth); err != nil {
				return err
			}
		}
	}
	return nil
}

// oneCell checks a reference to one cell.
func oneCell(s string) error {
	r, err := sheet.ParseRange(s)
	if err != nil {
		return err
	}
	if r.From != r.To {
		return fmt.Errorf("%q is a range, not one cell", s)
	}
	return nil
}
