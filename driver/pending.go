package driver

import (
	"context"
	"errors"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/timing"
)

// An action answers as soon as what it did is known: whether it navigated
// (its navigation committed), opened a tab, opened a dialog, or only set
// requests going. What is left of its settle (the new page's load, the
// requests' end and the quiet after them, the work the page then queues)
// goes on in the background as the tab's pending settle, while the agent
// reads the answer and starts its next command; every command on the tab
// waits for it first (enter), so a look after an action still reads the
// page as the action left it, never half drawn. A pending settle belongs
// to its tab: commands on another tab or session never wait for it.
//
// What the background wait finds wrong is told by the next command on the
// tab, once: a load that did not end in time, or a navigation the guard
// refused (the tab is taken back first, as the action would have).

// pendingSettle is the rest of an action's settle, running.
type pendingSettle struct {
	done chan struct{}
	err  error // set before done is closed
}

// settleLater runs the rest of an action's settle (settleUntil, from the
// point where it returned early) in the background as the tab's pending
// settle. entry is the history entry before the action, for a refused
// navigation to go back to.
//
// The grace of p, if any, is waited for there (a click on what cannot start
// a download left it to the background: graceLater); an action that
// answered early after waiting it passes none.
func (t *tab) settleLater(before mark, p pace, sawRequests bool, entry int64) {
	ps := &pendingSettle{done: make(chan struct{})}
	t.mu.Lock()
	t.pending = ps
	t.mu.Unlock()
	// The tab's context: the wait outlives the action's call, and ends
	// with the tab. Capped: a load that never ends is told, not waited for.
	ctx, cancel := context.WithTimeout(t.ctx, settleLoad+settleRequests)
	go func() {
		defer close(ps.done)
		defer cancel()
		defer timing.Span("pending settle")()
		_, _, err := t.settleUntil(ctx, before, p, false, sawRequests)
		if blocked := t.takeBlocked(); blocked != nil {
			t.undoBlocked(ctx, entry)
			err = blocked
		}
		if err != nil && (t.closed() || errors.Is(err, context.Canceled)) {
			err = nil // the tab closed: nothing is left to tell about it
		}
		if errors.Is(err, context.DeadlineExceeded) {
			err = calls.Errorf(calls.ErrTimeout, "the page may still be loading; run "+calls.Cmd("wait --load")+" or take a snapshot",
				"the page the last action left did not settle within %s", settleLoad+settleRequests)
		}
		ps.err = err
	}()
}

// graceLater says the action under way pressed something that cannot
// start a download (not a link, not a form's submit control): its click
// answers without the grace settle waits for one (a download is the
// browser's to announce, unseen by the page), which is left to the tab's
// pending settle. A download such a press starts anyway (a script's) is
// told by the next look, as one that begins between commands is.
func (t *tab) graceLater() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.deferGrace = true
}

// takeGraceLater returns and clears what graceLater set.
func (t *tab) takeGraceLater() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	d := t.deferGrace
	t.deferGrace = false
	return d
}

// awaitPending waits for the tab's pending settle, if any, and returns
// what it found wrong; either way it is then gone.
func (t *tab) awaitPending(ctx context.Context) error {
	t.mu.Lock()
	ps := t.pending
	t.mu.Unlock()
	if ps == nil {
		return nil
	}
	endSpan := timing.Span("await pending")
	select {
	case <-ps.done:
	case <-ctx.Done():
		endSpan()
		return ctx.Err() // left pending: the next command waits again
	case <-t.gone:
	}
	endSpan()
	t.mu.Lock()
	if t.pending == ps {
		t.pending = nil
	}
	t.mu.Unlock()
	select {
	case <-ps.done:
		if ps.err != nil {
			return laterErr(ps.err)
		}
	default:
	}
	return nil
}

// laterErr says of an error the pending settle found that it comes from
// the last action, not from the command that tells it.
func laterErr(err error) error {
	var ce *calls.Error
	if errors.As(err, &ce) {
		c := *ce
		c.Msg = "after the last action: " + c.Msg
		return &c
	}
	return fmt.Errorf("after the last action: %w", err)
}

// isLoading reports whether the tab's main frame is loading a document.
func (t *tab) isLoading() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.loading
}

// settledLogs waits, as a read of what the pages logged or downloaded does,
// for the current tab's pending settle to end, leaving what it found wrong
// to the next command on the tab: the requests the last action set going
// are then listed answered, as they were when actions waited for them.
func (s *Session) settledLogs(ctx context.Context) {
	t := s.currentTab()
	if t == nil {
		return
	}
	t.mu.Lock()
	ps := t.pending
	t.mu.Unlock()
	if ps == nil {
		return
	}
	select {
	case <-ps.done:
	case <-t.gone:
	case <-ctx.Done():
	}
}
