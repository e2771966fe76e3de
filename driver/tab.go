package driver

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/pagetool"
	"github.com/waymark-dev/waymark/internal/hand"
)

// tab is one page target of a session. Its listener keeps what the events
// say (the open dialog, the document's status, requests in flight) so that
// actions can read it without a round trip.
type tab struct {
	ctx    context.Context // the chromedp context of the tab; never a request's
	log    *pageLog        // the session's, shared by its tabs; set before start
	refs   *refTable       // the session's; set before start
	cancel context.CancelFunc
	id     target.ID
	opener target.ID // the tab whose page opened this one, if any

	// hand is the pointer of a person's hand on the current page; handNav
	// is the navigation it belongs to. Only actions' goroutines touch them,
	// one at a time (a session's calls do not overlap).
	hand    *hand.Hand
	handNav int
	sess    *chromedp.Target // the tab's CDP session; calls take the request's ctx
	gone    <-chan struct{}
	// ownDocs says the tab pauses its own documents (in an attached
	// browser; guard.go); set before the guard starts, then read only.
	ownDocs bool

	// mu guards the fields below. The listener writes them from chromedp's
	// read loop, so it holds mu only briefly and never sends a command.
	mu      sync.Mutex
	frameID cdp.FrameID // the main frame
	// subframes are the frames the tab's page said it attached, in its
	// process or out of it, for the browser target's guard to find a
	// refused frame's tab (Browser.docTab).
	subframes map[cdp.FrameID]bool
	docURL    string
	// askedFile is the local file waymark itself last sent the tab to
	// (open, back, forward): the one file: document a tab showing a page
	// from the web may load (files.go).
	askedFile string
	// unreachable is the URL the main frame failed to load while it shows
	// an error page (docURL is then chrome-error://…), else "".
	unreachable string
	status      int
	headers     http.Header // the document response's headers
	blocked     error       // the last navigation the guard refused, until an action takes it
	// lookedOverlays are the overlays over the page at the last look
	// (nil before the first), so that one appearing since is caught.
	lookedOverlays map[string]bool
	looks          map[string]look                         // the last outline per set of options, for changes (look.go)
	lookSeq        int                                     // looks seen on the tab so far (look.go)
	filled         map[string]map[cdp.BackendNodeID]string // by reader, the values it filled since its last look (look.go)
	dialog         *calls.Dialog
	dialogSess     *chromedp.Target              // the cross-site frame that shows dialog; nil: the page
	dialogURL      string                        // the URL of the document that opened dialog
	replacedURL    string                        // set on a tab that replaced one a frame's dialog held (health.go): where that one was
	inflight       map[network.RequestID]request // fetch/XHR requests
	// answered are the last fetch/XHR requests the browser saw answered
	// (settle.go: the renderer's own record of them is waited for);
	// answeredSeq counts all ever, failedSeq those that failed.
	answered               []request
	answeredSeq, failedSeq int
	loading                bool                           // main frame between startedLoading and load
	requested              bool                           // the main frame asked to navigate; loading has not started yet
	navSeq                 int                            // bumped at each main-frame navigation
	sameDocSeq             int                            // bumped at each same-document navigation (history API, fragment)
	openSeq                int                            // bumped each time the page asks for a new tab or window
	openURL                string                         // the URL of the last one asked for
	changed                chan struct{}                  // closed and replaced on every tracked change
	isolated               map[cdp.FrameID]*isolatedWorld // execution contexts of our isolated worlds (world.go)
	frames                 map[target.ID]*frameTarget     // attached out-of-process iframes
	// crashed: the renderer died (Inspector.targetCrashed) and no page
	// has loaded since; hung: it did not answer a probe (health.go).
	// sickC is closed while either holds.
	crashed, hung bool
	sickC         chan struct{}
	// stopped is why waymark stopped the renderer, when it did so for
	// the page's own doing (newtabs.go stopFlood), told by the calls
	// that meet the crash; cleared when the tab is well again.
	stopped error
	// logSince and logN count the page's console messages this second,
	// logLag0 is the least lag its console events have had, and logFrom
	// when it came back from its last crash (health.go logFlood).
	logSince, logLag0, logFrom float64 // ms, the page's clock
	logN                       int
	logLagSet                  bool

	navStart time.Time // when the main frame began its current navigation (loading or requested)
	// docSent: the main frame's document request of the current
	// navigation has gone out; docAnswered: its response has come. A
	// probe unanswered between the two is the server's doing, not the
	// page's (health.go awaitingServer).
	docSent, docAnswered bool
	startSeq             int       // bumped each time the main frame asks to navigate or starts loading
	busyN                int       // commands of ours that hold the renderer's main thread (busy)
	busySince            time.Time // when the first of them began
	// entryProbe is the probe an actPage call runs beside its plan
	// (health.go), until the action awaits it.
	entryProbe chan error
	answeredAt time.Time // when the page's main thread last answered a command of ours (noteAnswer)
	// The submit gate at the point of sending (sendgate.go): sends is set
	// while a step is watched; formNav are the frames that asked for a
	// form submission meanwhile. loader is the main frame's page load,
	// which approvals are bound to; usedApprovals are the tokens used;
	// heldFor are the elements held sends' approvals were given for, by
	// token (control.go).
	refusedFrames []frameRefusal // subframes the guard refused on this page (guard.go)
	sends         *sendWatch
	formNav       map[cdp.FrameID]bool
	// after is the last action's watch going on after its step; late
	// are the sends it stopped on this page (sendgate_after.go).
	after         *afterWatch
	late          []lateSend
	loader        cdp.LoaderID
	approvalSeq   int
	usedApprovals map[string]bool
	heldFor       map[string]nodeKey
	// acceptApproved is an approval of a held accept given when its
	// dialog was gone: the next accept of the page uses it (dialoggate.go).
	acceptApproved *calls.Approval

	tools *pagetool.Tools // the page's WebMCP tools, from the first look on (pagetools.go)

	// held are the element handles the current call resolved, released
	// when it ends (world.go).
	held map[heldKey]held

	// pending is the rest of the last action's settle, running in the
	// background until the next command on the tab waits for it
	// (pending.go); nil when none.
	pending *pendingSettle
	// deferGrace: the action under way leaves its grace to the pending
	// settle (graceLater).
	deferGrace bool

	// bannersSeq is navSeq+1 once the first action on the page has
	// answered the cookie banners there at load (popup.go); 0 before.
	bannersSeq int
}

