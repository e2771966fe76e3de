package pilot_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
)

// grid serves a product grid over three numbered pages; Trail Mug is on
// pages 1 and 2.
func grid() http.Handler {
	pages := [][]string{{"TM-1 Trail Mug £14.50", "CT-2 Canvas Tote £22.00"}, {"FN-3 Field Notebook £3.50", "TM-1 Trail Mug £14.50"}, {"WB-4 Water Bottle £9.00"}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := 1
		fmt.Sscan(r.URL.Query().Get("page"), &n)
		var b strings.Builder
		b.WriteString(`<!doctype html><html lang="en"><title>Grid</title><body><h1>Products</h1><div class="grid">`)
		for _, p := range pages[n-1] {
			f := strings.SplitN(p, " ", 2)
			name, price, _ := strings.Cut(f[1], " £")
			fmt.Fprintf(&b, `<div class="card" data-sku="%s"><h3>%s</h3><span class="sku">%s</span><span class="price">£%s</span></div>`, f[0], name, f[0], price)
		}
		b.WriteString(`</div><nav aria-label="pagination">`)
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(&b, `<a href="?page=%d">%d</a> `, i, i)
		}
		if n < 3 {
			fmt.Fprintf(&b, `<a href="?page=%d">Next</a>`, n+1)
		} else {
			b.WriteString(`<span>Next</span>`)
		}
		b.WriteString(`</nav></body></html>`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, b.String())
	})
}

const gridSchema = `{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"sku":{"type":"string"},"price":{"type":"number"}}}}`

func TestExtractAListOverNumberedPages(t *testing.T) {
	s, ctx := drivertest.Session(t, "pages", 90*time.Second)
	srv := httptest.NewServer(grid())
	defer srv.Close()
	reload(t, ctx, s, srv.URL+"/?page=1")
	m := scripted.New(scripted.Data(pilot.PurposeExtract, `[{"name":"Trail Mug","sku":"TM-1","price":14.5},{"name":"Canvas Tote","sku":"CT-2","price":22}]`))
	res, err := pilot.New(s, m, nil).ExtractWith(ctx, "every product", json.RawMessage(gridSchema), pilot.ExtractOptions{List: pilot.ListOptions{Pages: 10, Key: "sku"}})
	if err != nil {
		t.Fatal(err)
	}
	m.Verify(t) // one model call, for the first page
	const want = `[{"name":"Trail Mug","price":14.5,"sku":"TM-1"},{"name":"Canvas Tote","price":22,"sku":"CT-2"},{"name":"Field Notebook","price":3.5,"sku":"FN-3"},{"name":"Water Bottle","price":9,"sku":"WB-4"}]`
	if string(res.Data) != want || res.Pages != 3 || res.Duplicates != 1 || res.Ended != pilot.EndNoNext || res.Rows != 4 {
		t.Fatalf("pages %d rows %d dups %d ended %q\n%s", res.Pages, res.Rows, res.Duplicates, res.Ended, res.Data)
	}
	if res.Recipe == nil {
		t.Fatalf("no recipe: %s", res.RecipeNote)
	}
	// Again with no model at all: the same rows.
	noModel := pilot.New(s, nil, nil)
	reload(t, ctx, s, srv.URL+"/?page=1")
	again, err := noModel.ExtractWith(ctx, "every product", json.RawMessage(gridSchema), pilot.ExtractOptions{Recipe: res.Recipe, List: pilot.ListOptions{Pages: 10, Key: "sku"}})
	if err != nil || string(again.Data) != want {
		t.Fatalf("by the recipe: %v %s", err, again.Data)
	}
	// Where it stops: max-pages, limit, and rows seen by an earlier run.
	for _, c := range []struct {
		lo    pilot.ListOptions
		ended string
		rows  int
	}{
		{pilot.ListOptions{Pages: 2, Key: "sku"}, pilot.EndMaxPages, 3},
		{pilot.ListOptions{Pages: 10, Limit: 3}, pilot.EndLimit, 3},
		{pilot.ListOptions{Pages: 10, Key: "sku", Seen: res.Keys[:3]}, pilot.EndNoNext, 1},
	} {
		reload(t, ctx, s, srv.URL+"/?page=1")
		got, err := noModel.ExtractWith(ctx, "every product", json.RawMessage(gridSchema), pilot.ExtractOptions{Recipe: res.Recipe, List: c.lo})
		if err != nil || got.Ended != c.ended || got.Rows != c.rows {
			t.Errorf("%+v: ended %q rows %d, want %q %d (%v)", c.lo, got.Ended, got.Rows, c.ended, c.rows, err)
		}
	}
}

