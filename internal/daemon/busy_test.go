package daemon_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/daemon"
)

// busyHandler is busy until told otherwise, like a batch with rows left.
type busyHandler struct {
	fakeHandler
	busy atomic.Bool
}

func (h *busyHandler) Busy() bool { return h.busy.Load() }

// TestBusyKeepsTheDaemonUp: with no client, a busy handler (a batch under
// way) keeps the server past its idle time; once it is not busy the
// server stops.
func TestBusyKeepsTheDaemonUp(t *testing.T) {
	h := &busyHandler{fakeHandler: fakeHandler{fn: echo}}
	h.busy.Store(true)
	r := start(t, daemon.Options{Handler: h, IdleTimeout: 100 * time.Millisecond})
	select {
	case <-r.done:
		t.Fatal("a busy server stopped for being idle")
	case <-time.After(600 * time.Millisecond):
	}
	h.busy.Store(false)
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop once idle")
	}
}
