package recipe_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/schemacheck"
	"github.com/waymark-dev/waymark/recipe"
)

const stockSchema = `{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"in_stock":{"type":"boolean"}}}}`

// stockPage writes a shop's list whose availability is words, a badge only
// on the rows sold out, or a class on the row.
func stockPage(lang, how string, items [][2]string) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="` + lang + `"><title>Shop</title><body><h1>Shop</h1><ul class="products">`)
	for _, it := range items {
		switch how {
		case "words":
			b.WriteString(`<li class="product"><h3>` + it[0] + `</h3><span class="stock">` + it[1] + `</span> <button>Add</button></li>`)
		case "badge":
			badge := ""
			if it[1] != "" {
				badge = `<span class="badge">` + it[1] + `</span>`
			}
			b.WriteString(`<li class="product"><h3>` + it[0] + `</h3>` + badge + `<button>Add</button></li>`)
		case "class":
			b.WriteString(`<li class="product ` + it[1] + `"><h3>` + it[0] + `</h3><button>Add</button></li>`)
		}
	}
	b.WriteString(`</ul></body></html>`)
	return b.String()
}

// A boolean the page writes in its own words ("In stock", "Ausverkauft",
// a badge only on the rows sold out, a class on the row) is learned from
// the model's rows and read back with no model; a word never seen in
// learning is a misfit that names it, not a guess.
func TestLearnsYesNoWrittenAsPageWords(t *testing.T) {
	s, ctx := drivertest.Session(t, "yesno", 60*time.Second)
	cases := []struct {
		name, lang, how string
		items           [][2]string // name, how the page says it
		stock           []bool
		yes, no         []string
		missing         *bool
		attr            string
	}{
		{"en", "en", "words", [][2]string{{"Trail Mug", "In stock"}, {"Canvas Tote", "Sold out"}, {"Field Notebook", "In stock"}}, []bool{true, false, true}, []string{"in stock"}, []string{"sold out"}, nil, ""},
		{"de", "de", "words", [][2]string{{"Becher", "Verfügbar"}, {"Tasche", "Ausverkauft"}, {"Heft", "Nur online verfügbar"}}, []bool{true, false, true}, []string{"nur online verfügbar", "verfügbar"}, []string{"ausverkauft"}, nil, ""},
		{"badge", "en", "badge", [][2]string{{"Trail Mug", ""}, {"Canvas Tote", "Sold out"}, {"Field Notebook", ""}}, []bool{true, false, true}, nil, []string{"sold out"}, ptr(true), ""},
		{"class", "en", "class", [][2]string{{"Trail Mug", "available"}, {"Canvas Tote", "sold-out"}, {"Field Notebook", "available"}}, []bool{true, false, true}, []string{"product available"}, []string{"product sold-out"}, nil, "class"},
	}
	raw, err := os.ReadFile("../routine/schema/recipe-1.json")
	if err != nil {
		t.Fatal(err)
	}
	sch, err := schemacheck.Compile(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page := stockPage(c.lang, c.how, c.items)
			base := serve(t, map[string]func() string{"/": func() string { return page }})
			open(t, s, ctx, base+"/")
			var rows []map[string]any
			for i, it := range c.items {
				rows = append(rows, map[string]any{"name": it[0], "in_stock": c.stock[i]})
			}
			b, _ := json.Marshal(rows)
			r := learn(t, ctx, s, stockSchema, string(b))
			var f recipe.Field
			for _, x := range r.Fields {
				if x.Name == "in_stock" {
					f = x
				}
			}
			if strings.Join(f.Yes, "|") != strings.Join(c.yes, "|") || strings.Join(f.No, "|") != strings.Join(c.no, "|") ||
				(f.Missing == nil) != (c.missing == nil) || (f.Missing != nil && *f.Missing != *c.missing) || f.Attr != c.attr {
				t.Errorf("in_stock learned as %+v", f)
			}
			got, err := recipe.Read(ctx, s, r)
			if err != nil || got.Misfit != "" {
				t.Fatalf("read: %v %s", err, got.Misfit)
			}
			gb, _ := json.Marshal(got.Rows)
			if string(gb) != string(b) {
				t.Errorf("read back %s, want %s", gb, b)
			}
			// The recipe's file fits the documented format, and loads.
			rb, _ := r.Marshal()
			var v any
			json.Unmarshal(rb, &v)
			if problems := sch.Problems(v); len(problems) > 0 {
				t.Errorf("%v\n%s", problems, rb)
			}
			if _, err := recipe.Parse(rb); err != nil {
				t.Error(err)
			}
			if c.how == "badge" {
				return
			}
			// A word the rows never showed: a misfit naming it.
			items := append([][2]string{}, c.items...)
			items[1][1] = "Preorder"
			if c.how == "class" {
				items[1][1] = "preorder"
			}
			page = stockPage(c.lang, c.how, items)
			open(t, s, ctx, base+"/")
			got, err = recipe.Read(ctx, s, r)
			if err != nil || !strings.Contains(got.Misfit, "a word not seen when the recipe was learned") || !strings.Contains(strings.ToLower(got.Misfit), "preorder") {
				t.Errorf("a new word: %v %q", err, got.Misfit)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
