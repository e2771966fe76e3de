//go:build evals

package reliability

import (
	"encoding/json"
	"net/http"
	"path/filepath"

	"github.com/waymark-dev/waymark/internal/apptest"
)

// sheetAssets serves Jspreadsheet CE's files (testdata/apps/sheets, as
// internal/apptest serves them) below /j/sheet/.
var sheetAssets = func() http.Handler {
	dir := apptest.SheetsDir()
	mux := http.NewServeMux()
	for prefix, sub := range map[string]string{"/jss/": "jspreadsheet-ce/dist", "/formula/": "@jspreadsheet/formula/dist", "/jsuites/": "jsuites/dist"} {
		mux.Handle(prefix, http.StripPrefix(prefix, http.FileServer(http.Dir(filepath.Join(dir, "node_modules", sub)))))
	}
	return http.StripPrefix("/j/sheet", mux)
}()

// sheetPage is the spreadsheet holding data, as apptest.Sheet draws it.
func sheetPage(data [][]string) string {
	b, _ := json.Marshal(data)
	return `<!doctype html><html><head><meta charset="utf-8"><title>Stock sheet</title>
<link rel="stylesheet" href="jsuites/jsuites.css"><link rel="stylesheet" href="jss/jspreadsheet.css">
<script src="jsuites/jsuites.js"></script><script src="formula/index.js"></script><script src="jss/index.js"></script></head>
<body><div id="sheet"></div><script>
const data = ` + string(b) + `;
jspreadsheet(document.getElementById('sheet'), {worksheets: [{data, minDimensions: [3, 16], allowInsertRow: false, allowInsertColumn: false, defaultColWidth: 90}],
  onload: () => { window.sheet = document.getElementById('sheet').spreadsheet.worksheets[0]; window.sheetReady = true; }});
</script></body></html>`
}
