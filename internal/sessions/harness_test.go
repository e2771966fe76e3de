package sessions

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// harness is a test's Manager over the real browser, called as the
// daemon's handler is called by the CLI's commands: the setup every
// recording test shares.
type harness struct {
	t   *testing.T
	ctx context.Context // the test's deadline for every call
	m   *Manager
}

// newHarness gives the test a Manager over the package's one shared
// browser (NewShared over drivertest.Driver; the test skips, or fails
// under WAYMARK_REQUIRE_BROWSER=1, when there is no Chromium) whose calls
// must end within d. It is closed when the test ends, with every session
// it opened, before anything the test registered with t.Cleanup earlier
// (its page server). Each test names its sessions apart from every other
// test's: a name another test's manager holds is refused, never shared.
func newHarness(t *testing.T, d time.Duration) *harness {
	t.Helper()
	b := drivertest.Driver(t)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	m := NewShared(b)
	t.Cleanup(func() {
		m.Close()
		cancel()
	})
	return &harness{t: t, ctx: ctx, m: m}
}

// newOwnHarness is newHarness with a Chromium of the test's own that the
// Manager starts and owns (New), as the daemon's does: for a test of
// what a manager does with its browser (kills it, replaces it), which
// the package's shared browser must not suffer.
func newOwnHarness(t *testing.T, d time.Duration) *harness {
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

// session is the driver session name in the manager's browser, for a
// test that drives it directly (a replay, a pilot): opened as the
// handler opens one, so that in the shared browser the name is this
// manager's (a name another test holds fails the test) and the session
// closes with the manager.
func (h *harness) session(name string) *driver.Session {
	h.t.Helper()
	b, err := h.m.browserFor(h.ctx, name)
	if err != nil {
		h.t.Fatal(err)
	}
	s, err := h.m.session(h.ctx, b, name)
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

// closeSession closes the manager's session name, as session close does.
func (h *harness) closeSession(name string) {
	h.t.Helper()
	if _, err := h.m.Handle(h.ctx, name, rpc.MethodSessionClose, nil); err != nil {
		h.t.Errorf("close session %s: %v", name, err)
	}
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
