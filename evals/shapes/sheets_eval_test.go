//go:build evals

package shapes

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/apptest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// runSheets dumps each sheet (sheet dump: Session.SheetDump) and checks
// its tables against the truth: a table is named when the dump finds it
// at its range with its title; a row is right when the table's rows
// cover it and every cell reads as the sheet holds it. A case is right
// when every table is named and every row right.
func runSheets(t *testing.T, cases []*SheetCase, res *results) {
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			ts := &tally{}
			defer res.add("sheets", ts)
			ts.cases++
			s, ctx := drivertest.Session(t, "shapes-"+c.Name, 120*time.Second)
			if c.Canvas {
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					io.WriteString(w, c.CanvasPage())
				}))
				defer srv.Close()
				if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
					t.Fatal(err)
				}
				_, err := s.SheetDump(ctx, calls.SheetDumpRequest{})
				switch {
				case err == nil:
					t.Errorf("a canvas grid dumped with no error")
				case strings.Contains(strings.ToLower(err.Error()), "canvas"):
					ts.right++
				default:
					res.miss("sheets", c.Name, []string{c.Layout}, "a canvas grid: the dump does not say why it cannot read it: %v", err)
				}
				return
			}
			srv := apptest.Sheet(t, apptest.SheetOptions{Data: c.Data, Style: c.Style, Title: "Sheet " + c.Name})
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Wait(ctx, calls.WaitRequest{Selector: ".jss_worksheet td[data-x='0'][data-y='0']"}); err != nil {
				t.Fatalf("the sheet was not drawn: %v", err)
			}
			g, err := s.SheetDump(ctx, calls.SheetDumpRequest{})
			for _, tb := range c.Tables {
				ts.rows += len(tb.Rows)
			}
			if err != nil {
				res.miss("sheets", c.Name, []string{c.Layout}, "sheet dump: %v", err)
				return
			}
			cell := func(row, col int) string { // 1-based
				if row-1 < len(g.Grid.Rows) && col-1 < len(g.Grid.Rows[row-1]) {
					return g.Grid.Rows[row-1][col-1].Value
				}
				return ""
			}
			ok := true
			var found []string
			for _, d := range g.Tables {
				found = append(found, d.Summary)
			}
			for _, tb := range c.Tables {
				var at *calls.SheetTable
				for i := range g.Tables {
					if g.Tables[i].At == tb.At {
						at = &g.Tables[i]
					}
				}
				switch {
				case at == nil:
					ok = false
					res.miss("sheets", c.Name, []string{c.Layout}, "no table at %s %q; the dump found: %s", tb.At, tb.Title, strings.Join(found, " | "))
					continue
				case at.Title != tb.Title:
					ok = false
					res.miss("sheets", c.Name, []string{c.Layout}, "the table at %s is titled %q, the sheet says %q", tb.At, at.Title, tb.Title)
				default:
					ts.kept++
				}
				first, last := at.First+1, at.Last+1 // the dump counts rows from 0
				if first != tb.First {
					ok = false
					res.miss("sheets", c.Name, []string{c.Layout}, "the table at %s starts its rows at %d, the sheet at %d", tb.At, first, tb.First)
				}
				var kinds []string
				for _, col := range at.Columns {
					kinds = append(kinds, string(col.Kind))
				}
				if strings.Join(kinds, ",") != strings.Join(tb.Kinds, ",") {
					ok = false
					res.miss("sheets", c.Name, []string{c.Layout}, "the table at %s has columns of kinds %v, the sheet's are %v (%s)", tb.At, kinds, tb.Kinds, at.Summary)
				}
				for k, row := range tb.Rows {
					right := first <= tb.First+k && tb.First+k <= last
					for j, v := range row {
						if got := cell(tb.First+k, tb.Col+j); got != v {
							if right {
								t.Errorf("%s: %s reads %q, the sheet holds %q", c.Name, cellName(tb.First+k, tb.Col+j), got, v)
							}
							right = false
						}
					}
					if right {
						ts.rowsRight++
					} else {
						ok = false
					}
				}
			}
			if len(g.Tables) != len(c.Tables) {
				ok = false
				res.miss("sheets", c.Name, []string{c.Layout}, "the dump found %d tables, the sheet has %d: %s", len(g.Tables), len(c.Tables), strings.Join(found, " | "))
			}
			if ok {
				ts.right++
			}
			t.Logf("tables: %s", strings.Join(found, " | "))
		})
	}
}
