package driver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/timing"
	"github.com/waymark-dev/waymark/internal/wait"
)

// A page can stop a call in two ways the browser never reports as an error
// of the command: its renderer crashes (every later command on the tab
// waits forever), or a script holds its main thread (`while(true){}`, every
// command waits until the script ends). Each session call therefore runs
// under a watch (enter): it ends the call at once when the tab's renderer
// crashes, and probes a call that runs long with a trivial evaluation; a
// renderer that does not answer the probe is reported unresponsive and the
// call abandoned. Navigations and tab closes away from such a tab first
// stop its renderer (Page.crash runs on the renderer's IO thread, so it
// works while the main thread is stuck, or held by a dialog loop), which
// is what makes the tab usable again and keeps a stuck tab from taking the
// browser down when it is closed.

// Health timings; variables so that tests can shorten them.
var (
	// probeAfter is how long a call runs before its tab is probed.
	probeAfter = 2 * time.Second
	// probeTimeout is how long a probe may wait for the renderer. A busy
	// machine can be slow to answer; a stuck page never answers.
	probeTimeout = 8 * time.Second
	// busyQuiet is how long a command of ours that holds the renderer
	// (the capture of a page of 50,000 elements takes seconds) may hold
	// the probe back. A page stuck before the call is caught by the probe
	// at its entry.
	busyQuiet = 30 * time.Second
	// navQuiet is how long a navigation may hold the probe back. Chromium
	// queues every command to a tab while a cross-document navigation is
	// between its request and its commit (a slow server), so a probe then
	// tells nothing; a page stuck while it loads is caught after this.
	navQuiet = 15 * time.Second
	// crashWait bounds the wait for a stopped renderer to report the crash.
	// It is waited out only when the crash is not told; on a loaded
	// machine the telling took more than 3 s, and a page that could be
	// stopped was said not to be.
	crashWait = 10 * time.Second
	// goneWait bounds the wait for the browser connection to close once a
	// command failed because its tab's context ended.
	goneWait = 2 * time.Second
	// answeredFresh is how recent an answer of the page's main thread
	// stands for the probe at a call's entry: the last action's settle
	// that the call just waited for, the look a replay's step found its
	// target in. A page that gets stuck after such an answer is told by
	// the next call's probe, or by the probes during this one.
	answeredFresh = 5 * time.Millisecond
)

// entry says what a call does with a tab whose renderer is not well.
type entry int

const (
	// usePage: the call needs the page; a crashed or stuck tab fails it.
	usePage entry = iota
	// readPage: as usePage, for a call that only reads the page and holds
	// no renderer (get url, title, text, …): its probe runs beside the
	// call instead of a round trip before it, and the call answers once
	// the probe has, so a stuck page fails it as before. A call that
	// writes probes first: what it sends must not wait in a stuck renderer
	// to run after the call was reported abandoned; and one that holds the
	// renderer (a capture) too, which would hide a stuck page from the
	// probe for busyQuiet.
	readPage
	// actPage: as usePage, for an element action (Act): its probe runs
	// beside the plan, which only reads the page (it finds the element),
	// and the action waits for the probe's answer (awaitEntryProbe) before
	// it sends anything that changes the page: a stuck page is told before
	// any input, as with usePage, one round trip sooner.
	actPage
	// leavePage: the call replaces the page (open, reload, history): a
	// stuck renderer, or one held by a dialog, is stopped first.
	leavePage
	// anyPage: the call works on the session's tabs, not the page (tab
	// list, close): no check at entry.
	anyPage
	// answerPage: as usePage, for the call that answers the open dialog
	// (Dialog): the dialog is its business, so the watch does not end it
	// for one being open.
	answerPage
)

// errCallDone is the cause of a call's context ended because the call
// returned.
var errCallDone = errors.New("the call returned")

// browserGoneErr is the error of a call the browser died under.
func browserGoneErr() error {
	return &calls.Error{Kind: calls.ErrBrowserGone, Msg: "the browser is gone (it crashed or was killed) while the call ran",
		Hint: "run the command again: a new browser starts"}
}

