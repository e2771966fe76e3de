package replay

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/routine"
)

// orders serves a list of orders as cards whose class names change on
// each load; wrap puts a wrapper around the list, so that a recipe
// learned before no longer fits.
type orders struct{ wrap atomic.Bool }

func (o *orders) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	cls := func() string { return fmt.Sprintf("css-%x", rand.Uint32()) }
	card := cls()
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><title>Orders</title><body><main><h1>Orders</h1>`)
	if o.wrap.Load() {
		b.WriteString(`<div>`)
	}
	b.WriteString(`<ul>`)
	for _, it := range [][3]string{{"A-100", "£12.50", "Shipped"}, {"A-101", "£1,299.00", "Pending"}, {"A-102", "£3.00", "Shipped"}} {
		fmt.Fprintf(&b, `<li class="%s"><h2>%s</h2><p>Total <b>%s</b></p><span data-state="x">%s</span></li>`, card, it[0], it[1], it[2])
	}
	b.WriteString(`</ul>`)
	if o.wrap.Load() {
		b.WriteString(`</div>`)
	}
	b.WriteString(`</main></body></html>`)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, b.String())
}

const (
	ordersSchema = `{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"total":{"type":"number"},"state":{"type":"string"}},"required":["id","total","state"]}}`
	ordersRows   = `[{"id":"A-100","total":12.5,"state":"Shipped"},{"id":"A-101","total":1299,"state":"Pending"},{"id":"A-102","total":3,"state":"Shipped"}]`
)

// TestReplayReadsAnExtractStepByItsRecipe: an extract step recorded with
// a recipe replays with no model (none is given: a call would fail) and
// reads the same rows on every load; when the markup changes it stops as
// needs-model with no model, and with one it reads the page with one call,
// learns the recipe again (a heal), and the healed version replays with no
// model.
func TestReplayReadsAnExtractStepByItsRecipe(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t, "recipe-extract")
	site := &orders{}
	srv := httptest.NewServer(site)
	defer srv.Close()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	learn := scripted.New(scripted.Data(pilot.PurposeExtract, ordersRows))
	learned, err := pilot.New(s, learn, nil).ExtractWith(ctx, "every order", json.RawMessage(ordersSchema), pilot.ExtractOptions{Learn: true})
	if err != nil || learned.Recipe == nil {
		t.Fatalf("no recipe: %v %+v", err, learned)
	}
	r := &routine.Routine{Format: routine.Format, Name: "orders", Version: 1, Steps: []routine.Step{
		{ID: "open", Kind: routine.KindGoto, URL: srv.URL},
		{ID: "read", Kind: routine.KindExtract, Instruction: "every order", Schema: json.RawMessage(ordersSchema), Into: "orders", Recipe: learned.Recipe},
	}}
	// What a routine file holds loads back.
	b, err := routine.Marshal(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, err = routine.Parse(b); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		res, err := Run(ctx, s, r, Options{NoHand: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusOK || res.ModelCalls != 0 || string(res.Data["orders"]) != string(learned.Data) {
			t.Fatalf("replay %d = %s %s %q, %d model calls, data %s, want %s", i, res.Status, res.Cause, res.Message, res.ModelCalls, res.Data["orders"], learned.Data)
		}
	}

	site.wrap.Store(true)
	res, err := Run(ctx, s, r, Options{NoHand: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusStopped || res.Cause != CauseNeedsModel || !strings.Contains(res.Message, "no longer fits") {
		t.Fatalf("replay on changed markup with no model = %s %s %q", res.Status, res.Cause, res.Message)
	}
	heal := scripted.New(scripted.Data(pilot.PurposeExtract, ordersRows))
	res, err = Run(ctx, s, r, Options{NoHand: true, Model: heal, KeepHeals: KeepAlways})
	if err != nil {
		t.Fatal(err)
	}
	heal.Verify(t)
	if res.Status != StatusOK || res.ModelCalls != 1 || len(res.Heals) != 1 || res.Heals[0].How != HealRecipe || string(res.Data["orders"]) != string(learned.Data) {
		t.Fatalf("replay with a model on changed markup = %s %q, %d model calls, heals %+v, data %s", res.Status, res.Message, res.ModelCalls, res.Heals, res.Data["orders"])
	}
	next := res.Routine
	if next == nil || next.Version != 2 || next.Steps[1].Recipe == nil || next.Steps[1].Recipe.Container == learned.Recipe.Container ||
		len(next.History) != 1 || !strings.Contains(next.History[0].Note, "recipe") {
		t.Fatalf("the healed version: %+v", next)
	}
	res, err = Run(ctx, s, next, Options{NoHand: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusOK || res.ModelCalls != 0 || string(res.Data["orders"]) != string(learned.Data) {
		t.Fatalf("the healed version replays as %s %q, %d model calls, data %s", res.Status, res.Message, res.ModelCalls, res.Data["orders"])
	}
}

// deleter serves a table of users whose Delete posts the row's name and
// removes the row from the page; a user listed in noButton has no Delete.
type deleter struct {
	mu       sync.Mutex
	noButton string
	got      map[string]int
}

func (d *deleter) posts() map[string]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return maps.Clone(d.got)
}

func (d *deleter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if r.URL.Path == "/delete" {
		d.got[r.URL.Query().Get("who")]++
		return
	}
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><title>Users</title><body><h1>Users</h1><table><thead><tr><th>Name</th><th></th></tr></thead><tbody>`)
	for _, u := range []string{"Ann Lee", "Bob Ray", "Cem Oz"} {
		button := `<button onclick="del(this)">Delete</button>`
		if u == d.noButton {
			button = `<span>locked</span>`
		}
		fmt.Fprintf(&b, `<tr><td>%s</td><td>%s</td></tr>`, u, button)
	}
	b.WriteString(`</tbody></table><script>function del(b){const tr=b.closest('tr');fetch('/delete?who='+encodeURIComponent(tr.cells[0].innerText),{method:'POST'}).then(()=>tr.remove())}</script></body></html>`)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, b.String())
}

