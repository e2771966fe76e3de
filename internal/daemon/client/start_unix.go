//go:build unix

package client

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// detached puts the daemon in a session of its own, so the terminal that
// started it can close without taking it along.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// lockFile takes an exclusive flock on path, polling until ctx is done. The
// file stays: removing a lock file races with the next locker.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, err
		}
		if !sleep(ctx, 10*time.Millisecond) {
			f.Close()
			return nil, ctx.Err()
		}
	}
}
