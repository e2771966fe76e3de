package driver

import (
	"context"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/form"
)

// Forms as ledgers (issue 17): reading and filling fields is the form
// room's (internal/form), which acts on the page only through the core's
// elements and its view of the session (surface.go). What stays here is
// each call's session side: entering the tab, a dialog in the way, the
// secret registry before the first key, and the submit gate that holds
// the page's own sends while a form is filled.

// Form reads the current page's forms as fields.
func (s *Session) Form(ctx context.Context, _ calls.FormRequest) (reply *calls.Form, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	if d := t.pendingDialog(); d != nil {
		return nil, calls.Errorf(calls.ErrNotInteractable, "answer it first: "+calls.Cmd("dialog accept|dismiss"), "%s is open (%q)", d.Named(), d.Message)
	}
	sc, err := form.Read(ctx, s.view(t))
	if err != nil {
		return nil, err
	}
	out := sc.Form()
	s.overlayATS(ctx, t, sc, out)
	s.rememberFormPage(out)
	return out, nil
}

// FillForm fills the current page's fields from answers. Filling never
// presses Enter or a submit control, and the page's own attempts to send
// while it fills (a submit on change, a requestSubmit from a script) are
// held at the point of sending by the submit gate (sendgate.go) and
// reported.
func (s *Session) FillForm(ctx context.Context, req calls.FormFillRequest) (reply *calls.FormFillResult, err error) {
	defer s.masked(&reply, &err)
	answers, err := form.Answers(req)
	if err != nil {
		return nil, err
	}
	// Before the first key: every output masks them from now on
	// (registry.go), whatever the page echoes of them.
	for k, v := range req.Secrets {
		s.register(k, v)
	}
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	if d := t.pendingDialog(); d != nil {
		return nil, calls.Errorf(calls.ErrNotInteractable, "answer it first: "+calls.Cmd("dialog accept|dismiss"), "%s is open (%q)", d.Named(), d.Message)
	}
	// The page's own sends are held from the first write to the last.
	// It lingers for the sends of out-of-process frames only when a field
	// of one was written (sendgate.go).
	inFrames := new(bool)
	for _, a := range answers {
		s.log.addEntered(a.Key, a.Value) // a send that carries it commits (sendclass.go)
	}
	stop, err := t.watchSendsListed(ctx, "", "", func() bool { return *inFrames && s.browser.hasFrames(t.id) })
	if err != nil {
		return nil, err
	}
	if err := s.browser.watchAll(ctx, +1); err != nil {
		stop()
		return nil, err
	}
	defer s.browser.watchAll(context.WithoutCancel(ctx), -1)
	res, err := form.Fill(ctx, s.view(t), answers, req, inFrames)
	if err == nil {
		// A save the fill's own change starts later (a debounced
		// autosave) is held too: the gate stays until the page is quiet.
		t.awaitQuiet(ctx, fillQuiet, fillQuietMax)
	}
	held, passed := stop()
	if err != nil {
		return nil, err
	}
	for _, h := range held {
		res.Stopped = append(res.Stopped, h.String())
	}
	for _, h := range passed {
		res.Chatter = append(res.Chatter, h.String())
	}
	if len(held) > 0 {
		res.NeedsPerson = append(res.NeedsPerson, fmt.Sprintf("the page tried to send the form %d time(s) while it was filled; it was stopped", len(held)))
	}
	return res, nil
}
