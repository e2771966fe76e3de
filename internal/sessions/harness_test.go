package sessions

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// harness is a test's Manager over the real browser, called as the
// daemon's handler is called by the CLI's commands: the setup every
// recording test shares.
type harness struct {
	t   *testing.T
	ctx context.Context // the test's deadline for every call
	m   *Manager
}

// newHarness starts a Manager over this machine's Chromium (the test
// skips, or fails under WAYMARK_REQUIRE_BROWSER=1, when there is none)
// whose calls must end within d; it is closed when the test ends, before
// anything the test registered with t.Cleanup earlier (its page server).
func newHarness(t *testing.T, d time.Duration) *harness {
	t.Helper()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	m := New(driver.Options{ExecPath: path, Args: browsertest.GuardArgs})
	t.Cleanup(func() {
		m.Close()
		cancel()
	})
	return &harness{t: t, ctx: ctx, m: m}
}

// call sends one request to the named session.
func (h *harness) call(session, method string, req any) (any, error) {
	return h.m.Handle(h.ctx, session, method, params(h.t, req))
}

// do is call for a request that must succeed.
func (h *harness) do(session, method string, req any) any {
	h.t.Helper()
	res, err := h.call(session, method, req)
	if err != nil {
		h.t.Fatalf("%s %+v: %v", method, req, err)
	}
	return res
}

// in is do bound to one session, as a test's handle.
func (h *harness) in(session string) func(method string, req any) any {
	return func(method string, req any) any {
		h.t.Helper()
		return h.do(session, method, req)
	}
}

// ref is the ref ("@eN") of the n-th line (from 0) of the session's whole
// interactive outline that holds every one of words, as an agent reads it
// from waymark snapshot -i --full.
func (h *harness) ref(session string, n int, words ...string) string {
	h.t.Helper()
	snap := h.do(session, calls.MethodSnapshot, calls.SnapshotRequest{Interactive: true, Full: true}).(*calls.Snapshot)
	for _, line := range strings.Split(snap.Text, "\n") {
		all := true
		for _, w := range words {
			all = all && strings.Contains(line, w)
		}
		if i := strings.Index(line, "[ref="); all && i >= 0 {
			if n == 0 {
				rest := line[i+5:]
				return "@" + rest[:strings.IndexByte(rest, ']')]
			}
			n--
		}
	}
	h.t.Fatalf("no line with a ref holds %q in:\n%s", words, snap.Text)
	return ""
}
