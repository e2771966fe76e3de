package client

import (
	"context"
	"os"
	"time"

	"github.com/gofrs/flock"
)

// lockFile takes an exclusive lock on path, polling until ctx is done. The
// file stays: removing a lock file races with the next locker.
// gofrs/flock locks on Windows too, where two clients starting at once
// each started a daemon of their own when this was syscall.Flock behind a
// unix tag.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	l := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR), flock.SetPermissions(0o600))
	ok, err := l.TryLockContext(ctx, 10*time.Millisecond)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ctx.Err()
	}
	return func() { _ = l.Unlock() }, nil
}
