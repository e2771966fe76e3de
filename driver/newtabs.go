package driver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
)

// The browser target pauses every document request (its Fetch domain sees
// every target's) and judges it: this is the navigation guard of every tab
// (guard.go). A tab the page opens (target=_blank, window.open, a form
// posting to a new window) sends its first document request before any
// session can attach to it: a refused one never leaves the browser, and
// the tab that made it is closed when it is adopted (refuseTab). A
// document of an adopted tab, or of one of its frames, is judged the same,
// and a refusal is told to its tab, with the messages an action reports.

// errHeldNewTab marks a new tab whose first request was a send the submit
// gate held (sendgate.go): it is closed when adopted, like a refused one.
var errHeldNewTab = errors.New("the new tab's first request was held for approval")

// guardNewTabs starts the browser-wide pause of documents: every tab's (in
// an attached browser, new tabs' first only; guard.go).
func (b *Browser) guardNewTabs(ctx context.Context) error {
	c := chromedp.FromContext(b.ctx)
	if c == nil || c.Browser == nil {
		return errors.New("no browser connection")
	}
	b.fresh = map[cdp.FrameID]target.ID{}
	b.freshCtx = map[cdp.FrameID]cdp.BrowserContextID{}
	b.refusedNew = map[cdp.FrameID]error{}
	b.frameParent = map[target.ID]target.ID{}
	b.pages = map[target.ID]cdp.BrowserContextID{}
	b.overTabs = map[target.ID]bool{}
	b.tabsRefused = map[cdp.BrowserContextID]int{}
	b.floods = map[target.ID]int{}
	b.fetchPatterns = docPatterns
	// Runs in chromedp's read loop, before the paused requests that follow
	// the target's creation are read: no command, a short lock.
	chromedp.ListenBrowser(b.ctx, func(ev any) {
		switch ev := ev.(type) {
		case *target.EventTargetCreated:
			in := ev.TargetInfo
			b.mu.Lock()
			switch {
			case in == nil:
			case in.Type == "page" && b.pagesIn(in.BrowserContextID) >= MaxTabs:
				// One too many (MaxTabs): its first request is failed
				// (decideNew), no session adopts it, and it is closed.
				b.overTabs[in.TargetID] = true
				b.tabsRefused[in.BrowserContextID]++
				go b.closeOverTab(c.Browser, in.TargetID)
				// A page that goes on (a timer's loop) would keep the
				// browser making and closing windows: once it has had
				// MaxTabs refused, it is stopped.
				if in.OpenerID != "" {
					if b.floods[in.OpenerID]++; b.floods[in.OpenerID] == MaxTabs {
						delete(b.floods, in.OpenerID)
						go b.stopFlood(c.Browser, in.OpenerID)
					}
				}
			case in.Type == "page":
				b.pages[in.TargetID] = in.BrowserContextID
				b.fresh[cdp.FrameID(in.TargetID)] = in.OpenerID
				b.freshCtx[cdp.FrameID(in.TargetID)] = in.BrowserContextID
			case in.Type == "iframe":
				b.frameParent[in.TargetID] = frameParentOf(in)
			case isWorker(in.Type):
				b.noteWorker(in)
			}
			b.mu.Unlock()
		case *target.EventTargetInfoChanged:
			if in := ev.TargetInfo; in != nil && in.Type == "iframe" && frameParentOf(in) != "" {
				b.mu.Lock()
				b.frameParent[in.TargetID] = frameParentOf(in)
				b.mu.Unlock()
			}
		case *target.EventTargetDestroyed:
			b.mu.Lock()
			delete(b.fresh, cdp.FrameID(ev.TargetID))
			delete(b.freshCtx, cdp.FrameID(ev.TargetID))
			delete(b.refusedNew, cdp.FrameID(ev.TargetID))
			delete(b.frameParent, ev.TargetID)
			delete(b.workers, ev.TargetID)
			delete(b.pages, ev.TargetID)
			delete(b.overTabs, ev.TargetID)
			delete(b.floods, ev.TargetID)
			b.mu.Unlock()
		}
	})
	paused := chromedp.BrowserEvents(b.ctx, fetch.RequestPaused) // subscribe before enabling
	if _, err := cdp.Call(ctx, c.Browser, target.SetDiscoverTargets, target.SetDiscoverTargetsParams{Discover: true}); err != nil {
		return browserErr(err)
	}
	if _, err := cdp.Call(ctx, c.Browser, fetch.Enable, fetch.EnableParams{Patterns: docPatterns}); err != nil {
		return browserErr(err)
	}
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			go b.decideNew(c.Browser, ev)
		}
	}()
	return nil
}

