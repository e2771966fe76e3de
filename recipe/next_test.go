package recipe_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/recipe"
)

// TestFindNextInThePagesLanguage: a list's "load more" button and next
// link are found in the languages pages are written in (evals/shapes
// read only the first batch of a German, French or Japanese list), and a
// button that only looks like one ("In den Warenkorb") is not taken.
func TestFindNextInThePagesLanguage(t *testing.T) {
	s, ctx := drivertest.Session(t, "next-lang", 60*time.Second)
	base := serve(t, map[string]func() string{"/": func() string {
		return `<!doctype html><title>List</title><ul><li>One</li><li>Two</li></ul><div id=c></div>`
	}})
	if _, err := s.Open(ctx, calls.OpenRequest{URL: base + "/"}); err != nil {
		t.Fatal(err)
	}
	for html, want := range map[string]bool{
		`<button type=button>Mehr laden</button>`:       true,
		`<button type=button>Mehr anzeigen</button>`:    true,
		`<button type=button>Voir plus</button>`:        true,
		`<a href="/?page=2">Page suivante</a>`:          true,
		`<button type=button>もっと見る</button>`:            true,
		`<a href="/?page=2">次へ</a>`:                     true,
		`<button type=button>Cargar más</button>`:       true,
		`<button type=button>In den Warenkorb</button>`: false,
		`<button type=button>Voir le panier</button>`:   false,
	} {
		// The page's controls change in place: one load for every case.
		if _, err := s.Eval(ctx, calls.EvalRequest{Expression: "document.getElementById('c').innerHTML = " + strconv.Quote(html)}); err != nil {
			t.Fatal(err)
		}
		loc, err := recipe.FindNext(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if (loc != "") != want {
			t.Errorf("%s: found %q, want found %v", html, loc, want)
		}
	}
}