// lostConnection reports whether err is a command's failure for want of
// the connection, not the page's answer: chromedp wraps context.Canceled
// into the loss of it, and closes a reply's channel. A caller's own
// canceled context looks the same, so check ctx.Err() first.
func lostConnection(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, chromedp.ErrChannelClosed)
}

// errBrowserGone is the cause of a call ended because the browser died.
var errBrowserGone = errors.New("the browser's connection ended")

func pageCrashed() error {
	return calls.Errorf(calls.ErrPageCrashed,
		"run "+calls.Cmd("reload")+" to load the page again, "+calls.Cmd("open URL")+" to go elsewhere, or "+calls.Cmd("tab close"),
		"the page crashed (its renderer process died)")
}

// stopFor stops the tab's renderer for the page's own doing (a flood of
// tabs, of console messages), as a stuck page's is: its calls then say
// why (crashErr), and a reload or another URL brings it back.
func (t *tab) stopFor(why error) error {
	t.mu.Lock()
	t.stopped = why
	t.mu.Unlock()
	ctx, cancel := context.WithTimeout(t.ctx, 10*time.Second)
	defer cancel()
	return t.stopRenderer(ctx)
}

// maxLogRate is the most console messages a second a page may send. Every
// session's events come over the one connection to the browser: a page
// that logged some 10,000 a second held another session's replies behind
// them until its idle page was reported stuck, call after call
// (internal/adversarial TestConsoleFloodIsStopped).
const maxLogRate = 2000

// loggedAt returns when the page logged ev, by the page's clock, or 0 when
// ev is no console message. The browser's own messages about the page
// count too: a page that fetched in a loop what its own Content Security
// Policy refuses sent no request, but one "Refused to connect" entry each,
// some 2,000 a second, and under -race another session's idle page was
// reported stuck and then crashed (TestRefusedRequestFloodIsStopped).
func loggedAt(ev any) runtime.Timestamp {
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		return ev.Timestamp
	case *runtime.EventExceptionThrown:
		return ev.Timestamp
	case *log.EventEntryAdded:
		if ev.Entry != nil {
			return ev.Entry.Timestamp
		}
	}
	return 0
}

// logFloodErr is why a page that logged n console messages within one
// second of its clock was stopped, they reaching the daemon late ms late
// (0: in time).
func logFloodErr(n int, late float64) error {
	how := ""
	if late > 0 {
		how = fmt.Sprintf(" while they reached waymark %.1f s late", late/1000)
	}
	return calls.Errorf(calls.ErrPageCrashed,
		"run "+calls.Cmd("reload")+" to load it again, "+calls.Cmd("open URL")+" to go elsewhere, or "+calls.Cmd("tab close"),
		"the page was stopped: it logged %d console messages within a second (its own, or the browser's about its requests)%s, which slows every session", n, how)
}

// maxLogLag is how much later than the page logged them a page's console
// events may reach the daemon while it logs minFloodLog a second: they
// then queue behind each other on the connection every session shares,
// and another session's replies behind them. On a loaded machine the
// browser forwards the events slower than a flooding page makes them
// (here a page made 11,000 a second, and they came 700 a second, 17 s
// late), and the page's own count of maxLogRate is then learned seconds
// after it happened; the lag says so within one.
const maxLogLag = 1000 // ms

// minFloodLog is the fewest console messages in one second of the page's
// clock that can make a flood: a heavy page's burst (hundreds of failed
// pictures or refused beacons) is never one, however late a loaded
// machine brings it.
const minFloodLog = 500

// logFlood counts a console event of the tab's page, logged at ms (the
// page's clock, in milliseconds) and read at now, and reports when the
// page logs maxLogRate within a second, or minFloodLog while its events
// come over maxLogLag late (the caller stops the page then, and counts no
// more of its events: tab.onEvent). The page's clock, not ours: a daemon
// slower to read the events than the page is to send them (a loaded
// machine) never counted that many in one of its seconds, while they
// piled up. The lag is measured from the least the tab's events ever
// had, so a browser clock set apart from ours counts for nothing. Events
// logged before the tab came back from its last crash are not counted:
// they were queued behind the flood that caused it. It returns why the
// page is to be stopped, or nil. t.mu is held.
func (t *tab) logFlood(ms float64, now time.Time) error {
	if ms < t.logFrom {
		return nil
	}
	if ms-t.logSince > 1000 || ms < t.logSince {
		t.logSince, t.logN = ms, 0
	}
	t.logN++
	lag := float64(now.UnixMilli()) - ms
	if !t.logLagSet || lag < t.logLag0 {
		t.logLag0, t.logLagSet = lag, true
	}
	switch late := lag - t.logLag0; {
	case t.logN >= maxLogRate:
		return logFloodErr(t.logN, 0)
	case t.logN >= minFloodLog && late > maxLogLag:
		return logFloodErr(t.logN, late)
	}
	return nil
}

