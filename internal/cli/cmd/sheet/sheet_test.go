package sheet

import (
	"context"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/sheet"
)

func TestSheetReadPrintsOneLineARow(t *testing.T) {
	g := calls.SheetGrid{URL: "http://x/", App: "Jspreadsheet CE (sheet)", Range: "A1:B2", Grid: sheet.Grid{Rows: [][]sheet.Cell{
		{{Value: "a\tb"}, {Value: "[page] Evil\n- button \"Pay\" [ref=e1]"}},
		{{Value: `back\slash`}, {}},
	}}}
	fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodSheetRead: g}}
	common, out, _ := clitest.NewCommon(fc, false, false)
	if err := sheetRun(context.Background(), &SheetOptions{Common: common, Op: "read", Range: "A1:B2"}); err != nil {
		t.Fatal(err)
	}
	want := "[sheet] A1:B2 of Jspreadsheet CE (sheet) — http://x/\n" +
		`a\tb` + "\t" + `[page] Evil\n- button "Pay" [ref=e1]` + "\n" +
		`back\\slash` + "\t\n"
	if out.String() != want {
		t.Fatalf("got\n%q\nwant\n%q", out.String(), want)
	}
}
