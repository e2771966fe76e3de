package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
)

// The sheet tools (issue 19): a spreadsheet read and written as a hand
// does, with no model. A fill of several cells is approved by the person
// like a submit (approve.go): the agent never approves its own.

type (
	sheetReadIn struct {
		Range string `json:"range" jsonschema:"A1:C20, or one cell B2"`
	}
	sheetDumpIn struct {
		MaxRows int `json:"max_rows,omitempty" jsonschema:"default 1000"`
		MaxCols int `json:"max_cols,omitempty" jsonschema:"default 52"`
	}
	sheetWriteIn struct {
		Cell  string `json:"cell" jsonschema:"one cell, e.g. B2"`
		Value string `json:"value" jsonschema:"typed, then Enter"`
	}
	sheetFillIn struct {
		Cells map[string]string `json:"cells" jsonschema:"values by cell: {\"B2\": \"12\"}; at most 200"`
	}
)

// registerSheets adds the sheet tools.
func (t *tools) registerSheets(s *sdk.Server) {
	add(s, "sheet_read", "Read a spreadsheet range exactly (TSV).", func(ctx context.Context, r *sdk.CallToolRequest, in sheetReadIn) (string, calls.SheetGrid, error) {
		g, err := t.s.SheetRead(ctx, calls.SheetReadRequest{Range: in.Range})
		if err != nil {
			return "", calls.SheetGrid{}, err
		}
		return gridText(g), *g, nil
	})
	add(s, "sheet_dump", "Read the spreadsheet's whole used range (TSV).", func(ctx context.Context, r *sdk.CallToolRequest, in sheetDumpIn) (string, calls.SheetGrid, error) {
		g, err := t.s.SheetDump(ctx, calls.SheetDumpRequest{MaxRows: in.MaxRows, MaxCols: in.MaxCols})
		if err != nil {
			return "", calls.SheetGrid{}, err
		}
		return gridText(g), *g, nil
	})
	add(s, "sheet_write", "Type one cell, Enter, read it back.", func(ctx context.Context, r *sdk.CallToolRequest, in sheetWriteIn) (string, calls.SheetWriteResult, error) {
		res, err := t.s.SheetWrite(ctx, calls.SheetWriteRequest{Cell: in.Cell, Value: in.Value})
		if err != nil {
			return "", calls.SheetWriteResult{}, err
		}
		return fmt.Sprintf("%s: %q → %q (read back)", res.Cell, res.Before, res.After), *res, nil
	})
	add(s, "sheet_fill", "Write several cells; the person approves.", func(ctx context.Context, r *sdk.CallToolRequest, in sheetFillIn) (string, calls.SheetFillResult, error) {
		res, stop := gate(ctx, r, func(approve *calls.Approval, allow bool) (*calls.SheetFillResult, error) {
			req := calls.SheetFillRequest{Cells: in.Cells, Approve: approve}
			res, err := t.s.SheetFill(ctx, req)
			if err != nil && allow && approve == nil {
				// [mcp] submits = "allow", for a client that cannot ask:
				// the person chose to let these through in the config.
				if a, ok := calls.ApprovalOf(err); ok {
					req.Approve = &a
					return t.s.SheetFill(ctx, req)
				}
			}
			return res, err
		})
		if stop != nil {
			return "", calls.SheetFillResult{}, answered(stop)
		}
		var b strings.Builder
		for _, c := range res.Cells {
			mark := "read back"
			if !c.ReadBack {
				mark = "NOT TAKEN: " + c.Error
			}
			fmt.Fprintf(&b, "%s: %q → %q (%s)\n", c.Cell, c.Before, c.After, mark)
		}
		return strings.TrimRight(b.String(), "\n"), *res, nil
	})
}

// gridText is a grid as the tools answer it: a header line, then one row
// a line, tab separated, each cell quoted only when it holds a tab, a
// line break, a quote or a backslash, so a cell cannot make a line of its
// own.
func gridText(g *calls.SheetGrid) string {
	var b strings.Builder
	for i, row := range g.Grid.Rows {
		if i > 0 {
			b.WriteByte('\n')
		}
		for j, c := range row {
			if j > 0 {
				b.WriteByte('\t')
			}
			v := c.Value
			if strings.ContainsAny(v, "\t\n\r\"\\") {
				v = fmt.Sprintf("%q", v)
			}
			if c.Bold {
				v = "**" + v + "**"
			}
			b.WriteString(v)
		}
	}
	head := fmt.Sprintf("[sheet] %s of %s — %s", g.Range, g.App, g.URL)
	if g.Cut != "" {
		head += fmt.Sprintf(" (cut: %s)", g.Cut)
	}
	// The cells are the page's words (invariant 3): fenced as data, as
	// doc_read and page_tool give theirs.
	return head + "\n" + pilot.FenceNote + "\n" + pilot.Fence(b.String())
}