// dialogOpen is the error of a call that cannot go on while dialog d is
// open.
func dialogOpen(d *calls.Dialog) error {
	return calls.Errorf(calls.ErrNotInteractable, "answer it first: "+calls.Cmd("dialog accept|dismiss"),
		"%s is open (%q)", d.Named(), d.Message)
}

// crashErr is the error of a call on a crashed tab: why waymark stopped
// it, when it did, or else pageCrashed.
func (t *tab) crashErr() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped != nil {
		return t.stopped
	}
	return pageCrashed()
}

func pageUnresponsive(after time.Duration) error {
	return calls.Errorf(calls.ErrPageUnresponsive,
		"run "+calls.Cmd("reload")+", "+calls.Cmd("open URL")+" or "+calls.Cmd("tab close")+": the stuck page is stopped first",
		"the page stopped answering for %s (a script keeps its main thread busy); the call was abandoned", after.Round(100*time.Millisecond))
}

// enter begins a session call on the current tab. The context it returns
// ends when the tab's renderer crashes or stops answering; end, deferred
// with the call's error, turns what that did to the call into
// page_crashed or page_unresponsive, and a call cut short by the browser's
// death into browser_gone (not "canceled": the caller canceled nothing).
func (s *Session) enter(ctx context.Context, how entry) (*tab, context.Context, func(*error), error) {
	t, err := s.current(ctx)
	if err != nil {
		return nil, ctx, func(*error) {}, err
	}
	switch how {
	case usePage, readPage, actPage, answerPage:
		crashed, hung := t.health()
		if crashed {
			return nil, ctx, func(*error) {}, t.crashErr()
		}
		// A tab marked stuck is asked before the watch starts, which ends
		// the call at once on the mark; an answer clears it.
		if hung && t.pendingDialog() == nil {
			if err := t.probe(ctx); errors.Is(err, calls.ErrPageUnresponsive) || errors.Is(err, calls.ErrPageCrashed) {
				return nil, ctx, func(*error) {}, err
			}
		}
	case leavePage:
		if t.pendingDialog() != nil && !t.dialogInPage() {
			nt, err := s.replaceTab(ctx, t)
			if err != nil {
				return nil, ctx, func(*error) {}, err
			}
			t = nt
		} else if err := t.stopIfStuck(ctx); err != nil {
			return nil, ctx, func(*error) {}, err
		}
	}
	cctx, cancel := context.WithCancelCause(ctx)
	quit := make(chan struct{})
	watched := make(chan struct{})
	go func() { // exits when the call ends (quit)
		defer close(watched)
		t.watchCall(cctx, cancel, quit, how == leavePage, how == usePage || how == readPage, s.browser.gone)
	}()
	var probed chan error // the probe beside a read (readPage) or a plan (actPage), once it ends
	stopProbe := func() {}
	end := func(errp *error) {
		if how == actPage && probed != nil && t.takeEntryProbe() == nil {
			probed = nil // the action waited for it (awaitEntryProbe)
		}
		if probed != nil && *errp == nil {
			if err := <-probed; errors.Is(err, calls.ErrPageUnresponsive) || errors.Is(err, calls.ErrPageCrashed) {
				*errp = err
			}
		}
		stopProbe()
		// Cancel first: a probe under way ends with it, so the call's
		// return never waits on one. A cause set before stays the cause.
		cancel(errCallDone)
		close(quit)
		<-watched
		t.releaseHeld(ctx)
		cause := context.Cause(cctx)
		if *errp == nil {
			return
		}
		switch {
		case errors.Is(cause, calls.ErrPageCrashed), errors.Is(cause, calls.ErrPageUnresponsive),
			errors.Is(cause, calls.ErrNotInteractable), errors.Is(cause, calls.ErrTimeout):
			// What the watch ended the call for: a crash, a stuck page,
			// an open dialog, a server that has not answered.
			*errp = cause
		case ctx.Err() == nil && (errors.Is(cause, errBrowserGone) || errors.Is(*errp, context.Canceled) || errors.Is(*errp, chromedp.ErrChannelClosed)):
			// Nobody canceled the call: its tab's or browser's context
			// ended under it.
			if s.browser.waitGone(goneWait) {
				*errp = browserGoneErr()
			} else if t.closed() {
				*errp = calls.Errorf(calls.ErrNavigation, "run "+calls.Cmd("tab list")+" to see the tabs left", "the tab closed while the call ran")
			}
		}
	}
	// The last action's settle, left to this command (pending.go).
	if err := t.awaitPending(cctx); err != nil {
		end(&err)
		return nil, ctx, func(*error) {}, err
	}
	// One round trip on a page that answers; a stuck page is told here,
	// before a command of ours that holds the renderer (a capture) would
	// hide it from the probes during the call. After the settle just
	// waited for, whose last word came from the page's main thread, the
	// renderer has answered just now (answeredFresh): no second question.
	if (how == usePage || how == readPage || how == actPage || how == answerPage) && t.pendingDialog() == nil && !t.answeredWithin(answeredFresh) {
		if how == actPage {
			// On the call's ctx, as below; awaited before the action sends
			// anything (awaitEntryProbe), and by end when the call ends
			// before that.
			pctx, cancel := context.WithCancel(ctx)
			probed, stopProbe = make(chan error, 1), cancel
			go func() { probed <- t.probe(pctx) }()
			t.mu.Lock()
			t.entryProbe = probed
			t.mu.Unlock()
			return t, cctx, end, nil
		}
		if how == readPage {
			// On the call's ctx, not cctx: a tab marked stuck ends cctx
			// at once, and the probe is what asks whether it still is.
			pctx, cancel := context.WithCancel(ctx)
			probed, stopProbe = make(chan error, 1), cancel
			go func() { probed <- t.probe(pctx) }() // ends with the call at the latest (end)
			return t, cctx, end, nil
		}
		endProbe := timing.Span("enter: probe")
		err := t.probe(ctx) // ctx, not cctx: as above
		endProbe()
		if errors.Is(err, calls.ErrPageUnresponsive) || errors.Is(err, calls.ErrPageCrashed) || errors.Is(err, calls.ErrTimeout) {
			end(&err)
			return nil, ctx, func(*error) {}, err
		}
	}
	return t, cctx, end, nil
}

