package driver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/policy"
)

// Every document request of a tab (a navigation, a redirect hop, a link, an
// iframe) is paused and checked against the URL policy and the
// private-network rule before it goes out (invariant 6). Only documents are
// paused (subresources pass the interception unpaused). They are paused
// once, by the browser target (newtabs.go, Browser.decideDoc), which sees
// every tab's and every frame's. The tab's own interception, on as well,
// cost the flow's three navigations 2–15 ms and the browser 4–19 ms of CPU,
// and about as much when it paused nothing (bench/cmd/cdpfloor, modes
// fetch, fetch1 and fetchidle, four runs of 61–121 at load 8–21:
// bench/results/guard32-2026-12-06.md). While a step's sends are watched,
// the browser target pauses every request and judges the tab's sends too
// (sendgate.go). An
// attached browser is the exception: it holds pages of its own, which are
// none of waymark's to judge, so there each tab pauses its own documents
// (and a watched step's requests), and the browser target judges only new
// tabs' first. The first document of a tab the page opens comes before the
// tab can be adopted: the browser target judges it, and a tab that landed
// somewhere refused is closed (refuseTab, below).

// guard starts the tab's own pauses when own is set (an attached browser):
// its documents, and every request while a step's sends are watched
// (sendgate.go). It runs until the tab closes. judge decides each request
// (Browser.judge).
func (t *tab) guard(judge func(context.Context, *url.URL) error, own bool) error {
	t.ownDocs = own
	if !own {
		return nil // the browser target pauses and judges (newtabs.go)
	}
	paused := chromedp.Events(t.ctx, fetch.RequestPaused) // subscribe before enabling
	if _, err := cdp.Call(t.ctx, t.sess, fetch.Enable, fetch.EnableParams{Patterns: docPatterns}); err != nil {
		return browserErr(err)
	}
	// Exits when the tab's context ends: the iterator then stops.
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			go t.decide(judge, ev) // a DNS lookup must not hold up the next request
		}
	}()
	return nil
}

// decide lets a request the tab paused (t.ownDocs: an attached browser)
// go or fails it, remembering a refusal so the action that caused it can
// say so.
func (t *tab) decide(judge func(context.Context, *url.URL) error, ev fetch.EventRequestPaused) {
	ctx := t.ctx
	if t.holdSend(&ev, false) {
		// A send of a step that needs approval (sendgate.go).
		_, _ = cdp.Call(ctx, t.sess, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAborted})
		t.notify()
		return
	}
	if ev.ResourceType != network.ResourceTypeDocument {
		// Paused only while a step's sends are watched.
		_, _ = cdp.Call(ctx, t.sess, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		return
	}
	u, err := judgeDoc(ctx, judge, &ev, t)
	if err == nil {
		_, _ = cdp.Call(ctx, t.sess, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		return
	}
	t.refused(&ev, u, err)
	// Aborted, not BlockedByClient: an aborted navigation commits no error
	// page, so the tab stays on the page it was on (a blocked one leaves
	// an error page whose session Chromium detaches, seen 2026-11-29).
	_, _ = cdp.Call(ctx, t.sess, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonAborted})
	t.notify()
}

// judgeDoc judges a document request of tab t's page or of one of its
// frames: the URL policy, and for a file: URL whether that page may load
// it. t is nil for a page no session holds, which no file is opened for
// (files.go). It returns the parsed URL and nil to let it go.
func judgeDoc(ctx context.Context, judge func(context.Context, *url.URL) error, ev *fetch.EventRequestPaused, t *tab) (*url.URL, error) {
	u, err := url.Parse(ev.Request.URL)
	if err == nil {
		err = judge(ctx, u)
	}
	if err == nil && strings.EqualFold(u.Scheme, "file") {
		if t == nil {
			err = &policy.BlockedError{URL: ev.Request.URL, Reason: policy.ReasonFileFromWeb}
		} else {
			err = t.fileFrom(ev.Request.URL, ev.FrameID) // files.go
		}
	}
	return u, err
}

// refused remembers a document request of the tab that was refused: a
// subframe's in the page's notices, the page's own for the action that
// caused it. The caller fails the request, then calls t.notify.
func (t *tab) refused(ev *fetch.EventRequestPaused, u *url.URL, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ev.FrameID != "" && ev.FrameID != t.frameID && ev.FrameID != cdp.FrameID(t.id) {
		// A subframe (an ad, a widget): left empty and named in the
		// outline's notices; the page itself opens (issue 13).
		t.refuseFrame(u, err)
	} else {
		t.blocked = blockedErr(ev.Request.URL, err)
	}
}

// blockedErr turns a policy refusal into the calls category.
func blockedErr(u string, err error) error {
	var b *policy.BlockedError
	switch {
	case errors.As(err, &b) && b.Reason == policy.ReasonFile:
		return &calls.Error{Kind: calls.ErrBlockedURL, Msg: "blocked " + u + ": " + err.Error(), Hint: filesHint}
	case errors.As(err, &b) && b.Reason == policy.ReasonFileFromWeb:
		return &calls.Error{Kind: calls.ErrBlockedURL, Msg: "blocked " + u + ": " + err.Error(),
			Hint: "open the file yourself: " + calls.Cmd("open "+u)}
	case errors.Is(err, policy.ErrBlockedURL):
		return &calls.Error{Kind: calls.ErrBlockedURL, Msg: "blocked " + u + ": " + err.Error(),
			Hint: `change the allow and block lists of [policy] in waymark.toml`}
	case errors.Is(err, policy.ErrPrivateAddress):
		return &calls.Error{Kind: calls.ErrBlockedURL, Msg: "blocked " + u + ": " + err.Error(),
			Hint: "change [policy] private_network in waymark.toml, or pass --private-network to " + calls.Cmd("daemon restart") +
				" (a setting of the daemon, which every session shares; the restart closes them)"}
	}
	// The check could not be made (the name did not resolve): the request
	// is not let through unchecked, and the error says what failed.
	return &calls.Error{Kind: calls.ErrNavigation, Msg: "could not open " + u + ": " + err.Error(),
		Hint: "check the address and the network"}
}

