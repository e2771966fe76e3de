//go:build evals

package shapes

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/siteapi"
)

// runAPIs has the browser read each API case's first two pages while
// the session captures, learns the API from that capture and the rows
// the browser read (api learn: siteapi.LearnCall), then calls it
// (api call: siteapi.Call) as a person would right after. A case is
// learned when a recipe is kept, and right when the call gives every
// truth row of every page with every field right.
func runAPIs(t *testing.T, cases []*APICase, res *results) {
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			ta := &tally{}
			defer res.add("apis", ta)
			ta.cases++
			truth := c.Truth()
			ta.rows += len(truth)
			srv := httptest.NewServer(c.Handler())
			defer srv.Close()
			s, ctx := drivertest.Session(t, "shapes-"+c.Name, 120*time.Second)
			if _, err := s.StartCapture(ctx, calls.CaptureStartRequest{}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
				t.Fatal(err)
			}
			var rows []map[string]any
			for p := 1; p <= 2; p++ {
				if p > 1 {
					if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#next"}); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := s.Wait(ctx, calls.WaitRequest{Selector: fmt.Sprintf(`body[data-page="%d"]`, p)}); err != nil {
					t.Fatal(err)
				}
				got, err := s.Eval(ctx, calls.EvalRequest{Expression: ReadJS})
				if err != nil {
					t.Fatal(err)
				}
				var page []map[string]any
				if err := json.Unmarshal(got.Value, &page); err != nil || len(page) != len(c.Pages[p-1]) {
					t.Fatalf("the browser read %s on page %d", got.Value, p)
				}
				rows = append(rows, page...)
			}
			stop, err := s.StopCapture(ctx, calls.CaptureStopRequest{})
			if err != nil {
				t.Fatal(err)
			}
			var f capture.File
			if err := json.Unmarshal(stop.Capture, &f); err != nil {
				t.Fatal(err)
			}
			r, rep, err := siteapi.LearnCall(ctx, s, &f, rows, siteapi.LearnOptions{Page: srv.URL + "/"})
			if err != nil {
				why := err.Error()
				if rep != nil {
					b, _ := json.Marshal(rep)
					t.Logf("report: %s", b)
				}
				res.miss("apis", c.Name, c.Traits, "api learn: %s", why)
				return
			}
			ta.kept++
			b, _ := r.Marshal()
			for _, leak := range []string{"cursor:v1"} {
				if strings.Contains(string(b), leak) {
					t.Logf("the recipe holds a page's cursor %q", leak)
				}
			}
			got, err := siteapi.Call(ctx, s, r, siteapi.CallOptions{})
			if err != nil {
				res.miss("apis", c.Name, c.Traits, "api call: %v", err)
				return
			}
			right, wrong, lost, extra := compareRows(got.Rows, truth, "name", c.Fields)
			ta.rowsRight += right
			if bad := valueNotShown(got.Rows, truth, "name", c.Fields); bad != "" {
				t.Errorf("the call gives a value the site does not have: %s", bad)
			}
			if right == len(truth) && extra == 0 {
				ta.right++
				return
			}
			res.miss("apis", c.Name, c.Traits, "api call: %d of %d rows right over %d pages (ended %s), %d not read, %d extra %s", right, len(truth), got.Pages, got.Ended, lost, extra, wrong)
		})
	}
}
