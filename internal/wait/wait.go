// Package wait holds the two small waits the rest of waymark shares: a
// sleep that ends with its context, and a wait for a channel to close with
// a deadline.
//
// It exists because each was written several times over, each copy with a
// slightly different contract (one returned an error, one a bool, one
// nothing; one returned at once for a zero duration, the others raced a
// zero timer against a done context). One home gives every caller the same
// answer at the edges. It imports only the standard library, so any
// package may use it, the thin front included, without growing what the
// front links.
package wait

import (
	"context"
	"time"
)

// Sleep waits d, or until ctx is done, whichever comes first, and returns
// ctx.Err() as it stands when it returns: nil means d passed with ctx still
// live; an error means ctx ended before the wait was over, or had already
// ended when Sleep was called. A non-positive d does not wait: it returns
// ctx.Err() at once, as does a ctx already done, whatever d. The timer is
// stopped when ctx ends first, so a canceled Sleep leaves nothing running.
func Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil || d <= 0 {
		return err
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return ctx.Err()
}

// Closed waits at most d for done to close (or to yield a value) and
// reports whether it did. A done already closed reports true at once,
// whatever d; a non-positive d does not wait, and reports whether done is
// closed now. It takes no context: d is its callers' only bound (a daemon
// draining its requests after its own context ended, a look at whether the
// browser's connection closed).
func Closed(done <-chan struct{}, d time.Duration) bool {
	select {
	case <-done:
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}