// takeBlocked returns and clears the last refusal.
func (t *tab) takeBlocked() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	err := t.blocked
	t.blocked = nil
	return err
}

// notify wakes whoever watches the tab.
func (t *tab) notify() {
	t.mu.Lock()
	defer t.mu.Unlock()
	close(t.changed)
	t.changed = make(chan struct{})
}

// entry returns the id of the tab's current history entry, or -1.
func (t *tab) entry(ctx context.Context) int64 {
	h, err := call(ctx, t, page.GetNavigationHistory, cdp.Empty{})
	if err != nil || int(h.CurrentIndex) >= len(h.Entries) || h.CurrentIndex < 0 {
		return -1
	}
	return h.Entries[h.CurrentIndex].ID
}

// undoBlocked takes the tab back to the history entry it was on before the
// action whose navigation the guard refused (the refusal leaves an error
// page), so the page is where it was.
func (t *tab) undoBlocked(ctx context.Context, before int64) {
	if before < 0 || t.entry(ctx) == before {
		return
	}
	m := t.mark()
	if _, err := call(ctx, t, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: before}); err == nil {
		_ = t.waitNavigated(ctx, m, 5*time.Second)
	}
}

// A tab the page opens (target=_blank, window.open) exists for waymark
// only once Chromium has created it, and its first document request has
// gone out by then: the guard, attached when the session adopts the tab,
// cannot pause it. So an adopted tab is judged where it landed, and one
// that landed somewhere refused is closed. The server may have been
// reached once; what the issue asks (issue 7) is that the page is undone
// and the action says so.

// refuseTab judges where t, a tab being adopted, has landed: its
// document's URL (after redirects, the last; for an error page, the URL
// that failed to load), the extra URLs given (the one the browser lists
// for it while a load is under way), and a later hop the guard already
// refused. A refused tab is closed and dropped from the session, and the
// refusal returned, naming the URL; else nil.
func (s *Session) refuseTab(ctx context.Context, t *tab, also ...string) error {
	if t.closed() {
		return nil // it closed itself (a tab opened for a download does)
	}
	refused := t.takeBlocked()
	if refused == nil {
		// Its first request, refused before the tab was adopted (newtabs.go).
		refused = s.browser.takeRefusedNew(t.id)
	}
	if refused == errHeldNewTab {
		t.close()
		s.drop(t)
		return nil // the action that opened it reports the held send
	}
	if refused == nil {
		// Judged on its own deadline: a tab must not stay unjudged
		// because the action's ctx ended.
		jctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		for _, raw := range append([]string{t.landed()}, also...) {
			if err := s.judgeLanded(jctx, raw); err != nil {
				refused = blockedErr(raw, err)
				break
			}
		}
	}
	if refused == nil {
		return nil
	}
	s.browser.log.Debug("closed a new tab on a refused URL", "session", s.name, "target", string(t.id), "err", refused)
	t.close()
	s.drop(t)
	var ce *calls.Error
	if errors.As(refused, &ce) {
		ce.Msg = "closed the new tab: " + ce.Msg
	}
	return refused
}

// judgeLanded judges one URL a tab landed on. An empty URL and Chromium's
// own error page (whose failed URL is judged instead) are nothing to judge.
func (s *Session) judgeLanded(ctx context.Context, raw string) error {
	if raw == "" || strings.HasPrefix(raw, "chrome-error:") {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return &policy.BlockedError{URL: raw, Reason: policy.ReasonBadURL}
	}
	return s.browser.judge(ctx, u)
}

// frameRefusal is a subframe the guard refused on the current page.
type frameRefusal struct {
	host, why string
}

// refuseFrame remembers a refused subframe, once per host and reason.
// t.mu is held.
func (t *tab) refuseFrame(u *url.URL, err error) {
	host := ""
	if u != nil {
		host = u.Hostname()
	}
	why := "unreachable"
	switch {
	case errors.Is(err, policy.ErrBlockedURL):
		why = "policy"
	case errors.Is(err, policy.ErrPrivateAddress):
		why = "private network"
	}
	f := frameRefusal{host: host, why: why}
	if !slices.Contains(t.refusedFrames, f) {
		t.refusedFrames = append(t.refusedFrames, f)
	}
}

// frameNotices are the notices of the subframes refused on the page.
// t.mu is held.
func (t *tab) frameNotices() []calls.Notice {
	var out []calls.Notice
	for _, f := range t.refusedFrames {
		out = append(out, calls.Notice{Kind: calls.NoticeFrameRefused, Message: fmt.Sprintf("frame refused: %s (%s); it is left empty", f.host, f.why),
			Detail: map[string]string{"host": f.host, "reason": f.why}})
	}
	return out
}
