package driver

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// mark is what the tab's listener knew just before an action.
type mark struct {
	navSeq, sameDocSeq, openSeq, startSeq int
	answeredSeq, failedSeq                int
	// loading says the main frame's document was loading already: a load
	// that never ends (an image that never answers) is not the action's
	// to wait for when the action started no navigation of its own.
	loading bool
}

func (t *tab) mark() mark {
	t.mu.Lock()
	defer t.mu.Unlock()
	return mark{navSeq: t.navSeq, sameDocSeq: t.sameDocSeq, openSeq: t.openSeq, startSeq: t.startSeq,
		answeredSeq: t.answeredSeq, failedSeq: t.failedSeq, loading: t.loading}
}

// request is a fetch/XHR request of the page: the URL it asked for, and
// when the browser told of it.
type request struct {
	url string
	at  time.Time
}

// maxAnswered is how many answered requests a tab remembers: more since
// one action than that, and settle waits as if it knew none (quiet).
const maxAnswered = 16

// answeredSince returns the requests answered since before, and whether
// they are all there is to know: none failed (a failure leaves no record
// in the page to wait for) and none was forgotten.
func (t *tab) answeredSince(before mark) ([]request, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.answeredSeq - before.answeredSeq
	if t.failedSeq != before.failedSeq || n > len(t.answered) {
		return nil, false
	}
	return slices.Clone(t.answered[len(t.answered)-n:]), true
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
	settleRequests = 3 * time.Second  // for fetch/XHR requests to finish
	settleLoad     = 30 * time.Second // for a navigation to load
	settleNavStart = 2 * time.Second  // for a requested navigation to start loading (a download or a 204 never does)
)

// pace is how long the DOM must stay still after the responses to the
// requests an action started: a response's handler may render over
// several tasks (reading the body, then rendering), which the in-page
// probe of settledDOM might see only in part.
type pace struct {
	still time.Duration
	// grace is how long the probe's first round lasts in the page: for
	// what the browser, not the page, announces, which no in-page probe
	// sees coming (a link's download begins in the browser process).
	grace time.Duration
	// frames the page draws before settledDOM's rounds: a wheel scroll
	// reaches the page's scroll offsets at a frame.
	frames int
	// later: an action that answers early (settleUntil) leaves even the
	// in-page probe to the next command when nothing else is under way.
	// For typing, choosing and checking: what their handlers do in the page
	// (a field's suggestions drawn) is the next look's to wait for, while a
	// navigation or a new tab they ask for synchronously is seen before the
	// input call returns.
	later bool
}

var (
	// paceClick is for clicks and presses, which may start downloads.
	paceClick = pace{still: 30 * time.Millisecond, grace: 30 * time.Millisecond}
	// paceEdit is for typing, choosing and checking, whose requests (a
	// search box's suggestions) are smaller.
	paceEdit = pace{still: 15 * time.Millisecond, later: true}
	// paceScroll is for scrolls.
	paceScroll = pace{still: 30 * time.Millisecond, frames: 2}
)

// paceOf is the pace of an action kind.
func paceOf(kind string) pace {
	switch kind {
	case calls.ActFill, calls.ActType, calls.ActSelect, calls.ActCheck, calls.ActUncheck, calls.ActFocus, calls.ActUpload:
		return paceEdit
	case calls.ActScroll:
		return paceScroll
	}
	return paceClick
}

// settle waits after an action until the page is as the action left it:
// for a navigation it started, the load; for fetch/XHR requests it
// started, their end (capped) and a quiet DOM; and in every case the
// in-page work it set going (microtasks, zero-delay timers and tasks, the
// renders they schedule) run to the end with the DOM still (settledDOM).
// It ends as soon as that is so: a fill that changes nothing else returns
// in a round trip or two. A click or press waits at least its grace (30
// ms), for a download, which the browser announces, not the page.
//
// A request or navigation that a handler starts, at once or in a task it
// queues, is announced (the tab's listener) before settledDOM's answer
// comes back from the same page, so an answer given while nothing else
// happened means there was nothing else to wait for. A timer set for later
// than that (a search box's 200 ms debounce) is not waited for.
func (t *tab) settle(ctx context.Context, before mark, p pace) error {
	_, _, err := t.settleUntil(ctx, before, p, false, false)
	return err
}

