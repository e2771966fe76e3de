package driver

import (
	"context"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// A multi-step form is reviewed as every page of it the session went
// through, each with its fields as last read or filled (issue 17), for the
// person who approves the final submit. A page is known by its URL and the
// keys of its fields (a wizard that keeps its URL shows other fields on
// each step); a page seen again replaces its earlier state in its place.
// Pages are known from the form calls, and, once the session is in a form
// (it read or filled one), from a read just before each click or key
// press, which may leave the page: a step filled by hand is known too.

// maxFormPages bounds the pages a session keeps.
const maxFormPages = 50

// rememberFormPage keeps the fields of a page the session read or filled;
// a page with no fields is not a form page.
func (s *Session) rememberFormPage(f *calls.Form) {
	if f == nil || len(f.Fields) == 0 {
		return
	}
	p := calls.FormPage{URL: f.URL, Title: f.Title, Fields: append([]calls.FormField(nil), f.Fields...)}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, old := range s.formPages {
		if old.URL == p.URL && sharesKey(old.Fields, p.Fields) {
			s.formPages[i] = p
			return
		}
	}
	s.formPages = append(s.formPages, p)
	if len(s.formPages) > maxFormPages {
		s.formPages = s.formPages[len(s.formPages)-maxFormPages:]
	}
}

// FormReview returns every form page the session read or filled, in the
// order they were first seen, with their values (secrets hidden).
func (s *Session) FormReview(ctx context.Context, _ calls.FormReviewRequest) (reply *calls.FormReview, err error) {
	defer s.masked(&reply, &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := &calls.FormReview{Pages: make([]calls.FormPage, 0, len(s.formPages))}
	for _, p := range s.formPages {
		p.Fields = append([]calls.FormField(nil), p.Fields...)
		out.Pages = append(out.Pages, p)
	}
	return out, nil
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

// keepFormPage reads the tab's form before an action that may leave the
// page, when the session is in a form. A page that cannot be read, or
// holds no fields, changes nothing.
func (s *Session) keepFormPage(ctx context.Context, t *tab, kind string) {
	switch kind {
	case calls.ActClick, calls.ActDblClick, calls.ActPress:
	default:
		return
	}
	s.mu.Lock()
	inForm := len(s.formPages) > 0
	s.mu.Unlock()
	if !inForm {
		return
	}
	rctx, cancel := context.WithTimeout(ctx, keepFormWait)
	defer cancel()
	if sc, err := s.scanForm(rctx, t); err == nil {
		s.rememberFormPage(sc.form())
	}
}

// keepFormWait bounds the read before an action.
const keepFormWait = time.Second
