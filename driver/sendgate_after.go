package driver

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"

	"github.com/waymark-dev/waymark/calls"
)

// A control's handler may send after its step: a "Next" whose handler
// submits from a 300 ms timer, a debounced save, a delete behind a short
// "undo" delay. The step ends once the page settled, and with it its
// watch (sendgate.go): what the handler sent later left unjudged. So the
// watch of an action's step goes on after the step, on the same page, for
// sendAfter at most. A commit it holds is stopped before it leaves the
// browser and told in every look of the page ([send-stopped]); pressing
// the same control again asks for approval of that send, and an approved
// press lets it through once, whenever the page sends it within the
// watch. The watch ends early when the page is left (sendLinger later,
// for what the page sends as it goes) or the next action's watch takes
// over; a step that keeps no watch after it (a form fill, a page tool)
// only pauses it, and a request of waymark's own passes it. A send begun
// later than sendAfter after the step is the page's own doing, as one
// begun with no action at all is.

// sendAfter is how long an action's watch goes on after its step.
const sendAfter = 10 * time.Second

// afterWatch is a step's watch going on after it (t.after).
type afterWatch struct {
	w      *sendWatch
	navSeq int           // the page it watches (tab.navSeq)
	ended  chan struct{} // closed when it ends
	end    sync.Once
	// over is set, with t.mu held, once it is ending: a step that paused
	// it (pauseAfter) must not give it the tab again.
	over bool
	// release narrows the browser's patterns again (watchAll), once.
	release func()
}

// lateSend is a send an after-watch stopped, told in the page's looks.
// target is the control as the step's caller typed it, for the looks to
// say how to press it again; control is the control, for the press again
// by any locator (control.go).
type lateSend struct {
	action, target string
	control        controlID
	held           heldSend
	at             time.Time // when it was stopped
}

// keepWatching returns what a step's watchStep is given to go on
// watching after the step of action on control (typed as target): w's
// approved send, if not used, may still go once.
func (s *Session) keepWatching(t *tab, action, target string, control controlID) func(*sendWatch) {
	return func(w *sendWatch) {
		if err := s.browser.watchAll(s.browser.ctx, +1); err != nil {
			t.dropWatch(w) // the browser is going: nothing to watch
			return
		}
		a := &afterWatch{w: w, ended: make(chan struct{})}
		a.release = func() {
			_ = s.browser.watchAll(s.browser.ctx, -1)
			t.mu.Lock()
			idle := t.sends == nil
			t.mu.Unlock()
			if t.ownDocs && idle {
				// An attached browser's tab paused its own requests.
				_, _ = cdp.Call(t.ctx, t.sess, fetch.Enable, fetch.EnableParams{Patterns: docPatterns})
			}
		}
		t.mu.Lock()
		if t.sends != w { // a step began meanwhile and watches now
			t.mu.Unlock()
			a.release()
			return
		}
		w.after, w.lateAction, w.lateTarget, w.lateControl = true, action, target, control
		// The page the step began on: a step that left it is watched
		// only while that page still sends as it goes (runAfter).
		a.navSeq = w.navSeq
		t.after = a
		t.mu.Unlock()
		go t.runAfter(a)
	}
}

// runAfter ends a after sendAfter, once the page is left, or when the tab
// closes; a step that takes over ends it itself (takeAfter).
func (t *tab) runAfter(a *afterWatch) {
	timer := time.NewTimer(sendAfter)
	defer timer.Stop()
	for {
		changed := t.watch()
		t.mu.Lock()
		left := t.navSeq != a.navSeq
		t.mu.Unlock()
		if left {
			// The page left still sends as it goes: a beacon its
			// pagehide handler sends reaches the gate once the next
			// page committed (a handler the click added sent one
			// unjudged, TestGateHoldsLateSendsFromElsewhere). What is
			// stopped then is told in the next page's looks.
			select {
			case <-time.After(sendLinger):
			case <-t.ctx.Done():
			case <-a.ended:
				return
			}
			break
		}
		select {
		case <-timer.C:
		case <-t.ctx.Done():
		case <-a.ended:
			return
		case <-changed:
			continue
		}
		break
	}
	t.mu.Lock()
	a.over = true
	if t.after == a {
		t.after = nil
	}
	if t.sends == a.w {
		t.sends, t.formNav = nil, nil
	}
	t.mu.Unlock()
	a.finish()
}

// pauseAfter takes the tab's after-watch, if any, from the tab for a
// step whose own watch starts and that keeps no watch after it (a form
// fill, a sheet fill, a page tool, a dialog's answer); t.mu is held. The
// returned func, called once the step's watch ended, gives the tab back
// to the after-watch for what is left of its time, on the same page: the
// control's handler may send after the step, and a step between its
// press and its send must not let the send go unjudged.
func (t *tab) pauseAfter() (resume func() (resumed bool)) {
	a := t.after
	if a == nil {
		return func() bool { return false }
	}
	t.after = nil
	if t.sends == a.w {
		t.sends = nil
	}
	return func() bool {
		t.mu.Lock()
		back := !a.over && t.sends == nil && t.after == nil && t.navSeq == a.navSeq
		if back {
			a.w.last = time.Now()
			t.sends, t.formNav, t.after = a.w, map[cdp.FrameID]bool{}, a
		}
		t.mu.Unlock()
		if back {
			t.notify() // runAfter reads the page again
		} else {
			a.finish()
		}
		return back
	}
}