func newTab(ctx context.Context, cancel context.CancelFunc) *tab {
	return &tab{ctx: ctx, cancel: cancel, inflight: map[network.RequestID]request{},
		changed: make(chan struct{}), isolated: map[cdp.FrameID]*isolatedWorld{},
		sickC: make(chan struct{})}
}

// start hooks the listener; the tab must be attached.
func (t *tab) start() error {
	c := chromedp.FromContext(t.ctx)
	t.sess = c.Target
	gone, err := chromedp.Detached(t.ctx)
	if err != nil {
		return err
	}
	t.gone = gone
	tree, err := cdp.Call(t.ctx, t.sess, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.frameID = tree.FrameTree.Frame.ID
	t.docURL = tree.FrameTree.Frame.URL
	t.unreachable = tree.FrameTree.Frame.UnreachableURL
	t.loader = tree.FrameTree.Frame.LoaderID
	t.mu.Unlock()
	if err := chromedp.Listen(t.ctx, t.onEvent); err != nil {
		return err
	}
	return untrackDOM(t.ctx, t.sess) // after the listener is on: it misses no event meanwhile
}

// untrackDOM turns off the DOM and CSS domains chromedp enables on every
// target it attaches: with them on, the renderer reports each stylesheet
// and each new document, and chromedp answers every DOM.documentUpdated
// with a DOM.getDocument, two walks of the new page on its main thread
// while it loads (~10 ms each on the demo shop). waymark reads the page
// by backend node ids, DOMSnapshot and its own scripts, none of which
// needs either domain on.
func untrackDOM(ctx context.Context, sess cdp.Session) error {
	if _, err := cdp.Call(ctx, sess, dom.Disable, cdp.Empty{}); err != nil {
		return browserErr(err)
	}
	if _, err := cdp.Call(ctx, sess, css.Disable, cdp.Empty{}); err != nil {
		return browserErr(err)
	}
	return nil
}

// onEvent runs in chromedp's read loop: it must return fast and send no
// command. It wakes the tab's watchers only when something they read
// changed: a subresource's request or a subframe's load is no news to
// them, and waking a settle's in-page probe for it would run the probe
// again (settle.go).
func (t *tab) onEvent(ev any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if logged := loggedAt(ev); logged != 0 {
		if t.stopped != nil {
			// The page is being stopped for what it did: its messages
			// still coming are dropped unread, so that the backlog a
			// flood left behind drains as fast as the browser sends it.
			t.log.dropConsole()
			return
		}
		if why := t.logFlood(float64(logged), time.Now()); why != nil {
			t.stopped = why   // told from now on, and counted once
			go t.stopFor(why) // ends within the stop's 10 s
		}
	}
	t.log.onEvent(t, ev) // the session's console and requests (pagelog.go)
	if c := t.log.capturing(); c != nil {
		c.OnEvent(t, t.sess, t.docURL, t.frameID, ev) // a network capture runs (driver/internal/netcap)
	}
	wake := true
	switch ev := ev.(type) {
	case *inspector.EventTargetCrashed:
		t.setSickLocked(true, false)
		t.dialog, t.dialogSess = nil, nil
	case *inspector.EventTargetReloadedAfterCrash:
		t.setSickLocked(false, false)
	case *page.EventJavascriptDialogOpening:
		t.dialog = &calls.Dialog{Type: string(ev.Type), Message: ev.Message, DefaultPrompt: ev.DefaultPrompt}
		t.dialogSess, t.dialogURL = nil, ev.URL
	case *page.EventJavascriptDialogClosed:
		t.dialog, t.dialogSess = nil, nil
	case *page.EventFrameStartedLoading:
		wake = ev.FrameID == t.frameID
		if wake {
			if !t.loading && !t.requested {
				t.navStart = time.Now()
				t.docSent, t.docAnswered = false, false
			}
			t.startSeq++
			t.loading, t.requested = true, false
		}
	case *page.EventFrameRequestedNavigation:
		// Sent while the click that asks for it is still being handled, so
		// settle sees the navigation coming before the input call returns.
		wake = false
		if ev.FrameID == t.frameID && ev.Disposition == page.ClientNavigationDispositionCurrentTab {
			t.navigationAskedLocked()
			wake = true
		}
		if t.sends != nil && (ev.Reason == page.ClientNavigationReasonFormSubmissionGet || ev.Reason == page.ClientNavigationReasonFormSubmissionPost) {
			if ev.Disposition == page.ClientNavigationDispositionCurrentTab {
				if !t.formNav[ev.FrameID] {
					t.sends.pending++
				}
				t.formNav[ev.FrameID] = true
			} else {
				t.formNav[newWindow] = true
			}
			wake = true
		}
	case *page.EventFrameAttached:
		wake = false
		if t.subframes == nil {
			t.subframes = map[cdp.FrameID]bool{}
		}
		t.subframes[ev.FrameID] = true
	case *page.EventFrameDetached:
		wake = false
		delete(t.subframes, ev.FrameID)
	case *page.EventFrameNavigated:
		// A new document: its elements get refs of their own (refs.go).
		if ev.Frame.ParentID == "" {
			t.refs.forget(t, "")
		} else {
			t.refs.forget(t, ev.Frame.ID)
		}
		if ev.Frame.ParentID == "" {
			t.frameID = ev.Frame.ID
			t.docURL = ev.Frame.URL
			t.unreachable = ev.Frame.UnreachableURL
			t.loader = ev.Frame.LoaderID
			t.refusedFrames = nil
			t.late = t.lateLeaving()
			t.heldFor = nil // approvals of the page left are refused (approvalFresh)
			t.navSeq++
			t.isolated = map[cdp.FrameID]*isolatedWorld{}
			t.prepareWorldLocked(ev.Frame.ID)
			t.lookedOverlays = nil        // a new page: no look at it yet, nothing to compare with
			t.setSickLocked(false, false) // a new document, in a live renderer
		} else {
			delete(t.isolated, ev.Frame.ID)
		}
	case *page.EventWindowOpen:
		// Sent while the click that opens it is still being handled, before
		// the new target exists: settle waits for what the new tab becomes.
		t.openSeq++
		t.openURL = ev.URL
	case *page.EventNavigatedWithinDocument:
		wake = ev.FrameID == t.frameID
		if wake {
			t.docURL = ev.URL
			t.sameDocSeq++
		}
	case *page.EventLoadEventFired:
		wake = t.loading
		t.loading = false
	case *page.EventFrameStoppedLoading:
		wake = ev.FrameID == t.frameID && (t.loading || t.requested)
		if ev.FrameID == t.frameID {
			t.loading, t.requested = false, false
		}
	case *network.EventResponseReceived:
		wake = ev.Type == network.ResourceTypeDocument && ev.FrameID == t.frameID && ev.Response != nil
		if wake {
			t.status = int(ev.Response.Status)
			t.headers = headerOf(ev.Response.Headers)
			t.docAnswered = true
		}
	case *network.EventRequestWillBeSent:
		if ev.Type == network.ResourceTypeDocument && ev.FrameID == t.frameID {
			t.docSent, t.docAnswered = true, false // a redirect's next hop too
		}
		if t.sends != nil {
			t.sends.announce(ev) // judged before the step ends (sendgate.go)
		}
		wake = ev.Type == network.ResourceTypeFetch || ev.Type == network.ResourceTypeXHR
		if _, redirect := t.inflight[ev.RequestID]; wake && !redirect && ev.Request != nil {
			// A redirect keeps the first URL: the page's record of the
			// request is under the URL it asked for.
			t.inflight[ev.RequestID] = request{url: ev.Request.URL, at: time.Now()}
		}
	case *network.EventLoadingFinished:
		if t.sends != nil {
			// Answered with no pause the tab heard of (a service worker's
			// answer, whose own request the worker path judges).
			delete(t.sends.announced, ev.RequestID)
		}
		var r request
		if r, wake = t.inflight[ev.RequestID]; wake {
			delete(t.inflight, ev.RequestID)
			t.answeredSeq++
			t.answered = append(t.answered, r)
			if len(t.answered) > maxAnswered {
				t.answered = t.answered[1:]
			}
		}
	case *network.EventLoadingFailed:
		if t.sends != nil {
			delete(t.sends.announced, ev.RequestID) // it ended before any pause: nothing left
		}
		if _, wake = t.inflight[ev.RequestID]; wake {
			delete(t.inflight, ev.RequestID)
			t.failedSeq++
		}
	default:
		wake = false
	}
	if wake {
		close(t.changed)
		t.changed = make(chan struct{})
	}
}

// watch returns a channel closed at the next tracked change.
func (t *tab) watch() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.changed
}

