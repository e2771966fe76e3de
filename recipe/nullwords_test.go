package recipe_test

import (
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// TestWordsWhereAValueShouldBe: a catalogue whose price, stock count or
// date is words on some rows ("Preis auf Anfrage", "—", "n/a",
// "TBA", "sold out"): where the schema allows null the model rightly gives
// null, the recipe is learned and reads null there, on this page and on a
// later page with other words; where the schema does not allow null, the
// words are still a misfit; and digits that do not read as the type (the
// recipe reading another element), like a sentence, are a misfit even when
// null is allowed.
func TestWordsWhereAValueShouldBe(t *testing.T) {
	s, ctx := drivertest.Session(t, "nullwords", 60*time.Second)
	card := func(name, price, stock, since string) string {
		return `<li class="product"><h3>` + name + `</h3><span class="price">` + price + `</span><span class="stock">` + stock +
			`</span><time class="since">` + since + `</time></li>`
	}
	page := func(lang string, cards ...string) func() string {
		return func() string {
			return `<!doctype html><html lang="` + lang + `"><title>Katalog</title><body><ul class="catalogue">` + strings.Join(cards, "") + `</ul></body></html>`
		}
	}
	base := serve(t, map[string]func() string{
		"/1": page("de", card("Lampe A", "12,50 €", "4", "03.11.2026"), card("Lampe B", "Preis auf Anfrage", "—", "demnächst"),
			card("Lampe C", "8,00 €", "n/a", "05.11.2026")),
		"/2": page("de", card("Lampe D", "auf Anfrage", "ausverkauft", "TBA"), card("Lampe E", "9,90 €", "2", "06.11.2026")),
		"/3": page("de", card("Lampe F", "Dieses Modell führen wir leider nicht mehr, fragen Sie uns", "1", "07.11.2026")),
		"/4": page("de", card("Lampe A", "12,50 €", "4", "03.11.2026"), card("Lampe C", "8,00 €", "3", "05.11.2026")),
	})
	schema := `{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"price":{"type":["number","null"]},` +
		`"stock":{"type":["integer","null"]},"since":{"type":["string","null"],"format":"date"}}}}`
	open(t, s, ctx, base+"/1")
	r := learn(t, ctx, s, schema, `[{"name":"Lampe A","price":12.5,"stock":4,"since":"03.11.2026"},`+
		`{"name":"Lampe B","price":null,"stock":null,"since":null},{"name":"Lampe C","price":8,"stock":null,"since":"05.11.2026"}]`)
	open(t, s, ctx, base+"/2")
	got := read(t, ctx, s, r)
	if got.Misfit != "" {
		t.Fatalf("page 2 misfits: %s", got.Misfit)
	}
	sameRows(t, got.Rows, `[{"name":"Lampe D","price":null,"since":null,"stock":null},{"name":"Lampe E","price":9.9,"since":"2026-11-06","stock":2}]`)
	open(t, s, ctx, base+"/3")
	if got := read(t, ctx, s, r); got.Misfit == "" {
		t.Errorf("a sentence where the price should be read as %v, want a misfit (the recipe may read another element)", got.Rows)
	}
	// Without null in the schema, words are a misfit as before.
	open(t, s, ctx, base+"/4")
	strict := learn(t, ctx, s, `{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}}}}`,
		`[{"name":"Lampe A","price":12.5},{"name":"Lampe C","price":8}]`)
	open(t, s, ctx, base+"/2")
	if got := read(t, ctx, s, strict); got.Misfit == "" {
		t.Errorf("words in a number field the schema does not allow null read as %v", got.Rows)
	}
}
