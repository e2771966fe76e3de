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

// book is a row of the shelves list: Author "" and Was 0 are not shown.
type book struct {
	Title, Author string
	Price, Was    float64
}

// shelves serves a list of books over three numbered pages at /NAME/?page=N.
func shelves(lists map[string][3][]book) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.Trim(r.URL.Path, "/")
		n := 1
		fmt.Sscan(r.URL.Query().Get("page"), &n)
		pages, ok := lists[name]
		if !ok || n < 1 || n > 3 {
			http.NotFound(w, r)
			return
		}
		var b strings.Builder
		b.WriteString(`<!doctype html><html lang="en"><title>Books</title><body><h1>Books</h1><ul class="books">`)
		for _, bk := range pages[n-1] {
			fmt.Fprintf(&b, `<li class="book"><h3>%s</h3>`, bk.Title)
			if bk.Author != "" {
				fmt.Fprintf(&b, `<span class="author">%s</span>`, bk.Author)
			}
			if bk.Was != 0 {
				fmt.Fprintf(&b, `<s class="was">$%.2f</s> `, bk.Was)
			}
			fmt.Fprintf(&b, `<span class="price">$%.2f</span></li>`, bk.Price)
		}
		b.WriteString(`</ul><nav>`)
		if n < 3 {
			fmt.Fprintf(&b, `<a href="?page=%d">Next</a>`, n+1)
		}
		b.WriteString(`</nav></body></html>`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, b.String())
	})
}

const shelvesSchema = `{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"},"author":{"type":["string","null"]},"price":{"type":"number"},"was":{"type":["number","null"]}}}}`

func booksJSON(bs []book) string {
	var rows []map[string]any
	for _, b := range bs {
		row := map[string]any{"title": b.Title, "author": nil, "price": b.Price, "was": nil}
		if b.Author != "" {
			row["author"] = b.Author
		}
		if b.Was != 0 {
			row["was"] = b.Was
		}
		rows = append(rows, row)
	}
	j, _ := json.Marshal(rows)
	return string(j)
}

