package pilot_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
)

// shop serves a list of products whose class names are new on each load
// (as CSS-in-JS makes them), one of which shows no colour. wrap adds a
// wrapper around the list; swap puts the price before the name. They are
// atomic: the browser may ask for a favicon while the test changes them.
type shop struct{ wrap, swap atomic.Bool }

func (s *shop) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := func() string { return fmt.Sprintf("sc-%x", rand.Uint32()) }
	card, name, price := h(), h(), h()
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><title>Shop</title><body><nav><a href="/">Home</a></nav><main><h1>Products</h1><ul class="` + h() + `">`)
	for _, it := range []struct{ n, p, c string }{{"Trail Mug", "£1,299.00", "Green"}, {"Canvas Tote", "£22.00", ""}, {"Field Notebook", "£3.50", "Blue"}} {
		n := fmt.Sprintf(`<span class="%s">%s</span>`, name, it.n)
		p := fmt.Sprintf(`<span class="%s">%s</span>`, price, it.p)
		if s.swap.Load() {
			n, p = p, n
		}
		fmt.Fprintf(&b, `<li class="%s">%s %s`, card, n, p)
		if it.c != "" {
			fmt.Fprintf(&b, ` <small><i>Colour</i><b>%s</b></small>`, it.c)
		}
		b.WriteString(`</li>`)
	}
	b.WriteString(`</ul></main></body></html>`)
	out := b.String()
	if s.wrap.Load() {
		out = strings.Replace(out, "<main>", "<main><div>", 1)
		out = strings.Replace(out, "</main>", "</div></main>", 1)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, out)
}

const listSchema = `{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"},"colour":{"type":["string","null"]}},"required":["name","price"]}}`
const listRows = `[{"name":"Trail Mug","price":1299,"colour":"Green"},{"name":"Canvas Tote","price":22,"colour":null},{"name":"Field Notebook","price":3.5,"colour":"Blue"}]`

func reload(t *testing.T, ctx context.Context, s *driver.Session, url string) {
	t.Helper()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: url}); err != nil {
		t.Fatal(err)
	}
}

func TestExtractLearnsARecipeAndReadsWithNoModel(t *testing.T) {
	s, ctx := drivertest.Session(t, "recipe", 90*time.Second)
	site := &shop{}
	srv := httptest.NewServer(site)
	defer srv.Close()
	reload(t, ctx, s, srv.URL)
	m := scripted.New(scripted.Data(pilot.PurposeExtract, listRows)) // the rows, once
	res, err := pilot.New(s, m, nil).ExtractWith(ctx, "every product", json.RawMessage(listSchema), pilot.ExtractOptions{Learn: true})
	if err != nil {
		t.Fatal(err)
	}
	m.Verify(t)
	if res.Recipe == nil {
		t.Fatalf("no recipe: %s", res.RecipeNote)
	}
	first := string(res.Data)
	// Every later read: no model at all, new class names each load, the
	// same rows.
	noModel := pilot.New(s, nil, nil)
	for i := 0; i < 3; i++ {
		reload(t, ctx, s, srv.URL)
		again, err := noModel.ExtractWith(ctx, "every product", json.RawMessage(listSchema), pilot.ExtractOptions{Recipe: res.Recipe})
		if err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
		if again.Source != pilot.SourceRecipe || string(again.Data) != first || again.Rows != 3 {
			t.Fatalf("read %d: %s %s, want %s", i, again.Source, again.Data, first)
		}
	}
	// Markup changed: with no model it says the recipe no longer fits;
	// with one, it relearns with one model call and reads right.
	for _, change := range []struct {
		name string
		set  func()
	}{{"a wrapper added", func() { site.wrap.Store(true) }}, {"columns swapped", func() { site.wrap.Store(false); site.swap.Store(true) }}} {
		change.set()
		reload(t, ctx, s, srv.URL)
		_, err := noModel.ExtractWith(ctx, "every product", json.RawMessage(listSchema), pilot.ExtractOptions{Recipe: res.Recipe})
		var ce *calls.Error
		if !errors.As(err, &ce) || ce.Kind != calls.ErrNoMatch || !strings.Contains(ce.Msg, "no longer fits") {
			t.Fatalf("%s: the recipe did not say it no longer fits: %v", change.name, err)
		}
		m := scripted.New(scripted.Data(pilot.PurposeExtract, listRows))
		healed, err := pilot.New(s, m, nil).ExtractWith(ctx, "every product", json.RawMessage(listSchema), pilot.ExtractOptions{Recipe: res.Recipe})
		if err != nil {
			t.Fatal(err)
		}
		m.Verify(t)
		if healed.Heal == nil || healed.Recipe == nil || healed.Source != pilot.SourceModel {
			t.Fatalf("%s: not healed: %+v (%s)", change.name, healed, healed.RecipeNote)
		}
		t.Logf("%s: %s", change.name, healed.Heal.Misfit)
		reload(t, ctx, s, srv.URL)
		again, err := noModel.ExtractWith(ctx, "every product", json.RawMessage(listSchema), pilot.ExtractOptions{Recipe: healed.Recipe})
		if err != nil || string(again.Data) != first {
			t.Fatalf("%s: the relearned recipe reads %v %v", change.name, again, err)
		}
	}
}

func TestExtractKeepsNoRecipeThatDoesNotReadTheRowsBack(t *testing.T) {
	s, ctx := drivertest.Session(t, "norecipe", 60*time.Second)
	srv := httptest.NewServer(&shop{})
	defer srv.Close()
	reload(t, ctx, s, srv.URL)
	// The model left a product out: a recipe would read four rows where it
	// gave two, so none is kept, and the result says why.
	m := scripted.New(scripted.Data(pilot.PurposeExtract, `[{"name":"Trail Mug","price":1299,"colour":"Green"},{"name":"Field Notebook","price":3.5,"colour":"Blue"}]`))
	res, err := pilot.New(s, m, nil).ExtractWith(ctx, "every product", json.RawMessage(listSchema), pilot.ExtractOptions{Learn: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Recipe != nil || !strings.Contains(res.RecipeNote, "the model gave 2") {
		t.Fatalf("recipe %+v note %q", res.Recipe, res.RecipeNote)
	}
}
