package driver

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
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
			case in.Type == "page":
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
	b.mu.Unlock()
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
