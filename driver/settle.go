package driver

import (
	"context"
	"time"
)

// mark is what the tab's listener knew just before an action.
type mark struct {
	navSeq int
}

func (t *tab) mark() mark {
	t.mu.Lock()
	defer t.mu.Unlock()
	return mark{navSeq: t.navSeq}
}

// How long settle waits for what an action started.
const (
	settleGrace    = 150 * time.Millisecond // for a navigation or a request to start
	settleRequests = 3 * time.Second        // for fetch/XHR requests to finish
	settleLoad     = 30 * time.Second       // for a navigation to load
)

// settle waits after an action: for a navigation it started, the load; for
// fetch/XHR requests it started, their end (capped); then a quiet DOM.
func (t *tab) settle(ctx context.Context, before mark) error {
	grace := time.NewTimer(settleGrace)
	defer grace.Stop()
	graceC := grace.C // nil once the grace period is over
	var reqDeadline <-chan time.Time
	loadDeadline := time.NewTimer(settleLoad)
	defer loadDeadline.Stop()
	for {
		t.mu.Lock()
		navigated := t.navSeq != before.navSeq
		loading := t.loading
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
		case inflight > 0:
			if reqDeadline == nil {
				reqDeadline = time.After(settleRequests)
			}
		case navigated:
			return t.quiet(ctx)
		default:
			if graceC == nil {
				return t.quiet(ctx)
			}
		}
		select {
		case <-changed:
		case <-graceC:
			graceC = nil
			if !loading && inflight == 0 {
				return t.quiet(ctx)
			}
		case <-reqDeadline:
			return t.quiet(ctx)
		case <-loadDeadline.C:
			return Errorf(ErrTimeout, "the page may still be loading; run waymark wait --load or take a snapshot",
				"the page did not finish loading within %s", settleLoad)
		case <-t.gone:
			return nil // the action closed its own tab
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// quiet waits for the DOM to stop changing (50 ms of stillness, at most 1 s).
func (t *tab) quiet(ctx context.Context) error {
	err := t.evalWorld(ctx, t.sess, t.mainFrame(), jsQuietDOM, nil)
	if err != nil && ctx.Err() == nil {
		return nil // a document that is going away is quiet enough
	}
	return err
}
