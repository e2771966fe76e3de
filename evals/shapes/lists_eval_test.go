//go:build evals

package shapes

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/pilot"
)

// runLists reads each list case twice: with the page-reading model,
// learning a recipe (over every page the list has), then by the recipe
// alone with no model. A case is right when the read with no model gives
// every truth row with every field right, and nothing else.
func runLists(t *testing.T, cases []*ListCase, res *results) {
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			tl := &tally{}
			defer res.add("lists", tl)
			tl.cases++
			truth := c.Truth()
			tl.rows += len(truth)
			srv := httptest.NewServer(c.Handler())
			defer srv.Close()
			s, ctx := drivertest.Session(t, "shapes-"+c.Name, 120*time.Second)
			lo := pilot.ListOptions{Pages: len(c.Pages) + 1, Key: c.Key, Scroll: c.Paging == "scroll"}
			now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
			schema := json.RawMessage(c.Schema)
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
				t.Fatal(err)
			}
			m := &pageModel{rows: c.ModelRows(), key: c.Key}
			first, err := pilot.New(s, m, nil).ExtractWith(ctx, c.Instruction, schema, pilot.ExtractOptions{Learn: true, List: lo, Now: now})
			tl.calls += m.n()
			if err != nil {
				res.miss("lists", c.Name, c.Traits, "the read with the model failed: %v", err)
				return
			}
			var firstRows []map[string]any
			json.Unmarshal(first.Data, &firstRows)
			if _, wrong, _, _ := compareRows(firstRows, truth, c.Key, c.fields); wrong != "" {
				t.Logf("the read with the model: %s (dropped as not shown: %v)", wrong, first.Dropped)
			}
			if first.Recipe == nil {
				res.miss("lists", c.Name, c.Traits, "no recipe kept: %s", first.RecipeNote)
				return
			}
			tl.kept++
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
				t.Fatal(err)
			}
			again, err := pilot.New(s, nil, nil).ExtractWith(ctx, c.Instruction, schema, pilot.ExtractOptions{Recipe: first.Recipe, List: lo, Now: now})
			if err != nil {
				res.miss("lists", c.Name, c.Traits, "the recipe read with no model failed: %v", err)
				return
			}
			var rows []map[string]any
			if err := json.Unmarshal(again.Data, &rows); err != nil {
				t.Errorf("the recipe's rows are no list: %s", again.Data)
				return
			}
			right, wrong, lost, extra := compareRows(rows, truth, c.Key, c.fields)
			tl.rowsRight += right
			if bad := valueNotShown(rows, truth, c.Key, c.fields); bad != "" {
				// The recipe read with no misfit and a value the page does
				// not show: a wrong row presented as right.
				t.Errorf("a wrong row presented as right: %s", bad)
			}
			if right == len(truth) && extra == 0 {
				tl.right++
				return
			}
			res.miss("lists", c.Name, c.Traits, "by the recipe: %d of %d rows right, %d not read, %d extra (ended %s after %d pages) %s", right, len(truth), lost, extra, again.Ended, again.Pages, wrong)
		})
	}
}
