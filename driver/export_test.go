package driver

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
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
