package build

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/outline"
)

// TestInferredNames builds the outline of a page whose fields and buttons
// the page leaves unnamed, and checks the name a person would read for
// each: the text beside it (a cell, a span, a heading above), a
// placeholder, a title, an icon's class, sprite or SVG title. The
// page's own names stay apart: Name is empty, the line says ~"…".
func TestInferredNames(t *testing.T) {
	t.Parallel()
	ts := testServer(t)
	ctx := browsertest.Tab(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/pages/names.html")); err != nil {
		t.Fatal(err)
	}
	// The menu of the autocomplete is built by script, after typing.
	const typeA = `(() => { const f = document.getElementById('fruit'); f.value = 'a'; f.dispatchEvent(new Event('input')); return true })()`
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](typeA)); err != nil {
		t.Fatal(err)
	}
	rec, err := capture(ctx)
	if err != nil {
		t.Fatal(err)
	}
	root, err := Outline(rec.Snapshot, Options{Ref: testRef, Viewport: rec.Viewport})
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if _, err := outline.Render(&buf, root, outline.RenderOptions{Full: true, Interactive: true}); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	lines := outline.Parse(text)
	for _, want := range []struct{ role, name string }{
		{"textbox", "Username"},
		{"textbox", "Password"},
		{"textbox", "Company"},
		{"checkbox", "Remember me"},
		{"checkbox", "I accept the terms"},
		{"textbox", "Coupon code"},
		{"button", "close"},
		{"button", "search"},
		{"button", "star"},
		{"button", "delete"},
		{"button", "edit"},
		{"button", "menu"},
		{"button", "Shopping cart"},
		{"clickable", "close"},
		{"textbox", "Birthday"},
	} {
		found := false
		for _, l := range lines {
			if l.Role == want.role && l.Name == want.name {
				found = true
				if !l.Inferred {
					t.Errorf("%s %q: not marked inferred: %s", want.role, want.name, l.Raw)
				}
				if l.Ref == "" {
					t.Errorf("%s %q: no ref", want.role, want.name)
				}
			}
		}
		if !found {
			t.Errorf("no %s ~%q in\n%s", want.role, want.name, text)
		}
	}
	// A field named only by the text beside it is a secret field like any
	// other: its value is masked.
	if want := `textbox ~"CVC" [ref=`; !strings.Contains(text, want) || strings.Contains(text, `"123"`) {
		t.Errorf("the CVC beside its text: want %s with its value masked in\n%s", want, text)
	}
	// A placeholder and a title are the page's own names, not inferred.
	for _, want := range []string{`textbox "City"`, `textbox "Postal code"`} {
		if !strings.Contains(text, want) {
			t.Errorf("no %s in\n%s", want, text)
		}
	}
	for _, want := range []string{`textbox ~"Birthday" [type=date]`, `textbox "Alarm" [type=time]`, `button "Colour" [type=color]`} {
		if !strings.Contains(text, want) {
			t.Errorf("no %s in\n%s", want, text)
		}
	}
	// The items of the script-built menu are clickable, with refs.
	for _, item := range []string{"Apple", "Apricot", "Avocado", "More details"} {
		found := false
		for _, l := range lines {
			if l.Role == "clickable" && l.Name == item && l.Ref != "" && !l.Inferred {
				found = true
			}
		}
		if !found {
			t.Errorf("no clickable %q with a ref in\n%s", item, text)
		}
	}
	// The page's own name stays empty: locators must not take the
	// inferred one for it.
	root.Walk(func(n *outline.Node, _ int) bool {
		if n.Inferred != "" && n.Name != "" {
			t.Errorf("%s has both a name %q and an inferred one %q", n.Role, n.Name, n.Inferred)
		}
		return true
	})
}

func TestIconOf(t *testing.T) {
	for in, want := range map[string]string{
		"fa fa-times":                   "close",
		"search-close js-search-close":  "close",
		"c-search__close-btn":           "close",
		"bi bi-trash3":                  "delete",
		"icon-trash":                    "delete",
		"#icon-star":                    "star",
		"icon inline icon-chevron-left": "previous",
		"arrow-right":                   "next",
		"btn-primary":                   "",
		"left-column":                   "",
	} {
		if got := iconOf(in); got != want {
			t.Errorf("iconOf(%q) = %q, want %q", in, got, want)
		}
	}
}
