// Package apptest serves the real open-source applications the sheet and
// doc tests work (installed from npm under testdata/apps by
// scripts/install-testdata-apps.sh) on loopback, with the data a test
// gives.
package apptest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// SheetsDir is testdata/apps/sheets of the module.
func SheetsDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "apps", "sheets")
}

// DocsDir is testdata/apps/docs of the module (the document editors).
func DocsDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "apps", "docs")
}

// QuillPage is the page of Quill, the document editor the tests type
// into (driver/testdata/docs/quill.html); the test serves the editor's
// scripts from DocsDir's node_modules beside it.
func QuillPage(t testing.TB) []byte {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "driver", "testdata", "docs", "quill.html"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Quill returns the editor's node_modules folder (served under a path of
// the test's choosing: quill.html loads /nm/quill/dist/…) and its page; it
// fails (WAYMARK_REQUIRE_BROWSER=1) or skips the test when the editor is
// not installed.
func Quill(t testing.TB) (modules string, page []byte) {
	t.Helper()
	modules = filepath.Join(DocsDir(), "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "quill", "dist", "quill.js")); err != nil {
		msg := fmt.Sprintf("the editors are not installed (%v): run scripts/install-testdata-apps.sh", err)
		if os.Getenv("WAYMARK_REQUIRE_BROWSER") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return modules, QuillPage(t)
}

// need fails (WAYMARK_REQUIRE_BROWSER=1) or skips the test when the npm
// packages are not installed.
func need(t testing.TB, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "jspreadsheet-ce", "dist", "index.js")); err == nil {
		return
	}
	msg := fmt.Sprintf("the test spreadsheet is not installed in %s: run scripts/install-testdata-apps.sh (npm ci)", dir)
	if os.Getenv("WAYMARK_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// SheetOptions say what the served sheet holds and how its page behaves.
type SheetOptions struct {
	// Data is the cells, row by row.
	Data [][]string
	// Style is Jspreadsheet's style by cell name ({"A1": "font-weight: bold"}).
	Style map[string]string
	// BlockCopy makes the page stop every copy (a page that blocks the
	// clipboard).
	BlockCopy bool
	// Title is the page's title.
	Title string
	// Script is the page's own script, run after the sheet is made (a
	// hostile page's: window.sheet is there once window.sheetReady).
	Script string
}

// Sheet serves Jspreadsheet CE with the data at / on 127.0.0.1; the page
// sets window.sheetReady once the sheet is drawn, and keeps the sheet at
// window.sheet (for a test's assertions on the app's own data).
func Sheet(t testing.TB, o SheetOptions) *httptest.Server {
	t.Helper()
	dir := SheetsDir()
	need(t, dir)
	data, _ := json.Marshal(o.Data)
	style, _ := json.Marshal(o.Style)
	if o.Style == nil {
		style = []byte("{}")
	}
	cols := 0
	for _, r := range o.Data {
		cols = max(cols, len(r))
	}
	block := ""
	if o.BlockCopy {
		block = `document.addEventListener('copy', e => { e.preventDefault(); e.stopImmediatePropagation(); }, true);
document.addEventListener('keydown', e => { if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'c') { e.preventDefault(); e.stopImmediatePropagation(); } }, true);`
	}
	title := o.Title
	if title == "" {
		title = "Sheet"
	}
	page := `<!doctype html><html><head><meta charset="utf-8"><title>` + title + `</title>
<link rel="stylesheet" href="/jsuites/jsuites.css"><link rel="stylesheet" href="/jss/jspreadsheet.css">
<script src="/jsuites/jsuites.js"></script><script src="/formula/index.js"></script><script src="/jss/index.js"></script></head>
<body><div id="sheet"></div><script>
` + block + `
const data = ` + string(data) + `;
jspreadsheet(document.getElementById('sheet'), {worksheets: [{data, minDimensions: [` + fmt.Sprint(max(cols, 1)) + `, ` + fmt.Sprint(max(len(o.Data), 1)) + `], style: ` + string(style) + `, allowInsertRow: false, allowInsertColumn: false, defaultColWidth: 90}],
  onload: () => { window.sheet = document.getElementById('sheet').spreadsheet.worksheets[0]; window.sheetReady = true; }});
` + o.Script + `
</script></body></html>`
	mux := http.NewServeMux()
	mux.Handle("/jss/", http.StripPrefix("/jss/", http.FileServer(http.Dir(filepath.Join(dir, "node_modules", "jspreadsheet-ce", "dist")))))
	mux.Handle("/formula/", http.StripPrefix("/formula/", http.FileServer(http.Dir(filepath.Join(dir, "node_modules", "@jspreadsheet", "formula", "dist")))))
	mux.Handle("/jsuites/", http.StripPrefix("/jsuites/", http.FileServer(http.Dir(filepath.Join(dir, "node_modules", "jsuites", "dist")))))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// Grid builds rows × cols of cells "r{row}c{col}" (1-based), for big
// sheets.
func Grid(rows, cols int) [][]string {
	out := make([][]string, rows)
	for i := range out {
		out[i] = make([]string, cols)
		for j := range out[i] {
			out[i][j] = "r" + fmt.Sprint(i+1) + "c" + fmt.Sprint(j+1)
		}
	}
	return out
}

// Escape is a cell value with its tabs and line breaks shown, for test
// messages.
func Escape(s string) string {
	return strings.NewReplacer("\t", `\t`, "\n", `\n`, "\r", `\r`).Replace(s)
}

// XSpreadsheet serves x-data-spreadsheet, a spreadsheet drawn on a canvas
// (npm x-data-spreadsheet), with the data at / on 127.0.0.1; the page
// sets window.sheetReady once the sheet is made.
func XSpreadsheet(t testing.TB, data [][]string) *httptest.Server {
	t.Helper()
	dir := SheetsDir()
	need(t, dir)
	dist := filepath.Join(dir, "node_modules", "x-data-spreadsheet", "dist")
	if _, err := os.Stat(filepath.Join(dist, "xspreadsheet.js")); err != nil {
		msg := fmt.Sprintf("x-data-spreadsheet is not installed in %s: run npm ci there (scripts/install-testdata-apps.sh skips a folder whose node_modules is there)", dir)
		if os.Getenv("WAYMARK_REQUIRE_BROWSER") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	b, _ := json.Marshal(data)
	page := `<!doctype html><html><head><meta charset="utf-8"><title>Sheet</title>
<link rel="stylesheet" href="/xs/xspreadsheet.css"><script src="/xs/xspreadsheet.js"></script></head>
<body><div id="sheet"></div><script>
const data = ` + string(b) + `;
const rows = {len: Math.max(data.length, 20)};
data.forEach((r, i) => { rows[i] = {cells: Object.fromEntries(r.map((v, j) => [j, {text: v}]))}; });
x_spreadsheet('#sheet', {showToolbar: true, showGrid: true}).loadData([{name: 'Orders', rows}]);
window.sheetReady = true;
</script></body></html>`
	mux := http.NewServeMux()
	mux.Handle("/xs/", http.StripPrefix("/xs/", http.FileServer(http.Dir(dist))))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}
