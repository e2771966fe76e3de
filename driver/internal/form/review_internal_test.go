package form

import (
	"fmt"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestReviewKeepsEachPageOnce: a page seen again (same URL, a key in
// common) replaces its state in its place; a wizard's next step on the
// same URL is a page of its own; the oldest go past the bound.
func TestReviewKeepsEachPageOnce(t *testing.T) {
	page := func(url string, kv ...string) *calls.Form {
		f := &calls.Form{URL: url}
		for i := 0; i < len(kv); i += 2 {
			f.Fields = append(f.Fields, calls.FormField{Key: kv[i], Value: kv[i+1]})
		}
		return f
	}
	var r Review
	if r.InForm() {
		t.Fatal("an empty review is in a form")
	}
	r.Remember(page("https://a.test/apply")) // no fields: not a form page
	r.Remember(page("https://a.test/apply", "name", ""))
	r.Remember(page("https://a.test/apply", "email", "a@b.test")) // the next step, same URL
	r.Remember(page("https://a.test/apply", "name", "Ann"))       // the first again
	got := r.Pages()
	if len(got) != 2 || got[0].Fields[0].Value != "Ann" || got[1].Fields[0].Key != "email" || !r.InForm() {
		t.Fatalf("pages %+v", got)
	}
	got[0].Fields[0].Value = "changed by the caller"
	if r.Pages()[0].Fields[0].Value != "Ann" {
		t.Error("Pages shares its fields with the caller")
	}
	for i := range maxPages + 5 {
		r.Remember(page(fmt.Sprintf("https://a.test/%d", i), "k", "v"))
	}
	if got := r.Pages(); len(got) != maxPages || got[len(got)-1].URL != fmt.Sprintf("https://a.test/%d", maxPages+4) {
		t.Errorf("%d pages kept, last %s", len(got), got[len(got)-1].URL)
	}
}
