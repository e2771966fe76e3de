package driver_test

import (
	"context"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// nameBoxPage is a small grid with a name box, as Google Sheets and Excel
// have one: a reference typed into the box and Enter select the range,
// and the page's copy handler puts the selection on the clipboard as
// text and as an HTML table with the cells' formatting, as those apps do.
const nameBoxPage = `<!doctype html><title>Grid</title>
<input id="ref" aria-label="Name box"> <div id="grid" tabindex="0"></div>
<script>
const data = [["Orders", "", ""], ["Date", "Amount", "Paid"], ["2026-01-02", "12.50", "yes"], ["2026-01-03", "7", "no"]];
const style = {"0,0": "font-weight:bold", "1,0": "font-weight:bold;background-color:#fff2cc", "1,1": "font-weight:bold;background-color:#fff2cc", "1,2": "font-weight:bold;background-color:#fff2cc"};
const grid = document.getElementById('grid');
grid.innerHTML = '<table>' + data.map((r, i) => '<tr>' + r.map((v, j) => '<td style="' + (style[i + ',' + j] || '') + '">' + v + '</td>').join('') + '</tr>').join('') + '</table>';
let sel = null;
const cell = s => { const m = /^([A-Z]+)([0-9]+)$/.exec(s); let c = 0; for (const ch of m[1]) c = c * 26 + ch.charCodeAt(0) - 64; return [Number(m[2]) - 1, c - 1]; };
document.getElementById('ref').addEventListener('keydown', e => {
  if (e.key !== 'Enter') return;
  const [a, b] = e.target.value.split(':'); const f = cell(a), t = cell(b || a);
  sel = [f, t]; e.preventDefault(); grid.focus();
});
document.addEventListener('copy', e => {
  if (!sel) return;
  const [[r0, c0], [r1, c1]] = sel; const rows = [];
  let html = '<table>';
  for (let r = r0; r <= r1; r++) {
    const row = []; html += '<tr>';
    for (let c = c0; c <= c1; c++) {
      const v = (data[r] || [])[c] || ''; row.push(v);
      html += '<td style="' + (style[r + ',' + c] || '') + '">' + v + '</td>';
    }
    rows.push(row.join('\t')); html += '</tr>';
  }
  e.clipboardData.setData('text/plain', rows.join('\n'));
  e.clipboardData.setData('text/html', html + '</table>');
  e.preventDefault();
});
</script>`

// TestSheetNameBoxApp reads a grid described under [[apps]]: the name box
// path Google Sheets and Excel take, and bold and fill from the
// clipboard's HTML.
func TestSheetNameBoxApp(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := driver.Launch(ctx, driver.Options{ExecPath: path, Args: browsertest.GuardArgs,
		Apps: []apps.App{{Name: "Team grid", Kind: apps.KindSheet, Hosts: []string{"127.0.0.1"}, Marker: "#grid", NameBox: "#ref", Grid: "#grid"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "namebox")
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, map[string]string{"/": nameBoxPage})
	open(t, s, ctx, srv.URL+"/")
	g, err := s.SheetRead(ctx, calls.SheetReadRequest{Range: "A2:C3"})
	if err != nil {
		t.Fatal(err)
	}
	if g.App != "Team grid (sheet, from the config)" || g.Formatting != "clipboard html" {
		t.Fatalf("grid %+v", g)
	}
	r := g.Grid.Rows
	if r[0][0].Value != "Date" || !r[0][0].Bold || r[0][1].Fill != "#fff2cc" || r[1][1].Value != "12.50" || r[1][1].Bold || r[1][1].Fill != "" {
		t.Fatalf("cells %+v", r)
	}
	// A dump goes to its bounds through the name box and cuts the blanks.
	d, err := s.SheetDump(ctx, calls.SheetDumpRequest{MaxRows: 10, MaxCols: 5})
	if err != nil {
		t.Fatal(err)
	}
	if d.Range != "A1:C4" || !d.Grid.Rows[0][0].Bold || d.Grid.Rows[3][2].Value != "no" {
		t.Fatalf("dump %+v", d)
	}
}
