package form

import (
	"sync"

	"github.com/waymark-dev/waymark/calls"
)

// A multi-step form is reviewed as every page of it the session went
// through, each with its fields as last read or filled (issue 17), for the
// person who approves the final submit. A page is known by its URL and the
// keys of its fields (a wizard that keeps its URL shows other fields on
// each step); a page seen again replaces its earlier state in its place.
// Which reads are kept (the form calls, a read before a click once the
// session is in a form) is the core's (driver/form_review.go).

// maxPages bounds the pages a session keeps.
const maxPages = 50

// Review is a session's form pages; the zero value is empty and ready.
type Review struct {
	mu    sync.Mutex
	pages []calls.FormPage
}

// Remember keeps the fields of a page read or filled; a page with no
// fields is not a form page.
func (r *Review) Remember(f *calls.Form) {
	if f == nil || len(f.Fields) == 0 {
		return
	}
	p := calls.FormPage{URL: f.URL, Title: f.Title, Fields: append([]calls.FormField(nil), f.Fields...)}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, old := range r.pages {
		if old.URL == p.URL && sharesKey(old.Fields, p.Fields) {
			r.pages[i] = p
			return
		}
	}
	r.pages = append(r.pages, p)
	if len(r.pages) > maxPages {
		r.pages = r.pages[len(r.pages)-maxPages:]
	}
}

// Pages returns a copy of the pages kept, in the order first seen.
func (r *Review) Pages() []calls.FormPage {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]calls.FormPage, 0, len(r.pages))
	for _, p := range r.pages {
		p.Fields = append([]calls.FormField(nil), p.Fields...)
		out = append(out, p)
	}
	return out
}

// InForm says whether the session read or filled a form page.
func (r *Review) InForm() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.pages) > 0
}

// sharesKey says whether two reads have a field key in common.
func sharesKey(a, b []calls.FormField) bool {
	keys := make(map[string]bool, len(a))
	for _, f := range a {
		keys[f.Key] = true
	}
	for _, f := range b {
		if keys[f.Key] {
			return true
		}
	}
	return false
}
