package driver

import (
	"context"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/form"
)

// A multi-step form is reviewed as every page of it the session went
// through (the ledger is the room's: form.Review). Pages are known from
// the form calls, and, once the session is in a form (it read or filled
// one), from a read just before each click or key press, which may leave
// the page: a step filled by hand is known too.

// rememberFormPage keeps the fields of a page the session read or filled.
func (s *Session) rememberFormPage(f *calls.Form) { s.formReview.Remember(f) }

// FormReview returns every form page the session read or filled, in the
// order they were first seen, with their values (secrets hidden).
func (s *Session) FormReview(ctx context.Context, _ calls.FormReviewRequest) (reply *calls.FormReview, err error) {
	defer s.masked(&reply, &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &calls.FormReview{Pages: s.formReview.Pages()}, nil
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
	if !s.formReview.InForm() {
		return
	}
	rctx, cancel := context.WithTimeout(ctx, keepFormWait)
	defer cancel()
	if sc, err := form.Read(rctx, s.view(t)); err == nil {
		s.rememberFormPage(sc.Form())
	}
}

// keepFormWait bounds the read before an action.
const keepFormWait = time.Second
