package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/apptest"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/sheet"
)

// appsCase is the routine of the steps that work applications: a real
// spreadsheet (Jspreadsheet CE) read, written, filled (an approved
// commit: batch rows journal it) and read by a grid recipe, and a real
// document (Quill) typed into and read. The applications come from npm
// (scripts/install-testdata-apps.sh); without them the case skips, or
// fails with WAYMARK_REQUIRE_BROWSER=1.
func appsCase(t *testing.T) *matrixCase {
	docs := filepath.Join(apptest.DocsDir(), "node_modules")
	sheets := filepath.Join(apptest.SheetsDir(), "node_modules", "jspreadsheet-ce", "dist", "index.js")
	for _, need := range []string{filepath.Join(docs, "quill", "dist", "quill.js"), sheets} {
		if _, err := os.Stat(need); err != nil {
			msg := "the test applications are not installed (" + need + "): run scripts/install-testdata-apps.sh; the sheet, document and grid cells cannot run"
			if os.Getenv("WAYMARK_REQUIRE_BROWSER") == "1" {
				t.Fatal(msg)
			}
			return &matrixCase{name: "apps", file: msg}
		}
	}
	grid := apptest.Sheet(t, apptest.SheetOptions{Data: [][]string{{"Item", "Qty", "Note"}, {"lamp", "3", ""}, {"desk", "12", ""}}})
	page := apptest.QuillPage(t)
	nm := http.StripPrefix("/nm/", http.FileServer(http.Dir(docs)))
	doc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/nm/") {
			nm.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<script type="application/json" id="content">{"html":"<p>Dear Ann, the door code is below.</p><p>Signed, Bob</p>"}</script>` + "\n"))
		_, _ = w.Write(page)
	}))
	t.Cleanup(doc.Close)
	recipe := &sheet.Recipe{Format: sheet.RecipeFormat, Header: []string{"Item", "Qty"}, Learned: 2,
		Fields: []sheet.RecipeField{{Name: "item", Type: "string", Header: "Item", Column: "A"}, {Name: "qty", Type: "number", Header: "Qty", Column: "B"}}}
	c := &matrixCase{name: "apps", submits: replay.SubmitsAllow, vars: map[string]string{"qty": "4", "team": "the sales team"}, reset: func() {},
		r: &routine.Routine{Format: routine.Format, Name: "apps", Version: 1,
			Variables: []routine.Variable{{Name: "qty"}, {Name: "team"}},
			Steps: []routine.Step{
				{ID: "sheet", Kind: routine.KindGoto, URL: grid.URL + "/"},
				{ID: "before", Kind: routine.KindSheetRead, Range: "A1:B3", Into: "before"},
				{ID: "write", Kind: routine.KindSheetWrite, Cell: "B2", Value: &routine.Value{From: "input", Slot: "qty"}},
				{ID: "fill", Kind: routine.KindSheetFill, Cells: map[string]*routine.Value{"B3": {Literal: "13"}, "C2": {Literal: "checked"}}},
				{ID: "after", Kind: routine.KindSheetRead, Range: "A1:C3", Into: "after"},
				{ID: "grid", Kind: routine.KindExtract, Instruction: "every item", Into: "grid", Grid: recipe,
					Schema: json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"item":{"type":"string"},"qty":{"type":"number"}}}}`)},
				{ID: "letter", Kind: routine.KindGoto, URL: doc.URL + "/quill.html"},
				{ID: "greet", Kind: routine.KindDocInsert, Doc: &routine.DocStep{After: "Dear Ann,"}, Value: &routine.Value{Template: " and %team%,"}},
				{ID: "read", Kind: routine.KindDocRead, Into: "letter"},
			}}}
	c.cells = func(t *testing.T, got matrixRun) {
		var before, after struct{ Rows [][]string }
		_ = json.Unmarshal(got.data["before"], &before)
		_ = json.Unmarshal(got.data["after"], &after)
		cell := func(rows [][]string, r, c int) string {
			if r < len(rows) && c < len(rows[r]) {
				return rows[r][c]
			}
			return ""
		}
		matrixCell(t, "sheet_read", cell(before.Rows, 2, 0) == "desk" && cell(before.Rows, 1, 1) == "3", "read before %q", before.Rows)
		matrixCell(t, "sheet_write", cell(after.Rows, 1, 1) == "4", "the sheet holds %q after the write", after.Rows)
		matrixCell(t, "sheet_fill", cell(after.Rows, 2, 1) == "13" && cell(after.Rows, 1, 2) == "checked", "the sheet holds %q after the fill", after.Rows)
		matrixCell(t, "grid", string(got.data["grid"]) == `[{"item":"lamp","qty":4},{"item":"desk","qty":13}]`, "the grid recipe read %s", got.data["grid"])
		var letter struct{ Text string }
		_ = json.Unmarshal(got.data["letter"], &letter)
		matrixCell(t, "doc_insert", strings.Contains(letter.Text, "Dear Ann, and the sales team, the door code"), "the document reads %q", letter.Text)
		matrixCell(t, "doc_read", strings.Contains(letter.Text, "Signed, Bob"), "the document reads %q", letter.Text)
	}
	c.save(t)
	return c
}