// exemptOurs lets one request of waymark's own (method and URL, as the
// gate compares them) pass the tab's after-watch, if one is on, until
// the returned func is called: an API call after a click is not the
// click's late send, and the watch goes on for the page's.
func (t *tab) exemptOurs(what string) (done func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	a := t.after
	if a == nil || t.sends != a.w {
		return func() {}
	}
	a.w.ours = append(a.w.ours, what)
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if i := slices.Index(a.w.ours, what); i >= 0 {
			a.w.ours = slices.Delete(a.w.ours, i, i+1)
		}
	}
}

// finish marks a ended and narrows the browser's patterns, once.
func (a *afterWatch) finish() {
	a.end.Do(func() {
		close(a.ended)
		a.release()
	})
}

// takeAfter ends the tab's after-watch, if any, for a step whose own
// watch starts; t.mu is held. The caller calls the returned func once
// its own patterns are widened, so that none of the page's requests
// falls between the two watches unjudged.
func (t *tab) takeAfter() func() {
	a := t.after
	if a == nil {
		return func() {}
	}
	t.after = nil
	if t.sends == a.w {
		t.sends = nil
	}
	return a.finish
}

// endAfter ends the tab's after-watch, if any: what a step sends with no
// watch of its own (approved before acting, or with submits allowed) must
// not be judged as the last control's late send. (A request of waymark's
// own passes the watch instead: exemptOurs.) The last control's handler
// may still send during such a step, unjudged, as anything may during an
// approved step.
func (t *tab) endAfter() {
	t.mu.Lock()
	end := t.takeAfter()
	t.mu.Unlock()
	end()
}

// forgetFormNav forgets the form submissions the page asked for, before a
// navigation of ours (open, reload, back, forward): its document request
// is no form's. The frame's word of a submission and the pause of its
// request come on two sessions, in either order; a word that came after
// its request was held stayed, and the watch after the step (which keeps
// formNav) took the next open for that submission and stopped it
// (TestApprovalBoundToLoadAndUsedOnce, loaded: net::ERR_ABORTED).
func (t *tab) forgetFormNav() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.formNav != nil {
		t.formNav = map[cdp.FrameID]bool{}
	}
	if t.sends != nil {
		t.sends.pending = 0
	}
}

// dropWatch ends watch w if it is still the tab's.
func (t *tab) dropWatch(w *sendWatch) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sends == w {
		t.sends, t.formNav = nil, nil
	}
}

// maxLate bounds the late sends a page's looks tell of: a page that
// sends in a loop after the click is stopped every time, and told of
// once a request (method and URL without its query) and maxLate times
// at most, not in a notice for each (a look of thousands of lines).
const maxLate = 5

// noteLate keeps a late send the after-watch stopped, for the page's
// looks and for pressing its control again. t.mu is held.
func (t *tab) noteLate(l lateSend) {
	if len(t.late) >= maxLate {
		return
	}
	for _, o := range t.late {
		if o.control.same(l.control) && o.held.method == l.held.method && shortURL(o.held.url) == shortURL(l.held.url) {
			return
		}
	}
	t.late = append(t.late, l)
}

// lateLeaving are the late sends to tell in the looks of the page that
// comes next, when the page is left: those stopped within sendLinger,
// which the page left may have sent as it went (a beacon on pagehide,
// judged just before the gate heard of the next page). t.mu is held.
func (t *tab) lateLeaving() []lateSend {
	var kept []lateSend
	for _, l := range t.late {
		if time.Since(l.at) < sendLinger {
			kept = append(kept, l)
		}
	}
	return kept
}

// lateFor are the sends stopped after a step on the same control of this
// page, however it is pressed again: they need approval first.
func (t *tab) lateFor(control controlID) []heldSend {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []heldSend
	for _, l := range t.late {
		if l.control.same(control) {
			out = append(out, l.held)
		}
	}
	return out
}

// forgetLate drops what was stopped after the control's steps: an
// approved press is under way, and its watch lets the approved send go.
func (t *tab) forgetLate(control controlID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	kept := t.late[:0]
	for _, l := range t.late {
		if !l.control.same(control) {
			kept = append(kept, l)
		}
	}
	t.late = kept
}

// lateNotices are the notices of the sends stopped after a step on this
// page. t.mu is held.
func (t *tab) lateNotices() []calls.Notice {
	var out []calls.Notice
	for _, l := range t.late {
		h := l.held
		out = append(out, calls.Notice{Kind: calls.NoticeSendStopped,
			Message: t.log.typed.Mask(fmt.Sprintf("after %s %s, the page tried to send %s (%s %s); it was stopped before it left the browser: it needs approval, which %s %s again asks for",
				l.action, l.target, h.kind, h.method, shortURL(h.url), l.action, l.target)),
			Detail: map[string]string{"method": h.method, "url": t.log.typed.Mask(shortURL(h.url)), "control": l.target}})
	}
	return out
}