// decideNew lets a request paused by the browser go, unless it is the
// first document of a tab no session has adopted and the policy refuses
// it or the opener's submit gate holds it.
func (b *Browser) decideNew(br *chromedp.Browser, ev fetch.EventRequestPaused) {
	ctx := b.ctx
	b.mu.Lock()
	opener, fresh := b.fresh[ev.FrameID]
	over := b.overTabs[target.ID(ev.FrameID)]
	b.mu.Unlock()
	if over {
		// A tab over MaxTabs, being closed: its page never reaches
		// the server.
		_, _ = cdp.Call(ctx, br, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAborted})
		return
	}
	if !fresh || ev.ResourceType != network.ResourceTypeDocument {
		// A send from an out-of-process frame of a watched tab: an
		// attached browser's tab pauses its own page's sends, not its
		// frames' (sendgate.go).
		t := b.frameTab(ev.FrameID)
		if t == nil && !b.attached {
			// A send from the page of a watched tab, or from a frame in
			// its process: the tab pauses nothing itself (guard.go).
			t = b.docTab(ctx, ev.FrameID, b.watching() && !b.isWorker(ev.FrameID))
		}
		if t != nil && t.holdSend(&ev, false) {
			_, _ = cdp.Call(ctx, br, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAborted})
			t.notify()
			return
		}
		// A send from a worker (sendgate_workers.go).
		if w := b.holdWorkerSend(&ev); w != nil {
			_, _ = cdp.Call(ctx, br, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAborted})
			w.notify()
			return
		}
		if ev.ResourceType == network.ResourceTypeDocument && !b.attached {
			b.decideDoc(br, ev, t)
			return
		}
		_, _ = cdp.Call(ctx, br, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		return
	}
	var refused error
	if t := b.tabByID(opener); t != nil && t.holdSend(&ev, true) {
		refused = errHeldNewTab
		defer t.notify()
	} else {
		u, err := url.Parse(ev.Request.URL)
		if err == nil {
			err = b.judge(ctx, u)
		}
		if err != nil {
			refused = blockedErr(ev.Request.URL, err)
		}
	}
	if refused == nil {
		_, _ = cdp.Call(ctx, br, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		return
	}
	b.mu.Lock()
	b.refusedNew[ev.FrameID] = refused
	b.mu.Unlock()
	_, _ = cdp.Call(ctx, br, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAborted})
}

// decideDoc judges against the policy a document request that is not a
// new tab's first, nor a send a watched step held (decideNew): one of an
// adopted tab t (nil when not known yet), of one of its frames, or of a
// page no session holds (every page of a browser waymark started is its
// own). Each document is judged here once.
func (b *Browser) decideDoc(br *chromedp.Browser, ev fetch.EventRequestPaused, t *tab) {
	ctx := b.ctx
	u, err := judgeDoc(ctx, b.judge, &ev, t)
	if err == nil {
		_, _ = cdp.Call(ctx, br, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		return
	}
	if t == nil {
		// A frame the page has just attached whose word the tab has not
		// read yet: asked of each tab's page.
		t = b.docTab(ctx, ev.FrameID, true)
	}
	if t != nil {
		t.refused(&ev, u, err)
	}
	// Aborted: see tab.decide.
	_, _ = cdp.Call(ctx, br, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAborted})
	if t != nil {
		t.notify()
	}
}

// docTab finds the adopted tab a document request's frame belongs to: the
// page's main frame (its id is the target's), an out-of-process frame's
// page, or a frame the tab's page said it attached. ask also asks each
// tab's page for its frame tree (a round trip a tab: only for a refusal,
// whose tab must say so). nil when no session's tab holds the frame.
func (b *Browser) docTab(ctx context.Context, id cdp.FrameID, ask bool) *tab {
	if id == "" {
		return nil
	}
	if t := b.tabByID(target.ID(id)); t != nil {
		return t
	}
	if t := b.frameTab(id); t != nil {
		return t
	}
	if t := b.subframeTab(id); t != nil {
		return t
	}
	if !ask {
		return nil
	}
	actx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	for _, t := range b.allTabs() {
		tree, err := cdp.Call(actx, t.sess, page.GetFrameTree, cdp.Empty{})
		if err == nil && hasFrame(tree.FrameTree, id) { // download.go
			return t
		}
	}
	return nil
}