// feed serves a feed that grows as it is scrolled, with relative dates.
const feed = `<!doctype html><html lang="en"><title>Feed</title><body><h1>Feed</h1><ol id="feed"></ol><script>
const items = [["Launch", "5 minutes ago"], ["Patch", "3 hours ago"], ["Review", "yesterday"], ["Recap", "2 days ago"], ["Archive", "3 days ago"], ["Old news", "4 days ago"]];
let shown = 0;
function more() {
  for (const [t, d] of items.slice(shown, shown + 2)) {
    const li = document.createElement("li");
    li.innerHTML = "<h2>" + t + "</h2><time>" + d + "</time>";
    li.style.height = "600px";
    document.getElementById("feed").append(li);
  }
  shown += 2;
}
more();
addEventListener("scroll", () => { if (innerHeight + scrollY >= document.body.scrollHeight - 10) more(); });
</script></body></html>`

func TestExtractAFeedUntilADate(t *testing.T) {
	s, ctx := drivertest.Session(t, "feed", 90*time.Second)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, feed)
	}))
	defer srv.Close()
	reload(t, ctx, s, srv.URL)
	schema := `{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"},"posted":{"type":"string"}}}}`
	m := scripted.New(scripted.Data(pilot.PurposeExtract, `[{"title":"Launch","posted":"5 minutes ago"},{"title":"Patch","posted":"3 hours ago"}]`))
	now := time.Now()
	res, err := pilot.New(s, m, nil).ExtractWith(ctx, "every post", json.RawMessage(schema), pilot.ExtractOptions{List: pilot.ListOptions{Pages: 10, Scroll: true, Until: now.Add(-50 * time.Hour), Now: now}})
	if err != nil {
		t.Fatal(err)
	}
	m.Verify(t)
	if res.Ended != pilot.EndUntil || !strings.HasSuffix(string(res.Data), `{"posted":"2 days ago","title":"Recap"}]`) || res.Rows != 4 {
		t.Fatalf("ended %q rows %d pages %d: %s (%s)", res.Ended, res.Rows, res.Pages, res.Data, res.RecipeNote)
	}
}

// A next control that leads back to a page already read ends the list as
// repeated, not in a loop.
func TestExtractStopsAtARepeatedPage(t *testing.T) {
	s, ctx := drivertest.Session(t, "repeated", 60*time.Second)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><body><ul><li><b>Trail Mug</b> <i>TM-1</i> <span>£14.50</span></li><li><b>Canvas Tote</b> <i>CT-2</i> <span>£22.00</span></li></ul><a href="/?again=1">Next</a></body></html>`)
	}))
	defer srv.Close()
	reload(t, ctx, s, srv.URL+"/")
	m := scripted.New(scripted.Data(pilot.PurposeExtract, `[{"name":"Trail Mug","sku":"TM-1","price":14.5},{"name":"Canvas Tote","sku":"CT-2","price":22}]`))
	res, err := pilot.New(s, m, nil).ExtractWith(ctx, "every product", json.RawMessage(gridSchema), pilot.ExtractOptions{List: pilot.ListOptions{Pages: 10}})
	if err != nil {
		t.Fatal(err)
	}
	m.Verify(t)
	if res.Ended != pilot.EndRepeated || res.Pages != 2 || res.Rows != 2 {
		t.Fatalf("ended %q pages %d rows %d", res.Ended, res.Pages, res.Rows)
	}
}
