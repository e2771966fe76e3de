package driver

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// mark is what the tab's listener knew just before an action.
type mark struct {
	navSeq, sameDocSeq, openSeq, startSeq int
}

func (t *tab) mark() mark {
	t.mu.Lock()
	defer t.mu.Unlock()
	return mark{navSeq: t.navSeq, sameDocSeq: t.sameDocSeq, openSeq: t.openSeq, startSeq: t.startSeq}
}

// leftPage reports whether the main frame has navigated, or begun to, since
// before: what an action read of its page may be gone.
func (t *tab) leftPage(before mark) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.navSeq != before.navSeq || t.startSeq != before.startSeq
}

// How long settle waits for what an action started.
const (
	// A request or navigation that a handler starts synchronously is
	// announced before the input call returns; the grace is for those
	// started a moment later (a timer, an awaited step).
	settleRequests = 3 * time.Second  // for fetch/XHR requests to finish
	settleLoad     = 30 * time.Second // for a navigation to load
	settleNavStart = 2 * time.Second  // for a requested navigation to start loading (a download or a 204 never does)
)

// pace is how long settle waits for what an action may start: the grace
// for a request or navigation started a moment after the input, and the
// stillness that counts as a quiet DOM.
type pace struct {
	grace time.Duration
	still time.Duration
}

var (
	// paceClick is for clicks, presses and scrolls, which start
	// navigations and requests: a request started by a timer or an
	// awaited step shows within 30 ms.
	paceClick = pace{grace: 30 * time.Millisecond, still: 30 * time.Millisecond}
	// paceEdit is for typing, choosing and checking: a framework
	// re-renders in the input event's own task, so 15 ms of stillness
	// covers it, and a field rarely starts a request at once (a search
	// box debounces for 200 ms or more, past either window). Half the
	// wait per field is what brings a 17-field form's replay within 1.3×
	// of a hand-written chromedp program (replay bench).
	paceEdit = pace{grace: 15 * time.Millisecond, still: 15 * time.Millisecond}
)

// paceOf is the pace of an action kind.
func paceOf(kind string) pace {
	switch kind {
	case calls.ActFill, calls.ActType, calls.ActSelect, calls.ActCheck, calls.ActUncheck, calls.ActFocus, calls.ActUpload:
		return paceEdit
	}
	return paceClick
}

// settle waits after an action: for a navigation it started, the load; for
// fetch/XHR requests it started, their end (capped); then a quiet DOM.
func (t *tab) settle(ctx context.Context, before mark, p pace) error {
	// The wait for a quiet DOM starts at once and runs beside the grace
	// period; it is used when the action stayed on the same document.
	qctx, qcancel := context.WithCancel(ctx)
	defer qcancel()
	quietDone := make(chan error, 1)
	go func() { quietDone <- t.quiet(qctx, p.still) }() // ends by 1 s, or when qctx ends
	sawRequests := false
	settled := func(navigated bool) error {
		if navigated || sawRequests {
			// A new document, or responses that may change the page after
			// the early wait ended: wait for quiet again from now.
			return t.quiet(ctx, p.still)
		}
		select {
		case err := <-quietDone:
			if ctx.Err() != nil {
				return ctx.Err()
			}
			_ = err // a document that went away is quiet enough
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	grace := time.NewTimer(p.grace)
	defer grace.Stop()
	graceC := grace.C // nil once the grace period is over
	var navStartAt time.Time
	var reqDeadline, navStartDeadline <-chan time.Time
	loadDeadline := time.NewTimer(settleLoad)
	defer loadDeadline.Stop()
	for {
		t.mu.Lock()
		navigated := t.navSeq != before.navSeq
		loading := t.loading
		requested := t.requested
		inflight := len(t.inflight)
		dialog := t.dialog != nil
		changed := t.changed
		t.mu.Unlock()
		if dialog {
			return nil
		}
		switch {
		case loading:
			// A navigation is under way: wait for its load.
		case requested && navStartDeadline != nil && time.Now().After(navStartAt):
			// It never started loading: carry on with what the page shows.
			t.mu.Lock()
			t.requested = false
			t.mu.Unlock()
			continue
		case requested:
			if navStartDeadline == nil {
				navStartAt = time.Now().Add(settleNavStart)
				navStartDeadline = time.After(settleNavStart)
			}
		case inflight > 0:
			sawRequests = true
			if reqDeadline == nil {
				reqDeadline = time.After(settleRequests)
			}
		case navigated:
			return settled(true)
		default:
			if graceC == nil {
				return settled(false)
			}
		}
		select {
		case <-changed:
		case <-graceC:
			graceC = nil
			if !loading && !requested && inflight == 0 {
				return settled(navigated)
			}
		case <-reqDeadline:
			return settled(navigated)
		case <-navStartDeadline:
		case <-loadDeadline.C:
			return calls.Errorf(calls.ErrTimeout, "the page may still be loading; run waymark wait --load or take a snapshot",
				"the page did not finish loading within %s", settleLoad)
		case <-t.gone:
			return nil // the action closed its own tab
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// quiet waits for the DOM to stop changing (still long, at most 1 s).
func (t *tab) quiet(ctx context.Context, still time.Duration) error {
	expr := strings.Replace(jsQuietDOM, "QUIET_MS", strconv.FormatInt(still.Milliseconds(), 10), 1)
	err := t.evalWorld(ctx, t.sess, t.mainFrame(), expr, nil)
	if err != nil && ctx.Err() == nil {
		return nil // a document that is going away is quiet enough
	}
	return err
}

// waitLoaded waits (briefly) for a tab that just opened to finish loading.
func (t *tab) waitLoaded(ctx context.Context) error {
	// A tab opens on about:blank, then goes to its URL; one that stays
	// blank (window.open() with no URL) is given up on after a while.
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for {
		var state string
		if t.closed() {
			return nil // it closed itself (a tab opened only to download a file does)
		}
		err := t.evalWorld(ctx, t.sess, t.mainFrame(), `document.readyState`, &state)
		if err == nil && state == "complete" && t.url() != "about:blank" && t.url() != "" {
			return nil
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-deadline.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
