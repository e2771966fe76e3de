package pilot_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
)

// TestExtractGivesDatesInISO: a feed in a US page writes its dates every
// way ("5 minutes ago", "yesterday", "3 Nov 2026", 06/24/2026, 03/04/2026).
// A schema field of format date gets them in ISO 8601, against a clock the
// test fixes, both as the model read them and as the recipe learned from
// them reads them with no model; 03/04/2026 is 4 March because the page's
// language writes the month first.
func TestExtractGivesDatesInISO(t *testing.T) {
	s, ctx := drivertest.Session(t, "dates", 60*time.Second)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en-US"><title>Feed</title><body><main><h1>News</h1><ol>`+
			`<li><h2>Rates held</h2><time>5 minutes ago</time></li>`+
			`<li><h2>Port reopens</h2><time>yesterday</time></li>`+
			`<li><h2>Rail strike</h2><time>3 Nov 2026</time></li>`+
			`<li><h2>Heat record</h2><time>06/24/2026</time></li>`+
			`<li><h2>Budget passed</h2><time>03/04/2026</time></li>`+
			`</ol></main></body></html>`)
	}))
	defer srv.Close()
	reload(t, ctx, s, srv.URL)
	schema := json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"},"when":{"type":"string","format":"date"}},"required":["title","when"]}}`)
	now := time.Date(2026, 11, 5, 12, 0, 0, 0, time.UTC)
	m := scripted.New(scripted.Data(pilot.PurposeExtract, `[{"title":"Rates held","when":"5 minutes ago"},{"title":"Port reopens","when":"yesterday"},`+
		`{"title":"Rail strike","when":"3 Nov 2026"},{"title":"Heat record","when":"06/24/2026"},{"title":"Budget passed","when":"03/04/2026"}]`))
	res, err := pilot.New(s, m, nil).ExtractWith(ctx, "every story", schema, pilot.ExtractOptions{Learn: true, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	m.Verify(t)
	want := `[{"title":"Rates held","when":"2026-11-05"},{"title":"Port reopens","when":"2026-11-04"},{"title":"Rail strike","when":"2026-11-03"},` +
		`{"title":"Heat record","when":"2026-06-24"},{"title":"Budget passed","when":"2026-03-04"}]`
	if string(res.Data) != want {
		t.Fatalf("the model's dates came back as %s, want %s", res.Data, want)
	}
	if res.Recipe == nil || res.Recipe.Fields[1].Format != "date" {
		t.Fatalf("recipe %+v (%s)", res.Recipe, res.RecipeNote)
	}
	again, err := pilot.New(s, nil, nil).ExtractWith(ctx, "every story", schema, pilot.ExtractOptions{Recipe: res.Recipe, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if again.Source != pilot.SourceRecipe || string(again.Data) != want {
		t.Fatalf("the recipe read %s %s, want %s", again.Source, again.Data, want)
	}
}
