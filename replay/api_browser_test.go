package replay

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/apishop"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/siteapi"
)

const lampsSchema = `{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"price":{"type":"string"},"stock":{"type":"string"}}}}`

// TestReplayAPIStep: an api step reads the list from the site's API and
// skips its browser steps (the shop serves no page); when the API's field
// names change, the browser steps read the list while captured, the API
// is learned again from what they read (a heal of kind api), and the
// healed routine calls the new API with no page again.
func TestReplayAPIStep(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t, "api-step")
	shop := apishop.Start(apishop.Options{})
	defer shop.Close()

	// Recorded: the browser read the first page, and the API behind it
	// was learned from the capture of that load.
	first := shop.Products()[0].Name
	if _, err := s.Open(ctx, calls.OpenRequest{URL: shop.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: first}); err != nil {
		t.Fatal(err)
	}
	l, err := recipe.ListOf(json.RawMessage(lampsSchema))
	if err != nil {
		t.Fatal(err)
	}
	var want []map[string]any
	for _, p := range shop.Products()[:10] {
		want = append(want, map[string]any{"name": p.Name, "price": p.Price, "stock": p.Stock})
	}
	dom, err := recipe.Learn(ctx, s, l, want)
	if err != nil {
		t.Fatal(err)
	}
	api, _, err := siteapi.LearnCall(ctx, s, shop.Capture([]byte("replay test")), want, siteapi.LearnOptions{Page: shop.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	r := &routine.Routine{Format: routine.Format, Name: "lamps", Steps: []routine.Step{{
		ID: "lamps", Kind: routine.KindAPI, API: api, Into: "lamps", List: &routine.ListRead{Pages: 1},
		Fallback: []routine.Step{
			{Kind: routine.KindGoto, URL: shop.URL + "/"},
			{Kind: routine.KindVerify, Check: &routine.Check{Text: first}},
			{ID: "read", Kind: routine.KindExtract, Instruction: "every lamp", Schema: json.RawMessage(lampsSchema), Recipe: dom, Into: "page"},
		},
	}}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if r, err = routine.Parse(b); err != nil {
		t.Fatalf("the routine does not load: %v", err)
	}
	rows := func(res *Result) []map[string]any {
		t.Helper()
		var v []map[string]any
		if err := json.Unmarshal(res.Data["lamps"], &v); err != nil {
			t.Fatalf("lamps: %v (%s)", err, res.Data["lamps"])
		}
		return v
	}

	shop.Reset()
	res, err := Run(ctx, s, r, Options{})
	if err != nil || res.Status != StatusOK {
		t.Fatalf("replay: %v %+v", err, res)
	}
	if got := rows(res); len(got) != 10 || got[0]["name"] != first {
		t.Errorf("rows %v", got)
	}
	if shop.Hits("/") != 0 || shop.Hits("/api/products") != 1 || len(res.Heals) != 0 {
		t.Errorf("the shop served %d page(s) and %d API call(s), heals %v: want the API alone, once", shop.Hits("/"), shop.Hits("/api/products"), res.Heals)
	}

	// The API changed its field names: the browser steps run, captured
	// by the session's own capture (started and stopped by the replay).
	shop.Rename(true)
	shop.Reset()
	res, err = Run(ctx, s, r, Options{KeepHeals: KeepAlways})
	if err != nil || res.Status != StatusOK {
		t.Fatalf("replay after the change: %v %+v", err, res)
	}
	if shop.Hits("/") != 1 {
		t.Errorf("pages served %d: the browser steps should have run once", shop.Hits("/"))
	}
	if _, err := s.StopCapture(ctx, calls.CaptureStopRequest{}); err == nil {
		t.Error("the replay left its capture running")
	}
	if len(res.Heals) != 1 || res.Heals[0].How != HealAPI || !strings.Contains(res.Heals[0].After, "/label") {
		t.Fatalf("heals %+v, want one of kind api to the new fields", res.Heals)
	}
	if got := rows(res); len(got) != 10 || got[0]["name"] != first {
		t.Errorf("rows read by the browser steps: %v", got)
	}

	// The healed routine calls the new API, with no page.
	shop.Reset()
	res, err = Run(ctx, s, res.Routine, Options{})
	if err != nil || res.Status != StatusOK || len(res.Heals) != 0 {
		t.Fatalf("the healed routine: %v %+v", err, res)
	}
	if got := rows(res); len(got) != 10 || got[0]["name"] != first || shop.Hits("/") != 0 {
		t.Errorf("rows %v, pages served %d", got, shop.Hits("/"))
	}
}