// subframeTab finds the tab whose page said it attached the frame.
func (b *Browser) subframeTab(id cdp.FrameID) *tab {
	for _, t := range b.allTabs() {
		t.mu.Lock()
		has := t.subframes[id]
		t.mu.Unlock()
		if has {
			return t
		}
	}
	return nil
}

// allTabs are the tabs of every session.
func (b *Browser) allTabs() []*tab {
	var tabs []*tab
	for _, s := range b.Sessions() {
		s.mu.Lock()
		tabs = append(tabs, s.tabs...)
		s.mu.Unlock()
	}
	return tabs
}

// watching reports whether a step's sends are watched in some tab: the
// browser target then pauses every request (watchAll).
func (b *Browser) watching() bool {
	return b.watched.Load() > 0
}

// isWorker reports whether a request's frame is a worker's target.
func (b *Browser) isWorker(id cdp.FrameID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.workers[target.ID(id)]
	return ok
}

// unadoptedPages reports whether a page target of the browser context may
// exist that no session has adopted yet (one a page opened): when not,
// there is nothing to look for among the browser's targets.
func (b *Browser) unadoptedPages(bcid cdp.BrowserContextID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fresh == nil {
		return true // not watched: look
	}
	for _, c := range b.freshCtx {
		if c == bcid {
			return true
		}
	}
	return false
}

// adopted says a session holds the tab now: its own guard judges it.
func (b *Browser) adopted(id target.ID) {
	b.mu.Lock()
	delete(b.fresh, cdp.FrameID(id))
	delete(b.freshCtx, cdp.FrameID(id))
	b.mu.Unlock()
}

// takeRefusedNew returns and forgets the refusal of a new tab's first
// request, if there was one.
func (b *Browser) takeRefusedNew(id target.ID) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	err := b.refusedNew[cdp.FrameID(id)]
	delete(b.refusedNew, cdp.FrameID(id))
	return err
}

// newRefused reports whether a new tab's first request was refused or
// held: it stays blank, and nothing is to be waited for.
func (b *Browser) newRefused(id target.ID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.refusedNew[cdp.FrameID(id)]
	return ok
}

// tabByID finds a session's tab by its target id.
func (b *Browser) tabByID(id target.ID) *tab {
	if id == "" {
		return nil
	}
	for _, s := range b.Sessions() {
		s.mu.Lock()
		for _, t := range s.tabs {
			if t.id == id {
				s.mu.Unlock()
				return t
			}
		}
		s.mu.Unlock()
	}
	return nil
}

// frameTab returns the tab an out-of-process frame belongs to, following
// its parents up to the page, or nil for any other frame.
func (b *Browser) frameTab(id cdp.FrameID) *tab {
	tid := target.ID(id)
	b.mu.Lock()
	_, ok := b.frameParent[tid]
	for range maxFrameDepth + 1 {
		p, up := b.frameParent[tid]
		if !up || p == "" {
			break
		}
		tid = p
	}
	b.mu.Unlock()
	if !ok {
		return nil
	}
	if t := b.tabByID(tid); t != nil {
		return t
	}
	// Its parent is a frame in a page's process.
	return b.subframeTab(cdp.FrameID(tid))
}

// frameParentOf is the parent of an iframe target: its parent target, or
// else the frame it is in (a page's main frame has its target's id).
// Chromium 148 leaves parentId out of an iframe target that
// Target.setDiscoverTargets announces, and gives parentFrameId (seen
// 2026-12-06: a cross-site iframe's POST went out past the submit gate,
// internal/adversarial TestGateHoldsAtSending).
func frameParentOf(in *target.Info) target.ID {
	if in.ParentID != "" {
		return in.ParentID
	}
	return target.ID(in.ParentFrameID)
}

// watchAll widens (+1) or narrows (-1) what the browser target pauses:
// every request while any tab's sends are watched, so that those of its
// out-of-process frames are judged too; documents only otherwise.
func (b *Browser) watchAll(ctx context.Context, delta int) error {
	b.patternsMu.Lock()
	defer b.patternsMu.Unlock()
	b.watchers += delta
	b.watched.Store(int32(b.watchers)) // before the pauses it asks for come
	want := docPatterns
	if b.watchers > 0 {
		want = sendPatterns
	}
	if len(want) > 0 && len(b.fetchPatterns) > 0 && want[0] == b.fetchPatterns[0] {
		return nil
	}
	c := chromedp.FromContext(b.ctx)
	if _, err := cdp.Call(ctx, c.Browser, fetch.Enable, fetch.EnableParams{Patterns: want}); err != nil {
		b.watchers -= delta
		b.watched.Store(int32(b.watchers))
		return browserErr(err)
	}
	b.fetchPatterns = want
	return nil
}