// TestReplayEachRowReadByItsRecipe: a loop over a table's rows read by a
// recipe presses each row's Delete at its place, reading the list again
// each time round: a Delete removes its row, so the rows move up, and each
// row is still pressed once (by its values, not its first index). A row
// with nothing at the place stops the replay as missing with nothing more
// pressed, and no model is called.
func TestReplayEachRowReadByItsRecipe(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t, "recipe-each")
	site := &deleter{got: map[string]int{}}
	srv := httptest.NewServer(site)
	defer srv.Close()
	r := &routine.Routine{Format: routine.Format, Name: "purge", Version: 1, Steps: []routine.Step{
		{ID: "open", Kind: routine.KindGoto, URL: srv.URL + "/users"},
		{ID: "rows", Kind: routine.KindEach, Instruction: "every user", Recipe: &recipe.Recipe{Format: recipe.Format, Container: "table > tbody", Row: "tr",
			Fields: []recipe.Field{{Name: "name", Type: "string", By: recipe.ByTag, Select: ":scope > td:nth-of-type(1)"}}, Learned: 3},
			Do: []routine.Step{
				{ID: "delete", Kind: routine.KindAct, Op: "click", Target: &routine.Target{Positional: true, Place: "td:nth-of-type(2) > button:nth-of-type(1)",
					Fingerprint: calls.Fingerprint{Tag: "button", Role: "button", Name: "delete"}}},
				{ID: "gone", Kind: routine.KindVerify, Check: &routine.Check{Text: "%row.name%", Absent: true}},
			}},
	}}
	res, err := Run(ctx, s, r, Options{NoHand: true, Submits: SubmitsAllow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusOK || res.ModelCalls != 0 {
		t.Fatalf("replay = %s %s %q", res.Status, res.Cause, res.Message)
	}
	if got := site.posts(); len(got) != 3 || got["Ann Lee"] != 1 || got["Bob Ray"] != 1 || got["Cem Oz"] != 1 {
		t.Fatalf("the server received %v, want each user's Delete once", got)
	}

	site.mu.Lock()
	site.noButton, site.got = "Bob Ray", map[string]int{}
	site.mu.Unlock()
	res, err = Run(ctx, s, r, Options{NoHand: true, Submits: SubmitsAllow})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusStopped || res.Cause != CauseMissing || !strings.Contains(res.Message, "never healed") {
		t.Fatalf("replay with a row without Delete = %s %s %q", res.Status, res.Cause, res.Message)
	}
	if got := site.posts(); len(got) != 1 || got["Ann Lee"] != 1 {
		t.Fatalf("the server received %v, want only Ann's Delete", got)
	}
}

// TestReplayReadsAListOverPages: an extract step with a recipe and list
// options follows the next-page control with no model, merging rows by
// key, and says how it ended.
func TestReplayReadsAListOverPages(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t, "recipe-pages")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/p/%d", &n)
		if n < 1 || n > 3 {
			http.NotFound(w, r)
			return
		}
		var b strings.Builder
		fmt.Fprintf(&b, `<!doctype html><html lang="en"><title>Page %d</title><body><main><h1>Products</h1><ul class="products">`, n)
		for i := 0; i < 2; i++ {
			k := (n-1)*2 + i
			if n == 3 && i == 1 {
				k = 0 // a product seen on page 1 again
			}
			fmt.Fprintf(&b, `<li><h3>Item %d</h3><span class="sku">S-%d</span></li>`, k, k)
		}
		b.WriteString(`</ul>`)
		if n < 3 {
			fmt.Fprintf(&b, `<a rel="next" href="/p/%d">Next</a>`, n+1)
		}
		b.WriteString(`</main></body></html>`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, b.String())
	}))
	defer srv.Close()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/p/1"}); err != nil {
		t.Fatal(err)
	}
	schema := json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"sku":{"type":"string"}},"required":["name","sku"]}}`)
	learn := scripted.New(scripted.Data(pilot.PurposeExtract, `[{"name":"Item 0","sku":"S-0"},{"name":"Item 1","sku":"S-1"}]`))
	learned, err := pilot.New(s, learn, nil).ExtractWith(ctx, "every product", schema, pilot.ExtractOptions{Learn: true})
	if err != nil || learned.Recipe == nil {
		t.Fatalf("no recipe: %v %+v", err, learned)
	}
	r := &routine.Routine{Format: routine.Format, Name: "all", Version: 1, Steps: []routine.Step{
		{ID: "open", Kind: routine.KindGoto, URL: srv.URL + "/p/1"},
		{ID: "read", Kind: routine.KindExtract, Instruction: "every product", Schema: schema, Into: "products", Recipe: learned.Recipe,
			List: &routine.ListRead{Pages: 5, Key: "sku"}},
	}}
	res, err := Run(ctx, s, r, Options{NoHand: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"Item 0","sku":"S-0"},{"name":"Item 1","sku":"S-1"},{"name":"Item 2","sku":"S-2"},{"name":"Item 3","sku":"S-3"},{"name":"Item 4","sku":"S-4"}]`
	if res.Status != StatusOK || res.ModelCalls != 0 || string(res.Data["products"]) != want {
		t.Fatalf("replay = %s %s %q, %d model calls, data %s", res.Status, res.Cause, res.Message, res.ModelCalls, res.Data["products"])
	}
	if d := res.Steps[1].Detail; !strings.Contains(d, "3 page(s), ended: no-next") {
		t.Errorf("detail %q", d)
	}
}
