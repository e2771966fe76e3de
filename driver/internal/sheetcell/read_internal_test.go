package sheetcell

import (
	"errors"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestDumpBoundsDefaults: a dump that names no bounds keeps the default
// 1,000 rows × 52 columns (driver's TestSheetDumpWholeSheet dumps a
// smaller sheet whole in the browser), one that names them keeps those,
// and one over ten reads' cells is refused as bad input.
func TestDumpBoundsDefaults(t *testing.T) {
	for _, c := range []struct {
		req        calls.SheetDumpRequest
		rows, cols int
	}{
		{calls.SheetDumpRequest{}, 1000, 52},
		{calls.SheetDumpRequest{MaxRows: 10, MaxCols: 5}, 10, 5},
		{calls.SheetDumpRequest{MaxRows: 3}, 3, 52},
	} {
		rows, cols, err := DumpBounds(c.req)
		if err != nil || rows != c.rows || cols != c.cols {
			t.Errorf("%+v: %d × %d, %v; want %d × %d", c.req, rows, cols, err, c.rows, c.cols)
		}
	}
	if _, _, err := DumpBounds(calls.SheetDumpRequest{MaxRows: 100_000, MaxCols: 52}); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("a dump of 100,000 rows: %v, want bad input", err)
	}
}
