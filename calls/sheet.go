package calls

import (
	"context"

	"github.com/waymark-dev/waymark/sheet"
)

// Spreadsheets worked as a hand works them (issue 19): a range is gone to
// (the app's name box, or a click and a shift-click), copied, and read
// from the clipboard; one cell is typed and committed with Enter, then
// read back; several cells are written only when approved, like a
// submit.

// Method names of the sheet calls.
const (
	MethodSheetRead  = "sheet_read"
	MethodSheetWrite = "sheet_write"
	MethodSheetDump  = "sheet_dump"
	MethodSheetFill  = "sheet_fill"
)

// Bounds of the sheet calls.
const (
	// SheetMaxCells bounds the cells one read copies.
	SheetMaxCells = 52_000
	// SheetDumpRows and SheetDumpCols bound a dump by default.
	SheetDumpRows = 1000
	SheetDumpCols = 52
	// SheetFillMax bounds the cells one fill writes.
	SheetFillMax = 200
)

// SheetReadRequest reads a range of the current page's spreadsheet.
type SheetReadRequest struct {
	Range string `json:"range"` // "A1:C20", or one cell "B2"
	Hand  bool   `json:"hand,omitempty"`
}

// SheetDumpRequest reads the sheet's whole used range.
type SheetDumpRequest struct {
	// MaxRows and MaxCols bound what is kept; zero means SheetDumpRows
	// and SheetDumpCols.
	MaxRows int  `json:"max_rows,omitempty"`
	MaxCols int  `json:"max_cols,omitempty"`
	Hand    bool `json:"hand,omitempty"`
}

// SheetGrid is what a read or a dump found: the cells with their origin,
// as the app's clipboard gave them.
type SheetGrid struct {
	URL string `json:"url"`
	App string `json:"app"` // the application, as the outline names it
	// Range is the range the grid covers ("A1:C20"); for a dump, the used
	// range after trailing blank rows and columns are cut.
	Range string     `json:"range"`
	Grid  sheet.Grid `json:"grid"`
	// Cut says a dump held more than its bounds: "2400 rows, kept 1000".
	Cut string `json:"cut,omitempty"`
	// Formatting says where bold and fill came from: "clipboard html", or
	// "none" when the app's clipboard carries only text.
	Formatting string `json:"formatting"`
	// Tables are the tables a dump finds in the grid by their shape
	// (sheet.Tables): where each is, its title, header and columns.
	Tables []SheetTable `json:"tables,omitempty"`
}

// SheetTable is one table of a dumped sheet.
type SheetTable struct {
	// Summary describes it in one line: "A3:D7 'Orders 2026': 5 rows;
	// Date, Customer, Amount (number), Paid (yes/no)".
	Summary string `json:"summary"`
	// At is its range as the sheet writes it ("A3:D7").
	At string `json:"at"`
	sheet.Table
}

// SheetWriteRequest types one cell's value and commits it with Enter.
type SheetWriteRequest struct {
	Cell  string `json:"cell"`
	Value string `json:"value"`
	// Secret names the secret Value is: it is typed like a value and
	// never shown (results say «secret:NAME»).
	Secret string `json:"secret,omitempty"`
	Hand   bool   `json:"hand,omitempty"`
}

// SheetCell is one cell of a write or a fill: what it held before, what
// it holds after, and whether that is what was typed.
type SheetCell struct {
	Cell     string `json:"cell"`
	Before   string `json:"before"`
	After    string `json:"after,omitempty"`
	ReadBack bool   `json:"read_back,omitempty"`
	Secret   bool   `json:"secret,omitempty"`
	Error    string `json:"error,omitempty"`
}

// SheetWriteResult is one written cell.
type SheetWriteResult struct {
	URL string `json:"url"`
	App string `json:"app"`
	SheetCell
}

// SheetFillRequest writes several cells. Without Approve it writes
// nothing: it fails with ErrNeedsApproval carrying an [Approval] whose
// Form holds what the cells hold now. With the approval sent back, it
// writes only while every cell still holds what was shown (ErrChanged
// otherwise).
type SheetFillRequest struct {
	Cells map[string]string `json:"cells"` // by reference: {"B2": "12"}
	// Secrets are cells whose values are secrets, by reference: typed,
	// never shown.
	Secrets map[string]string `json:"secrets,omitempty"`
	Approve *Approval         `json:"approve,omitempty"`
	Hand    bool              `json:"hand,omitempty"`
}

// SheetFillResult is what an approved fill wrote.
type SheetFillResult struct {
	URL   string      `json:"url"`
	App   string      `json:"app"`
	Cells []SheetCell `json:"cells"`
}

// SheetRead reads a range of the current page's spreadsheet.
func (r Remote) SheetRead(ctx context.Context, req SheetReadRequest) (*SheetGrid, error) {
	return remote[SheetGrid](ctx, r, MethodSheetRead, req)
}

// SheetDump reads the whole used range of the current page's spreadsheet.
func (r Remote) SheetDump(ctx context.Context, req SheetDumpRequest) (*SheetGrid, error) {
	return remote[SheetGrid](ctx, r, MethodSheetDump, req)
}

// SheetWrite types one cell and reads it back.
func (r Remote) SheetWrite(ctx context.Context, req SheetWriteRequest) (*SheetWriteResult, error) {
	return remote[SheetWriteResult](ctx, r, MethodSheetWrite, req)
}

// SheetFill writes several cells once approved.
func (r Remote) SheetFill(ctx context.Context, req SheetFillRequest) (*SheetFillResult, error) {
	return remote[SheetFillResult](ctx, r, MethodSheetFill, req)
}