// A recipe learned over pages is learned against every page the model
// read: page 3 alone shows a row shape (authors missing, a sale price
// beside the price), and the recipe kept reads all three pages again with
// no model. On "heal" page 3's missing authors make the first recipe a
// misfit; on "shape" the first recipe fits page 3 but reads its sale price
// as null, so the new shape is what sends page 3 to the model.
func TestExtractOverPagesLearnsFromEveryPageTheModelRead(t *testing.T) {
	s, ctx := drivertest.Session(t, "pageslearn", 90*time.Second)
	first := [2][]book{
		{{"Dune", "Frank Herbert", 9.99, 0}, {"Emma", "Jane Austen", 4.5, 0}},
		{{"Ulysses", "James Joyce", 7.25, 0}, {"Beloved", "Toni Morrison", 8, 0}},
	}
	lists := map[string][3][]book{
		"heal":  {first[0], first[1], {{"Best Stories", "", 12, 15}, {"Folk Tales", "", 6, 0}}},
		"shape": {first[0], first[1], {{"Walden", "Henry Thoreau", 5, 6.5}, {"Persuasion", "Jane Austen", 3, 0}}},
	}
	srv := httptest.NewServer(shelves(lists))
	defer srv.Close()
	for name, pages := range lists {
		t.Run(name, func(t *testing.T) {
			var all []book
			for _, p := range pages {
				all = append(all, p...)
			}
			want := booksJSON(all)
			reload(t, ctx, s, srv.URL+"/"+name+"/?page=1")
			// The model reads page 1 and page 3 (its new shape); page 2,
			// of page 1's shape, is read by the recipe.
			m := scripted.New(scripted.Data(pilot.PurposeExtract, booksJSON(pages[0])), scripted.Data(pilot.PurposeExtract, booksJSON(pages[2])))
			res, err := pilot.New(s, m, nil).ExtractWith(ctx, "every book", json.RawMessage(shelvesSchema), pilot.ExtractOptions{Learn: true, List: pilot.ListOptions{Pages: 3}})
			if err != nil {
				t.Fatal(err)
			}
			m.Verify(t)
			if !jsonEqual(t, string(res.Data), want) || res.Pages != 3 {
				t.Errorf("learning: pages %d\n got %s\nwant %s", res.Pages, res.Data, want)
			}
			if res.Recipe == nil {
				t.Fatalf("no recipe: %s", res.RecipeNote)
			}
			// Again by the recipe alone, over every page: no model, the
			// same rows.
			reload(t, ctx, s, srv.URL+"/"+name+"/?page=1")
			again, err := pilot.New(s, nil, nil).ExtractWith(ctx, "every book", json.RawMessage(shelvesSchema), pilot.ExtractOptions{Recipe: res.Recipe, List: pilot.ListOptions{Pages: 3}})
			if err != nil {
				t.Fatalf("by the recipe: %v", err)
			}
			if !jsonEqual(t, string(again.Data), want) || again.Heal != nil {
				t.Errorf("by the recipe:\n got %s\nwant %s", again.Data, want)
			}
		})
	}
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	json.Unmarshal([]byte(b), &y)
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

// A yes/no the pages write in words, one word of it on page 3 alone: the
// recipe learned on page 1 knows "in stock" only, so "Sold out" on page 3
// is a misfit (not a guess), the model reads page 3, and the recipe is
// learned again against pages 1 and 3: read again with no model, every
// page reads right.
func TestExtractOverPagesLearnsAYesNoWordOfALaterPage(t *testing.T) {
	s, ctx := drivertest.Session(t, "pagesyesno", 90*time.Second)
	pages := [3][][2]string{{{"Mug", "In stock"}, {"Tote", "In stock"}}, {{"Pen", "In stock"}, {"Ink", "In stock"}}, {{"Lamp", "Sold out"}, {"Desk", "In stock"}}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := 1
		fmt.Sscan(r.URL.Query().Get("page"), &n)
		var b strings.Builder
		b.WriteString(`<!doctype html><html lang="en"><title>Shop</title><body><ul class="products">`)
		for _, it := range pages[n-1] {
			fmt.Fprintf(&b, `<li><h3>%s</h3><span class="stock">%s</span></li>`, it[0], it[1])
		}
		b.WriteString(`</ul>`)
		if n < 3 {
			fmt.Fprintf(&b, `<a href="?page=%d">Next</a>`, n+1)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, b.String()+`</body></html>`)
	}))
	defer srv.Close()
	const schema = `{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"in_stock":{"type":"boolean"}}}}`
	rows := func(its [][2]string) string {
		var out []string
		for _, it := range its {
			out = append(out, fmt.Sprintf(`{"name":%q,"in_stock":%v}`, it[0], it[1] == "In stock"))
		}
		return "[" + strings.Join(out, ",") + "]"
	}
	want := `[` + strings.Trim(rows(pages[0]), "[]") + "," + strings.Trim(rows(pages[1]), "[]") + "," + strings.Trim(rows(pages[2]), "[]") + `]`
	reload(t, ctx, s, srv.URL+"/?page=1")
	m := scripted.New(scripted.Data(pilot.PurposeExtract, rows(pages[0])), scripted.Data(pilot.PurposeExtract, rows(pages[2])))
	res, err := pilot.New(s, m, nil).ExtractWith(ctx, "every product", json.RawMessage(schema), pilot.ExtractOptions{Learn: true, List: pilot.ListOptions{Pages: 3}})
	if err != nil {
		t.Fatal(err)
	}
	m.Verify(t)
	if !jsonEqual(t, string(res.Data), want) || res.Recipe == nil || res.Heal == nil {
		t.Fatalf("learning: heal %+v note %q\n got %s\nwant %s", res.Heal, res.RecipeNote, res.Data, want)
	}
	if !strings.Contains(res.Heal.Misfit, `"Sold out", a word not seen`) {
		t.Errorf("the misfit: %s", res.Heal.Misfit)
	}
	reload(t, ctx, s, srv.URL+"/?page=1")
	again, err := pilot.New(s, nil, nil).ExtractWith(ctx, "every product", json.RawMessage(schema), pilot.ExtractOptions{Recipe: res.Recipe, List: pilot.ListOptions{Pages: 3}})
	if err != nil || !jsonEqual(t, string(again.Data), want) {
		t.Errorf("by the recipe: %v\n got %s\nwant %s", err, again.Data, want)
	}
}