// takeEntryProbe returns and clears the probe an actPage call runs beside
// its plan, or nil when there is none or it was awaited.
func (t *tab) takeEntryProbe() chan error {
	t.mu.Lock()
	defer t.mu.Unlock()
	ch := t.entryProbe
	t.entryProbe = nil
	return ch
}

// awaitEntryProbe waits for the probe an actPage call runs beside its
// plan, and returns page_unresponsive or page_crashed when that is what it
// found: before the action sends anything that changes the page, which in
// a stuck renderer would run after the call was reported abandoned.
func (t *tab) awaitEntryProbe(ctx context.Context) error {
	ch := t.takeEntryProbe()
	if ch == nil {
		return nil
	}
	defer timing.Span("act: probe wait")() // what is left of it after the plan
	select {
	case err := <-ch:
		if errors.Is(err, calls.ErrPageUnresponsive) || errors.Is(err, calls.ErrPageCrashed) {
			return err
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// noteAnswer records that the page's main thread answered a command of
// ours just now (a probe, an evaluation, a capture of the page).
func (t *tab) noteAnswer() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.answeredAt = time.Now()
}

// answeredWithin reports whether the page's main thread answered within d
// and the tab is not marked stuck or crashed.
func (t *tab) answeredWithin(d time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return !t.crashed && !t.hung && !t.answeredAt.IsZero() && time.Since(t.answeredAt) < d
}

// watchCall ends the call's context when the tab crashes, when the browser
// dies, or when the call runs past probeAfter and the renderer does not
// answer a probe, or (dialogs) a dialog that was open when it began still
// is: the dialog holds the page's main thread, and a read of the page
// would wait for an answer until its caller gave up. A call
// that leaves a crashed page (tolerate) is not ended by that crash: only a
// new one, once a page has loaded again.
func (t *tab) watchCall(ctx context.Context, cancel context.CancelCauseFunc, quit <-chan struct{}, tolerate, dialogs bool, browserGone <-chan struct{}) {
	leaving := tolerate // the call replaces the page (leavePage)
	dialogs = dialogs && t.pendingDialog() != nil
	start := time.Now()
	timer := time.NewTimer(probeAfter)
	defer timer.Stop()
	for {
		crashed, _ := t.health()
		var sick, changed <-chan struct{}
		if crashed && tolerate {
			changed = t.watch() // wait for the page to load again
		} else {
			tolerate = false
			sick = t.sick()
		}
		select {
		case <-quit:
			return
		case <-ctx.Done():
			return
		case <-browserGone:
			// No answer will come to the call's commands, and waits on
			// the tab's events would wait forever.
			cancel(errBrowserGone)
			return
		case <-changed:
		case <-sick:
			if crashed, _ := t.health(); crashed {
				cancel(t.crashErr())
			} else {
				cancel(pageUnresponsive(time.Since(start)))
			}
			return
		case <-timer.C:
			// A call that leaves the page meets the page's beforeunload
			// question: the navigation waits for its answer (it said
			// "did not finish loading" after 30 s).
			if d := t.pendingDialog(); d != nil && (dialogs || leaving && d.Type == string(page.DialogTypeBeforeunload)) {
				cancel(dialogOpen(d))
				return
			}
			// A dialog holds the main thread by design: the call that
			// opened it reports it; it is not a stuck page. A crashed
			// renderer has no thread to probe.
			if crashed, _ := t.health(); !crashed && t.pendingDialog() == nil {
				err := t.probe(ctx)
				// A call that navigates itself ends on its own deadline
				// while the server is slow; any other is held by that
				// navigation, and ended.
				if (errors.Is(err, calls.ErrPageUnresponsive) || errors.Is(err, calls.ErrTimeout) && !leaving) && ctx.Err() == nil {
					cancel(err)
					return
				}
			}
			timer.Reset(probeAfter)
		}
	}
}

// probe asks the renderer for a trivial evaluation in its main world (no
// write, nothing left behind). No answer within probeTimeout marks the tab
// stuck and returns page_unresponsive; an answer clears the mark.
func (t *tab) probe(ctx context.Context) error {
	if t.navigatingFor() < navQuiet || t.busyFor() < busyQuiet {
		return nil // commands wait for the navigation, or for ours: no answer means nothing
	}
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	// A renderer that crashes meanwhile (or is stopped) never answers:
	// the probe ends then, not probeTimeout later.
	go func() { // exits when the probe ends (pctx)
		for {
			if crashed, _ := t.health(); crashed {
				cancel()
				return
			}
			select {
			case <-t.watch():
			case <-pctx.Done():
				return
			}
		}
	}()
	start := time.Now()
	_, err := cdp.Call(pctx, t.sess, runtime.Evaluate, runtime.EvaluateParams{Expression: "0"})
	if err == nil {
		t.setHung(false)
		t.noteAnswer()
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if crashed, _ := t.health(); crashed {
		return t.crashErr()
	}
	if pctx.Err() == nil {
		return browserErr(err) // the command failed, so the renderer answered (or the tab is gone)
	}
	if t.navigatingFor() < navQuiet || t.busyFor() < busyQuiet {
		return nil // a navigation, or a command of ours, began meanwhile and held the probe
	}
	if d, waiting := t.awaitingServer(); waiting {
		// Chromium holds the tab's commands until the navigation
		// commits: the server, not a script, has not answered. (A server
		// that accepted and never answered was reported as a page whose
		// script kept its main thread busy, after 23 s of an open.)
		return serverSlow(d)
	}
	t.setHung(true)
	return pageUnresponsive(time.Since(start))
}

// awaitingServer reports whether the main frame's navigation has sent its
// document request and has no answer yet, and for how long it has been
// navigating.
func (t *tab) awaitingServer() (time.Duration, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.loading && !t.requested || !t.docSent || t.docAnswered {
		return 0, false
	}
	return time.Since(t.navStart), true
}

// serverSlow is the error of a call the tab's navigation holds: its
// server has not answered the page's request.
func serverSlow(d time.Duration) error {
	return calls.Errorf(calls.ErrTimeout,
		"wait and run the command again, or run "+calls.Cmd("open URL")+" to go elsewhere (or "+calls.Cmd("reload")+")",
		"the page is still loading: its server has not answered for %s", d.Round(time.Second))
}

// stopIfStuck stops the renderer of a tab that cannot be left otherwise: one
// marked stuck, one that does not answer a probe, or one a dialog holds (a
// page that opens dialogs in a loop opens the next as soon as one is
// answered). A crashed tab can be navigated and closed; these cannot.
func (t *tab) stopIfStuck(ctx context.Context) error {
	crashed, hung := t.health()
	if crashed {
		return nil
	}
	if !hung && t.pendingDialog() == nil {
		if err := t.probe(ctx); !errors.Is(err, calls.ErrPageUnresponsive) {
			return nil // well, or a failure the call itself will meet
		}
	}
	return t.stopRenderer(ctx)
}

// stopRenderer crashes the tab's renderers (its page's and its cross-site
// frames', where a dialog loop may run) and waits for the browser to say
// the page's crashed. Page.crash has no answer: the renderer dies first.
func (t *tab) stopRenderer(ctx context.Context) error {
	sick := t.sick()
	cctx, cancel := context.WithTimeout(ctx, crashWait)
	defer cancel()
	t.mu.Lock()
	sessions := []cdp.Session{t.sess}
	for _, ft := range t.frames {
		sessions = append(sessions, ft.sess)
	}
	t.mu.Unlock()
	for _, sess := range sessions {
		go func() { _, _ = cdp.Call(cctx, sess, page.Crash, cdp.Empty{}) }()
	}
	for {
		if crashed, _ := t.health(); crashed {
			t.mu.Lock()
			t.dialog, t.dialogSess = nil, nil // the renderer that showed it is gone
			t.mu.Unlock()
			return nil
		}
		select {
		case <-sick:
			sick = t.sick() // hung was set; wait on for the crash
		case <-t.watch():
		case <-cctx.Done():
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return calls.Errorf(calls.ErrPageUnresponsive, "run "+calls.Cmd("tab close")+", or "+calls.Cmd("session close"),
				"the stuck page could not be stopped within %s", crashWait)
		}
	}
}

// closeStuck closes the tab, stopping its renderer first if it is stuck or
// held by a dialog of its page: closing such a tab as it is (with a
// navigation pending) can end the whole browser, every session's. A tab a
// cross-site frame's dialog holds is closed as it is: stopping its page's
// renderer under that dialog is what ends the browser then.
func (t *tab) closeStuck(ctx context.Context) {
	if !t.closed() && (t.pendingDialog() == nil || t.dialogInPage()) {
		_ = t.stopIfStuck(ctx)
	}
	t.close()
}

// dialogInPage reports whether the open dialog was opened by a document of
// the page's own host, and so runs in the page's renderer. A dialog of a
// frame of another host may run in a renderer of its own; stopping the
// page's renderer under it ends the browser (Chromium 1xx, headless), so
// such a tab is replaced, not stopped.
func (t *tab) dialogInPage() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dialog == nil || t.dialogSess != nil {
		return false
	}
	d, err1 := url.Parse(t.dialogURL)
	p, err2 := url.Parse(t.docURL)
	return err1 == nil && err2 == nil && d.Scheme == p.Scheme && d.Host == p.Host
}

// replaceTab opens a fresh tab in t's place, makes it current and closes t:
// the way away from a page a frame's dialog loop holds, which neither a
// navigation nor a stop can leave. The new tab remembers where t was, for
// a reload.
func (s *Session) replaceTab(ctx context.Context, t *tab) (*tab, error) {
	nt, err := s.openTab(ctx, "")
	if err != nil {
		return nil, err
	}
	nt.mu.Lock()
	nt.replacedURL = t.url()
	nt.mu.Unlock()
	s.mu.Lock()
	if s.cur == t {
		s.cur = nt
	}
	s.mu.Unlock()
	t.close()
	s.drop(t)
	return nt, nil
}

// takeReplaced returns where the tab this one replaced was, once.
func (t *tab) takeReplaced() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	u := t.replacedURL
	t.replacedURL = ""
	return u
}

// busy marks a command of ours that holds the renderer's main thread for as
// long as it runs; call the function it returns when the command ends.
func (t *tab) busy() func() {
	t.mu.Lock()
	if t.busyN == 0 {
		t.busySince = time.Now()
	}
	t.busyN++
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		t.busyN--
		t.mu.Unlock()
	}
}

