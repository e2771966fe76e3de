package batch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/waymark-dev/waymark/calls"
)

// lockDir takes the store folder for this process: two servers on one
// store would each take the other's files for their own (a daemon started
// while the last one still closes). It waits up to wait for a holder to
// let go. gofrs/flock locks on Windows too (LockFileEx), a release target
// whose store was unlocked when this was syscall.Flock behind a unix tag.
func lockDir(dir string, wait time.Duration) (func(), error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("the batch store: %w", err)
	}
	l := flock.New(filepath.Join(dir, "lock"), flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o600))
	ok, err := l.TryLock()
	if !ok && err == nil && wait > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		ok, err = l.TryLockContext(ctx, 50*time.Millisecond)
		if errors.Is(err, context.DeadlineExceeded) {
			err = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the batch store's lock: %w", err)
	}
	if !ok {
		return nil, calls.Errorf(calls.ErrUnavailable, "another daemon holds it; stop it ("+calls.Cmd("daemon stop")+") and try again",
			"the batch store %s is in use", dir)
	}
	return func() { _ = l.Unlock() }, nil
}