func (t *tab) url() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.docURL
}

// landed returns where the main frame's document came from: its URL, or
// for an error page the URL that failed to load.
func (t *tab) landed() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.unreachable != "" {
		return t.unreachable
	}
	return t.docURL
}

func (t *tab) pendingDialog() *calls.Dialog {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dialog == nil {
		return nil
	}
	d := *t.dialog
	return &d
}

// navigationAskedLocked notes that the main frame is about to navigate,
// before the browser says it started loading: settle then waits for that
// load (for settleNavStart at most, if it never starts).
func (t *tab) navigationAskedLocked() {
	if !t.loading && !t.requested {
		t.navStart = time.Now()
		t.docSent, t.docAnswered = false, false
	}
	t.startSeq++
	t.requested = true
}

// leaving says a beforeunload question was accepted: the navigation it
// held goes on now, and the browser tells of its start only later (on a
// loaded machine, after a settle that did not know of it had read the
// page being left).
func (t *tab) leaving() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.navigationAskedLocked()
}

func (t *tab) closed() bool {
	select {
	case <-t.gone:
		return true
	case <-t.ctx.Done():
		return true
	default:
		return false
	}
}

// close closes the tab's target.
func (t *tab) close() { t.cancel() }

// call runs one CDP command on the tab's session with the request's ctx.
func call[P, R any](ctx context.Context, t *tab, c cdp.Command[P, R], p P) (R, error) {
	r, err := cdp.Call(ctx, t.sess, c, p)
	return r, browserErr(err)
}

// headerOf turns CDP's header map into an http.Header with canonical keys.
func headerOf(h network.Headers) http.Header {
	out := make(http.Header, len(h))
	for k, v := range h {
		// CDP joins repeated headers with newlines.
		for _, line := range strings.Split(fmt.Sprint(v), "\n") {
			out.Add(k, line)
		}
	}
	return out
}

// handFor returns the tab's hand for the current page when on is set: it
// keeps its place between actions on a page and starts afresh on a new one.
func (t *tab) handFor(on bool) *hand.Hand {
	if !on {
		return nil
	}
	nav := t.mark().navSeq
	if t.hand == nil {
		t.hand = hand.New(time.Now().UnixNano())
	} else if t.handNav != nav {
		t.hand.Reset()
	}
	t.handNav = nav
	return t.hand
}
