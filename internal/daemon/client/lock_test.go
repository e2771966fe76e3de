package client

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestLockFileContends: while one client holds the start lock a second
// waits (and gives up when its context ends), and takes it once the first
// lets go. On Windows the old lockFile took no lock, so both started a
// daemon.
func TestLockFileContends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "start.lock")
	unlock, err := lockFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if u, err := lockFile(short, path); !errors.Is(err, context.DeadlineExceeded) {
		if err == nil {
			u()
		}
		t.Fatalf("second locker while the first holds it: %v, want the context's deadline", err)
	}
	got := make(chan error, 1)
	go func() {
		u, err := lockFile(context.Background(), path)
		if err == nil {
			u()
		}
		got <- err
	}()
	unlock()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("second locker after the first let go: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("second locker still waits after the first let go")
	}
}
