package driver

import (
	"context"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
)

// Accepting a confirm is pressing what it asks. A page can put a commit
// behind a control whose words do not commit ("More", then confirm("Delete
// your account for good?") and a POST on OK): the click sends nothing and
// passes the gate, and the send comes when the dialog is accepted. So an
// accept is a step of the send gate like a click (sendgate.go): with
// Submits "ask" its tab's sends are watched while the page goes on, the
// dialog's message standing for the control's words, and a commit is
// held and answered needs_approval. The dialog is answered by then (a
// page cannot be asked twice): the approval lets exactly the held request
// through when the dialog is opened again and accepted with it. An
// approval that arrives when no dialog is open (an MCP client's person
// answers after the accept was held) is kept for the next accept of the
// same page load (keepAcceptApproval).

// keepAcceptApproval keeps an approval of a held accept that came when no
// dialog was open, as an MCP client's does (the person is asked after the
// accept was held, and the dialog is gone by their answer): the next
// accept on the same page load lets its request through, once. It
// returns the no-dialog error, saying so; nil when req keeps nothing.
func (t *tab) keepAcceptApproval(req calls.DialogRequest) error {
	if !req.Accept || req.Approve == nil || req.Approve.Sends == "" || t.approvalFresh(*req.Approve) != nil {
		return nil
	}
	a := *req.Approve
	t.mu.Lock()
	t.acceptApproved = &a
	t.mu.Unlock()
	return calls.Errorf(calls.ErrNoDialog, "do again what opened the dialog, then accept it: the approved request goes then, once",
		"approved, but the dialog was answered already")
}

// keptAcceptApproval takes the approval keepAcceptApproval kept, if it
// is still fresh.
func (t *tab) keptAcceptApproval() *calls.Approval {
	t.mu.Lock()
	a := t.acceptApproved
	t.acceptApproved = nil
	t.mu.Unlock()
	if a == nil || t.approvalFresh(*a) != nil {
		return nil
	}
	return a
}

// watchAccept starts watching the sends of an accept of d, as act does a
// press: nil when the accept needs no watch (a dismissal, Submits other
// than "ask", an approval that names no send).
func (s *Session) watchAccept(ctx context.Context, t *tab, req calls.DialogRequest, d *calls.Dialog) (func() (held, passed []heldSend), func(), error) {
	if !req.Accept {
		return nil, func() {}, nil
	}
	allow := ""
	switch {
	case req.Approve != nil:
		if err := t.approvalFresh(*req.Approve); err != nil {
			return nil, nil, err
		}
		t.useApproval(*req.Approve)
		if allow = req.Approve.Sends; allow == "" {
			return nil, func() {}, nil
		}
	case req.Submits != "ask":
		return nil, func() {}, nil
	default:
		if a := t.keptAcceptApproval(); a != nil {
			t.useApproval(*a)
			allow = a.Sends
		}
	}
	stop, err := t.watchSendsListed(ctx, allow, d.Message, func() bool { return s.browser.hasFrames(t.id) })
	if err != nil {
		return nil, nil, err
	}
	if err := s.browser.watchAll(ctx, +1); err != nil {
		stop()
		return nil, nil, err
	}
	return stop, func() { s.browser.watchAll(context.WithoutCancel(ctx), -1) }, nil
}

// acceptHeld is the needs_approval error of an accept whose sends were
// held: heldErr's, with a hint that says how to send it.
func (t *tab) acceptHeld(d *calls.Dialog, held []heldSend) error {
	err := t.heldErr("accept", t.url(), controlID{shown: fmt.Sprintf("%s %q", d.Named(), d.Message)}, held)
	if ce, ok := err.(*calls.Error); ok {
		ce.Hint = "the dialog was answered and its request stopped: to send it, do again what opened the dialog, then accept it with the approval (" +
			calls.Cmd("dialog accept --allow-submit") + ")"
	}
	return err
}
