//go:build unix

package routine

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// TestLoadRefusesAFIFO: a named pipe as the routine's path is refused at
// once; reading it would block until something writes to it.
func TestLoadRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	errc := make(chan error, 1)
	go func() { // exits when Load returns; on a blocked Load, when the cleanup writes
		_, err := Load(path)
		errc <- err
	}()
	t.Cleanup(func() { // unblocks a Load that opened the pipe to read
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
	select {
	case err := <-errc:
		if !errors.Is(err, calls.ErrBadInput) || calls.Hint(err) == "" {
			t.Fatalf("Load of a FIFO: %v, want bad_input with a hint", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Load of a FIFO still blocks after 3 s")
	}
}