// busyFor returns how long commands of ours have held the renderer, or a
// duration over any bound when none does.
func (t *tab) busyFor() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.busyN == 0 {
		return time.Duration(1<<63 - 1)
	}
	return time.Since(t.busySince)
}

// navigatingFor returns how long the main frame has been navigating, or a
// duration over any bound when it is not.
func (t *tab) navigatingFor() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.loading && !t.requested {
		return time.Duration(1<<63 - 1)
	}
	return time.Since(t.navStart)
}

// onFrameEvent keeps what a cross-site frame's events say of dialogs; like
// onEvent it runs in chromedp's read loop and sends no command.
func (t *tab) onFrameEvent(ft *frameTarget, ev any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c := t.log.capturing(); c != nil {
		c.OnEvent(t, ft.sess, t.docURL, t.frameID, ev) // a network capture runs (driver/internal/netcap)
	}
	switch ev := ev.(type) {
	case *page.EventJavascriptDialogOpening:
		t.dialog = &calls.Dialog{Type: string(ev.Type), Message: ev.Message, DefaultPrompt: ev.DefaultPrompt}
		t.dialogSess = ft.sess
	case *page.EventJavascriptDialogClosed, *inspector.EventTargetCrashed:
		if t.dialogSess != ft.sess {
			return
		}
		t.dialog, t.dialogSess = nil, nil
	case *page.EventFrameNavigated:
		// The frame's new document may run in another renderer: its
		// elements get refs of their own (refs.go).
		t.refs.forget(t, ev.Frame.ID)
		return
	default:
		return
	}
	close(t.changed)
	t.changed = make(chan struct{})
}

