//go:build unix

package batch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// lockDir takes the store folder for this process: two servers on one
// store would each take the other's files for their own (a daemon started
// while the last one still closes). It waits up to wait for a holder to
// let go.
func lockDir(dir string, wait time.Duration) (func(), error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("the batch store: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("the batch store's lock: %w", err)
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			f.Close()
			return nil, calls.Errorf(calls.ErrUnavailable, "another daemon holds it; stop it ("+calls.Cmd("daemon stop")+") and try again",
				"the batch store %s is in use: %v", dir, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