// hasFrames reports whether the tab has out-of-process frames.
func (b *Browser) hasFrames(id target.ID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.frameParent {
		if p == id {
			return true
		}
	}
	return false
}

// MaxTabs is the most tabs a session holds at once. A page that opens
// windows in a loop (popups are not blocked: an agent's click must open
// its tab) filled the one browser every session shares until it answered
// none of them: some 900 windows in ten minutes, after which another
// session's look said page_unresponsive and a new session could not open
// (internal/adversarial TestPopupFloodIsCapped). The browser target sees
// every tab created, whoever opened it, before its first request: there
// one over the limit is closed, and counted for the session's next look.
const MaxTabs = 20

// pagesIn counts the page targets of a browser context. b.mu is held.
func (b *Browser) pagesIn(bcid cdp.BrowserContextID) int {
	n := 0
	for _, c := range b.pages {
		if c == bcid {
			n++
		}
	}
	return n
}

// closeOverTab closes a tab opened over MaxTabs.
func (b *Browser) closeOverTab(br *chromedp.Browser, id target.ID) {
	b.closeTargetOn(br, id)
}

// closeTarget closes a target no session holds.
func (b *Browser) closeTarget(id target.ID) {
	if c := chromedp.FromContext(b.ctx); c != nil && c.Browser != nil {
		b.closeTargetOn(c.Browser, id)
	}
}

// closeTargetOn closes a target no session holds, through the browser
// connection br. It returns when the browser answers, or after 10 s.
func (b *Browser) closeTargetOn(br *chromedp.Browser, id target.ID) {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if _, err := cdp.Call(ctx, br, target.CloseTarget, target.CloseTargetParams{TargetID: id}); err != nil {
		b.log.Debug("close a tab", "target", string(id), "err", err)
	}
}

// errFlood is why a page that opened tabs without end was stopped.
var errFlood = calls.Errorf(calls.ErrPageCrashed,
	"run "+calls.Cmd("reload")+" to load it again, "+calls.Cmd("open URL")+" to go elsewhere, or "+calls.Cmd("tab close"),
	"the page was stopped: it kept opening tabs past the %d a session may hold", MaxTabs)

// stopFlood stops the page of target id, which kept opening tabs over
// MaxTabs: a session's tab (or one of its cross-site frames) has its
// renderer stopped as a stuck page's is (health.go), and says why on its
// next call; a tab no session holds (a popup opening popups) is closed.
func (b *Browser) stopFlood(br *chromedp.Browser, id target.ID) {
	t := b.tabByID(id)
	if t == nil {
		t = b.frameTab(cdp.FrameID(id))
	}
	if t == nil {
		b.closeOverTab(br, id)
		return
	}
	if err := t.stopFor(errFlood); err != nil {
		b.log.Debug("stop a page that opens tabs without end", "target", string(id), "err", err)
	}
}

// overTab reports whether a page target is one opened over MaxTabs,
// being closed: no session adopts it.
func (b *Browser) overTab(id target.ID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.overTabs[id]
}

// tabsFull reports whether a browser context holds MaxTabs tabs already.
func (b *Browser) tabsFull(bcid cdp.BrowserContextID) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pages != nil && b.pagesIn(bcid) >= MaxTabs
}

// tabsRefusedNotice returns, once, the notice of the tabs a browser
// context's pages opened over MaxTabs since the last one; nil when none.
func (b *Browser) tabsRefusedNotice(bcid cdp.BrowserContextID) []calls.Notice {
	if b == nil {
		return nil // a session of a test, with no browser
	}
	b.mu.Lock()
	n := b.tabsRefused[bcid]
	delete(b.tabsRefused, bcid)
	b.mu.Unlock()
	if n == 0 {
		return nil
	}
	return []calls.Notice{{Kind: calls.NoticeTabsRefused,
		Message: fmt.Sprintf("the page opened %d more tabs than the session may hold (%d); they were closed before they loaded; close the tabs you no longer need before opening more", n, MaxTabs),
		Detail:  map[string]string{"closed": strconv.Itoa(n), "limit": strconv.Itoa(MaxTabs)}}}
}