// dialogSession returns the session of the target that shows the open
// dialog: the page's, or a cross-site frame's.
func (t *tab) dialogSession() cdp.Session {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dialogSess != nil {
		return t.dialogSess
	}
	return t.sess
}

// health reports whether the tab's renderer crashed, or is marked stuck.
func (t *tab) health() (crashed, hung bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.crashed, t.hung
}

// sick returns a channel closed when the tab crashes or is marked stuck.
func (t *tab) sick() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sickC
}

// setHung marks the tab stuck or well.
func (t *tab) setHung(on bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.setSickLocked(t.crashed, on)
}

// setSickLocked sets the tab's health; t.mu is held. sickC is closed while
// the tab is crashed or stuck, and replaced when it is well again.
func (t *tab) setSickLocked(crashed, hung bool) {
	was := t.crashed || t.hung
	if t.crashed && !crashed {
		// Back from the crash: why waymark stopped it is told. Not
		// before the crash lands: a tab said well between stopFor and
		// its crash lost the reason (TestPopupFloodIsStopped, loaded).
		// The old page's console events still coming are not the new
		// page's flood (logFlood): from now on, by the page's clock.
		t.stopped = nil
		t.logFrom = float64(nowMS()) - t.logLag0
	}
	t.crashed, t.hung = crashed, hung
	switch now := crashed || hung; {
	case now && !was:
		close(t.sickC)
	case !now && was:
		t.sickC = make(chan struct{})
	}
}

// waitGone reports whether the browser is gone, or goes within d.
func (b *Browser) waitGone(d time.Duration) bool {
	return wait.Closed(b.gone, d)
}