// settleUntil is settle; with early set it returns later as soon as
// what the action did is known but the page is not settled yet: its
// navigation committed and is loading, or it set requests going (their
// end, the quiet after them and the work the page then does are left). The caller hands what is left to the next command (pending.go),
// calling settleUntil again with sawRequests as it returned (whether the
// action set requests going, whose responses may render over several
// tasks).
func (t *tab) settleUntil(ctx context.Context, before mark, p pace, early, sawRequests bool) (later, saw bool, err error) {
	pctx, pcancel := context.WithCancel(ctx)
	defer pcancel()
	var probe <-chan error         // the running settledDOM, if any
	var probeSince <-chan struct{} // the tab's change channel when it started
	first := p                     // the grace is the first probe's; a later one (on the page a click opened) needs none
	// stopGrace ends the running probe while it waits out its grace, once
	// the page asked for something (a request, a navigation): that is
	// not a download, and the grace is not worth waiting for. cut says
	// the probe was ended so.
	var stopGrace context.CancelFunc
	cut := false
	// anchored says the running probe waited for the page's own record
	// of every request the action set going that was answered (a
	// request's response may reach the page well after the browser told
	// of its end, and render over several tasks and a frame); when it
	// could not (one failed, or too many), the DOM must then stay still
	// for p.still, as a response's handlers may still be at work.
	anchored := false
	startProbe := func() {
		if sawRequests || t.mark().startSeq != before.startSeq {
			// Not a download, which the grace is for: the page asked for
			// something else first.
			first.grace = 0
		}
		var answered []request
		anchored = false
		if sawRequests {
			answered, anchored = t.answeredSince(before)
		}
		ch := make(chan error, 1)
		probe, probeSince = ch, t.watch()
		gctx, gcancel := context.WithCancel(pctx)
		stopGrace, cut = nil, false
		if first.grace > 0 {
			stopGrace = gcancel
		}
		go func(p pace) { ch <- t.settledDOM(gctx, p, answered); gcancel() }(first)
		first.grace = 0
	}
	done := func() (bool, bool, error) {
		if sawRequests {
			if early {
				return true, true, nil
			}
			if !anchored {
				// Responses that may change the page over several tasks.
				return false, true, t.quiet(ctx, p.still)
			}
			return false, true, nil
		}
		return false, false, nil
	}
	var navStartAt time.Time
	var reqDeadline, navStartDeadline <-chan time.Time
	loadDeadline := time.NewTimer(settleLoad)
	defer loadDeadline.Stop()
	for {
		t.mu.Lock()
		loading := t.loading
		requested := t.requested
		inflight := len(t.inflight)
		dialog := t.dialog != nil
		changed := t.changed
		committed := t.navSeq != before.navSeq
		if loading && before.loading && !committed && !requested && t.startSeq == before.startSeq {
			// The document was loading before the action, which asked
			// for no navigation: what the action did is in the page now,
			// and the rest of the load is nobody's to wait for here (a
			// click on a page whose image never answers clicked; it
			// failed as a timeout after 30 s).
			loading = false
		}
		t.mu.Unlock()
		if dialog {
			return false, sawRequests, nil
		}
		if stopGrace != nil && (loading || requested || inflight > 0) {
			stopGrace()
			stopGrace, cut = nil, true
		}
		switch {
		case loading && early && committed:
			// It navigated, and the new document is loading: the load is
			// the next command's to wait for.
			return true, sawRequests, nil
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
			if early {
				// It set requests going and asked for no navigation while
				// its handlers ran: the requests' end, and what the page
				// does then, are the next command's to wait for.
				return true, true, nil
			}
		case early && p.later && probe == nil && !sawRequests:
			// Nothing under way outside the page: the in-page probe is the
			// next command's.
			return true, false, nil
		default:
			// Nothing under way outside the page: ask the page.
			if probe == nil {
				startProbe()
			}
		}
		select {
		case <-changed:
		case <-probe:
			probe, stopGrace = nil, nil
			if ctx.Err() != nil {
				return false, sawRequests, ctx.Err()
			}
			if cut {
				cut = false
				continue // ended in its grace: look again, and probe anew
			}
			select {
			case <-probeSince:
				// Something began or ended while it ran (a request, a
				// navigation): look again. A failed probe (its document
				// went away) lands here too.
				continue
			default:
			}
			return done()
		case <-reqDeadline:
			return done()
		case <-navStartDeadline:
		case <-loadDeadline.C:
			return false, sawRequests, calls.Errorf(calls.ErrTimeout, "the page may still be loading; run "+calls.Cmd("wait --load")+" or take a snapshot",
				"the page did not finish loading within %s", settleLoad)
		case <-t.gone:
			return false, sawRequests, nil // the action closed its own tab
		case <-ctx.Done():
			return false, sawRequests, ctx.Err()
		}
	}
}

// settledDOM waits, in the page, for the page's own record (its resource
// timing entries) of the answered requests, then for p.frames frames to be
// drawn (at least one after answered requests: a response's render is
// often left to the next frame), then for the tasks queued so far to run
// out with the DOM still, the first round lasting p.grace
// (js/settled_dom.js; at most 1 s). When the page's record of a request
// does not show within p.still (a page that clears its resource timings,
// or has filled their buffer), it waits instead for the DOM to stay still
// for p.still.
func (t *tab) settledDOM(ctx context.Context, p pace, answered []request) error {
	frames := p.frames
	if len(answered) > 0 {
		frames = max(frames, 1)
	}
	type req struct {
		URL string  `json:"url"`
		Ago float64 `json:"ago"` // ms since the browser told of it
	}
	reqs := make([]req, len(answered))
	for i, r := range answered {
		reqs[i] = req{URL: r.url, Ago: float64(time.Since(r.at).Microseconds()) / 1000}
	}
	list, err := json.Marshal(reqs)
	if err != nil {
		return err
	}
	expr := strings.NewReplacer("FRAMES", strconv.Itoa(frames), "FIRST_HOP_MS", strconv.FormatInt(p.grace.Milliseconds(), 10),
		"ANSWERED", string(list), "STILL_MS", strconv.FormatInt(p.still.Milliseconds(), 10)).Replace(jsSettledDOM)
	return t.evalWorld(ctx, t.sess, t.mainFrame(), expr, nil)
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

// drawn waits for the page to draw two frames and run its timers once:
// what an editor deferred from the last key is done by then.
func (t *tab) drawn(ctx context.Context) error {
	return t.evalWorld(ctx, t.sess, t.mainFrame(), "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))))", nil)
}
