package driver

import (
	"context"
	"time"

	"github.com/chromedp/chromedp"
)

// openedPoll is how often awaitOpened looks for the new tab.
const openedPoll = 20 * time.Millisecond

// awaitOpened waits, after an action whose page asked for a new tab or
// window, until that tab can be adopted or has turned into a download.
// The page's request (Page.windowOpen) comes before the browser creates
// the target, and a link to a file with target=_blank opens a tab that
// begins the download and closes again; without this wait the outcome
// could miss both the tab and the download. It gives up after
// settleNavStart: a popup the browser blocked, or one still on its way,
// is left for the next command to find.
func (s *Session) awaitOpened(ctx context.Context, t *tab, dl int) {
	t.mu.Lock()
	wantURL := t.openURL != "" && t.openURL != "about:blank"
	t.mu.Unlock()
	deadline := time.NewTimer(settleNavStart)
	defer deadline.Stop()
	for {
		if s.downloads.Began(dl) || s.openedTabReady(t, wantURL) {
			return
		}
		select {
		case <-time.After(openedPoll):
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// openedTabReady reports whether a tab that t opened is there and not yet
// adopted, and, when it was asked to load a URL, shows that it has left
// about:blank (a download never does: it stays blank and closes).
func (s *Session) openedTabReady(t *tab, wantURL bool) bool {
	infos, err := chromedp.Targets(s.browser.ctx)
	if err != nil {
		return true // the browser is going away; the outcome reports it
	}
	s.mu.Lock()
	known := make(map[string]bool, len(s.tabs))
	for _, k := range s.tabs {
		known[string(k.id)] = true
	}
	s.mu.Unlock()
	for _, info := range infos {
		if info.Type != "page" || info.BrowserContextID != s.bcid || info.OpenerID != t.id || known[string(info.TargetID)] {
			continue
		}
		if !wantURL || (info.URL != "" && info.URL != "about:blank") || s.browser.newRefused(info.TargetID) {
			return true
		}
	}
	return false
}
