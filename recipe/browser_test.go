package recipe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/schemacheck"
	"github.com/waymark-dev/waymark/recipe"
)

func TestMain(m *testing.M) { drivertest.Main(m) }

// serve serves pages by path; a func is called on each load.
func serve(t *testing.T, pages map[string]func() string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, p())
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func open(t *testing.T, s *driver.Session, ctx context.Context, url string) {
	t.Helper()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: url}); err != nil {
		t.Fatal(err)
	}
}

func rowsOf(t *testing.T, s string) []map[string]any {
	t.Helper()
	var v []map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

const tableSchema = `{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"sku":{"type":"string"},"price":{"type":"number"}}}}`

func tablePage(swap bool) string {
	head := `<th>Name</th><th>SKU</th><th>Price</th>`
	row := func(n, s, p string) string { return "<tr><td>" + n + "</td><td>" + s + "</td><td>" + p + "</td></tr>" }
	if swap {
		head = `<th>Price</th><th>Name</th><th>SKU</th>`
		row = func(n, s, p string) string { return "<tr><td>" + p + "</td><td>" + n + "</td><td>" + s + "</td></tr>" }
	}
	return `<!doctype html><html lang="en"><title>Stock</title><body><h1>Stock</h1><table><thead><tr>` + head + `</tr></thead><tbody>` +
		row("Trail Mug", "TM-1", "£14.50") + row("Canvas Tote", "CT-2", "£1,299.00") + row("Field Notebook", "FN-3", "£3") + `</tbody></table></body></html>`
}

const tableRows = `[{"name":"Trail Mug","sku":"TM-1","price":14.5},{"name":"Canvas Tote","sku":"CT-2","price":1299},{"name":"Field Notebook","sku":"FN-3","price":3}]`

func learn(t *testing.T, ctx context.Context, s *driver.Session, schema, rows string) *recipe.Recipe {
	t.Helper()
	l, err := recipe.ListOf(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	r, err := recipe.Learn(ctx, s, l, rowsOf(t, rows))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := r.Marshal()
	t.Logf("recipe: %s", b)
	if _, err := recipe.Parse(b); err != nil {
		t.Fatalf("the learned recipe does not load: %v", err)
	}
	return r
}

func read(t *testing.T, ctx context.Context, s *driver.Session, r *recipe.Recipe) *recipe.Rows {
	t.Helper()
	got, err := recipe.Read(ctx, s, r)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func sameRows(t *testing.T, got []map[string]any, want string) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(rowsOf(t, want))
	if string(g) != string(w) {
		t.Fatalf("rows\n got %s\nwant %s", g, w)
	}
}

func TestTableByHeaders(t *testing.T) {
	s, ctx := drivertest.Session(t, "table", 60*time.Second)
	swap := false
	base := serve(t, map[string]func() string{"/": func() string { return tablePage(swap) }})
	open(t, s, ctx, base+"/")
	r := learn(t, ctx, s, tableSchema, tableRows)
	for _, f := range r.Fields {
		if f.By != recipe.ByHeader {
			t.Errorf("field %s read by %s, not by its column's header", f.Name, f.By)
		}
	}
	sameRows(t, read(t, ctx, s, r).Rows, tableRows)
	// Columns swapped: read by header, the rows are the same.
	swap = true
	open(t, s, ctx, base+"/")
	got := read(t, ctx, s, r)
	if got.Misfit != "" {
		t.Fatal(got.Misfit)
	}
	sameRows(t, got.Rows, tableRows)
}

const cardSchema = `{"type":"object","properties":{"products":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"price":{"type":["number","null"]},"colour":{"type":["string","null"]}}}}}}`

// cards draws a grid of cards whose class names are new on each load, as
// CSS-in-JS does; colour is shown only for some.
func cards(wrap bool) string {
	h := func() string { return fmt.Sprintf("css-%x", rand.Uint32()) }
	card, name, price := h(), h(), h()
	items := []struct{ n, p, c string }{{"Trail Mug", "1.299,00 €", "Green"}, {"Canvas Tote", "22,00 €", ""}, {"Field Notebook", "3,50 €", "Blue"}}
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="de"><title>Shop</title><body><header><a href="/">Home</a></header><main><h1>Produkte</h1><div class="` + h() + `">`)
	for _, it := range items {
		fmt.Fprintf(&b, `<article class="%s"><h2 class="%s">%s</h2><div><span class="%s">%s</span></div>`, card, name, it.n, price, it.p)
		if it.c != "" {
			fmt.Fprintf(&b, `<p><span>Colour:</span> <b>%s</b></p>`, it.c)
		}
		b.WriteString(`</article>`)
	}
	b.WriteString(`</div></main></body></html>`)
	s := b.String()
	if wrap {
		s = strings.Replace(s, "<main>", "<main><section>", 1)
		s = strings.Replace(s, "</main>", "</section></main>", 1)
	}
	return s
}

const cardRows = `{"products":[{"name":"Trail Mug","price":1299,"colour":"Green"},{"name":"Canvas Tote","price":22,"colour":null},{"name":"Field Notebook","price":3.5,"colour":"Blue"}]}`

func TestCardsWithGeneratedClassNames(t *testing.T) {
	s, ctx := drivertest.Session(t, "cards", 60*time.Second)
	wrap := false
	base := serve(t, map[string]func() string{"/": func() string { return cards(wrap) }})
	open(t, s, ctx, base+"/")
	l, _ := recipe.ListOf(json.RawMessage(cardSchema))
	var want struct{ Products []map[string]any }
	json.Unmarshal([]byte(cardRows), &want)
	r, err := recipe.Learn(ctx, s, l, want.Products)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := r.Marshal()
	t.Logf("recipe: %s", b)
	if strings.Contains(string(b), "css-") {
		t.Fatalf("the recipe names a generated class:\n%s", b)
	}
	wantRows, _ := json.Marshal(want.Products)
	for i := 0; i < 3; i++ {
		open(t, s, ctx, base+"/") // new class names each load
		got := read(t, ctx, s, r)
		if got.Misfit != "" {
			t.Fatalf("load %d: %s\n%s", i, got.Misfit, b)
		}
		sameRows(t, got.Rows, string(wantRows))
	}
	// A wrapper added around the list: the recipe says it no longer fits.
	wrap = true
	open(t, s, ctx, base+"/")
	got := read(t, ctx, s, r)
	if got.Misfit == "" {
		t.Fatalf("the recipe still claims to fit a changed page: %v", got.Rows)
	}
	t.Logf("misfit: %s", got.Misfit)
}

func TestNoRecipeWhenTheRowsAreNotOnThePage(t *testing.T) {
	s, ctx := drivertest.Session(t, "norecipe", 60*time.Second)
	base := serve(t, map[string]func() string{"/": func() string { return tablePage(false) }})
	open(t, s, ctx, base+"/")
	l, _ := recipe.ListOf(json.RawMessage(tableSchema))
	_, err := recipe.Learn(ctx, s, l, rowsOf(t, `[{"name":"Trail Mug","sku":"TM-1","price":15}]`))
	if err == nil || !strings.Contains(err.Error(), "price") {
		t.Fatalf("a recipe from a row the page does not show: %v", err)
	}
}

// TestLearnedRecipesFitTheSchema checks the learned recipes, and a broken
// one, against routine/schema/recipe-1.json: the documented format and
// the code agree.
func TestLearnedRecipesFitTheSchema(t *testing.T) {
	raw, err := os.ReadFile("../routine/schema/recipe-1.json")
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schemacheck.Compile(raw)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(b []byte) any {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	s, ctx := drivertest.Session(t, "schema", 60*time.Second)
	base := serve(t, map[string]func() string{"/t": func() string { return tablePage(false) }, "/c": func() string { return cards(false) }})
	open(t, s, ctx, base+"/t")
	r1 := learn(t, ctx, s, tableSchema, tableRows)
	open(t, s, ctx, base+"/c")
	var want struct{ Products []map[string]any }
	json.Unmarshal([]byte(cardRows), &want)
	b, _ := json.Marshal(want.Products)
	r2 := learn(t, ctx, s, cardSchema, string(b))
	for _, r := range []*recipe.Recipe{r1, r2} {
		b, _ := r.Marshal()
		if problems := sch.Problems(decode(b)); len(problems) != 0 {
			t.Errorf("a learned recipe does not fit the schema: %v\n%s", problems, b)
		}
	}
	bad := decode([]byte(`{"format":"waymark.recipe/1","container":"ul","row":"li","fields":[{"name":"x","type":"string","by":"header"}]}`))
	if len(sch.Problems(bad)) == 0 {
		t.Error("the schema takes a header field with no header")
	}
	if _, err := recipe.Parse([]byte(`{"format":"waymark.recipe/1","container":"ul","row":"li","fields":[{"name":"x","type":"string","by":"header"}]}`)); err == nil {
		t.Error("Parse takes a header field with no header")
	}
}

// TestNoFootprint: learning and reading leave nothing in the page's world
// or ours (invariant 7), and the page cannot see them.
func TestNoFootprint(t *testing.T) {
	s, ctx := drivertest.Session(t, "footprint", 60*time.Second)
	base := serve(t, map[string]func() string{"/": func() string { return tablePage(false) }})
	open(t, s, ctx, base+"/")
	r := learn(t, ctx, s, tableSchema, tableRows)
	read(t, ctx, s, r)
	const probe = `[typeof norm, typeof readOne, typeof headers, typeof arg, document.querySelectorAll('[data-waymark]').length].join(',')`
	for _, main := range []bool{true, false} {
		res, err := s.Eval(ctx, calls.EvalRequest{Expression: probe, MainWorld: main})
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Value) != `"undefined,undefined,undefined,undefined,0"` {
			t.Errorf("main world %v: %s", main, res.Value)
		}
	}
}
