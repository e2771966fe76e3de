package driver

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// CrashTab crashes the renderer of the session's current tab (Page.crash),
// as a page that runs out of memory would, and waits until the tab knows.
func CrashTab(ctx context.Context, s *Session) error {
	t, err := s.current(ctx)
	if err != nil {
		return err
	}
	go func() { _, _ = cdp.Call(ctx, t.sess, page.Crash, cdp.Empty{}) }() // no answer comes
	for {
		if crashed, _ := t.health(); crashed {
			return nil
		}
		select {
		case <-t.watch():
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// WorldPrepared reports whether the isolated world of the current page's
// main frame was made (or is being made) before any call asked for it.
func WorldPrepared(ctx context.Context, s *Session) (bool, error) {
	t, err := s.current(ctx)
	if err != nil {
		return false, err
	}
	t.mu.Lock()
	w, ok := t.isolated[t.frameID]
	t.mu.Unlock()
	if !ok {
		return false, nil
	}
	select {
	case <-w.ready:
	case <-ctx.Done():
		return false, ctx.Err()
	}
	return w.err == nil && w.id != 0, nil
}

// SetProbeTimeout sets how long a probe waits for a renderer to answer
// (health.go) and returns what puts the old value back. It is a plain
// variable: call it from TestMain, or from a test that runs alone (not
// parallel), before its session opens and with the restore as its first
// cleanup.
func SetProbeTimeout(d time.Duration) (restore func()) {
	old := probeTimeout
	probeTimeout = d
	return func() { probeTimeout = old }
}

// ResolveRef resolves ref on the session's current tab as an action does
// before it acts (findRef), without the call's wrapper (health.go): what
// the resolver itself says of a ref whose node it cannot reach.
func ResolveRef(ctx context.Context, s *Session, ref string) error {
	t := s.currentTab()
	if t == nil {
		return errors.New("no tab")
	}
	_, err := s.findRef(ctx, t, ref)
	return err
}

// CountPauses counts, from now until the returned func is called, the
// Fetch pauses of requests whose URL contains match, by the browser target
// and by the session's current tab. A pause is counted in chromedp's read
// loop, before any answer to it is sent: once a document has loaded, its
// pauses are counted.
func CountPauses(ctx context.Context, s *Session, match string) (func() map[string]int, error) {
	t, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	on, n := true, map[string]int{}
	count := func(by string) func(any) {
		return func(ev any) {
			if p, ok := ev.(*fetch.EventRequestPaused); ok && p.Request != nil && strings.Contains(p.Request.URL, match) {
				mu.Lock()
				if on {
					n[by]++
				}
				mu.Unlock()
			}
		}
	}
	if err := chromedp.ListenBrowser(s.browser.ctx, count("browser")); err != nil {
		return nil, err
	}
	if err := chromedp.Listen(t.ctx, count("tab")); err != nil {
		return nil, err
	}
	return func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		on = false
		return n
	}, nil
}

// SetNavQuiet sets how long a navigation holds the probe back
// (health.go), as SetProbeTimeout does the probe's wait.
func SetNavQuiet(d time.Duration) (restore func()) {
	old := navQuiet
	navQuiet = d
	return func() { navQuiet = old }
}

// Watchers is how many watches keep the browser target's Fetch patterns
// wide (watchAll): 0 once no step's sends, nor any after-watch, are on.
func Watchers(b *Browser) int {
	b.patternsMu.Lock()
	defer b.patternsMu.Unlock()
	return b.watchers
}
