package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/rpc"
)

func params(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBrowserDeathIsReportedThenReplaced(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<title>Alive</title><p>alive</p>"))
	}))
	t.Cleanup(srv.Close) // after the harness closes the browser
	// Its own browser: it kills it, and sees the manager start another.
	h := newOwnHarness(t, 60*time.Second)
	ctx, m := h.ctx, h.m

	for _, name := range []string{"a", "b"} {
		if _, err := m.Handle(ctx, name, calls.MethodOpen, params(t, calls.OpenRequest{URL: srv.URL})); err != nil {
			t.Fatal(err)
		}
	}
	b := m.current()
	pid := b.PID()
	if pid == 0 {
		t.Fatal("no browser pid")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Wait until the connection notices; the browser's end is an event, not
	// a guess: its Gone channel closes.
	select {
	case <-b.Gone():
	case <-ctx.Done():
		t.Fatal("the browser's death went unnoticed")
	}
	// Each session the browser took with it is told, once; a session it
	// never held is not.
	_, err := m.Handle(ctx, "a", calls.MethodOpen, params(t, calls.OpenRequest{URL: srv.URL}))
	if !errors.Is(err, calls.ErrBrowserGone) {
		t.Fatalf("the call after the death: %v, want browser gone", err)
	}
	if _, err := m.Handle(ctx, "c", calls.MethodGet, params(t, calls.GetRequest{What: "url"})); err != nil {
		t.Fatalf("a session the dead browser never held: %v", err)
	}
	if _, err := m.Handle(ctx, "b", calls.MethodSnapshot, params(t, calls.SnapshotRequest{})); !errors.Is(err, calls.ErrBrowserGone) {
		t.Fatalf("the other session's first call after the death: %v, want browser gone", err)
	}
	if _, err := m.Handle(ctx, "b", calls.MethodGet, params(t, calls.GetRequest{What: "url"})); err != nil {
		t.Fatalf("b after its report: %v", err)
	}
	for _, name := range []string{"b", "c"} {
		if _, err := m.Handle(ctx, name, rpc.MethodSessionClose, nil); err != nil {
			t.Fatalf("closing %s: %v", name, err)
		}
	}
	res, err := m.Handle(ctx, "a", calls.MethodOpen, params(t, calls.OpenRequest{URL: srv.URL}))
	if err != nil {
		t.Fatalf("the call after the report: %v", err)
	}
	if info := res.(*calls.PageInfo); info.Title != "Alive" {
		t.Fatalf("page after recovery: %+v", info)
	}
	if m.current().PID() == pid {
		t.Fatal("the dead browser is still in use")
	}
	list, err := m.Handle(ctx, "", rpc.MethodSessionList, nil)
	if err != nil || len(list.(rpc.SessionList).Sessions) != 1 {
		t.Fatalf("sessions after recovery: %+v %v", list, err)
	}
}

func TestUnknownMethodAndBadParams(t *testing.T) {
	m := New(driver.Options{})
	ctx := context.Background()
	if _, err := m.Handle(ctx, "a", "fly", nil); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("unknown method: %v", err)
	}
	// Session calls that need no browser do not start one.
	if _, err := m.Handle(ctx, "a", rpc.MethodSessionList, nil); err != nil {
		t.Errorf("session list without a browser: %v", err)
	}
	if m.current() != nil {
		t.Error("a session list started a browser")
	}
}

func TestDownloadsCall(t *testing.T) {
	t.Parallel()
	h := newHarness(t, 60*time.Second)
	ctx, m := h.ctx, h.m
	res, err := m.Handle(ctx, "downloads-a", calls.MethodDownloads, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil || string(b) != `{"downloads":[]}` {
		t.Fatalf("downloads of a new session: %s %v", b, err)
	}
	// A batch worker's session is marked as one in the list (session
	// list leaves it out of the person's); the person's is not.
	worker := rpc.WorkerSession("downloads-vm", 0, 3)
	if _, err := m.Handle(ctx, worker, calls.MethodDownloads, nil); err != nil {
		t.Fatal(err)
	}
	list, err := m.Handle(ctx, "", rpc.MethodSessionList, nil)
	if err != nil {
		t.Fatal(err)
	}
	marked := map[string]bool{}
	for _, s := range list.(rpc.SessionList).Sessions {
		marked[s.Name] = s.Batch
	}
	if len(marked) != 2 || marked["downloads-a"] || !marked[worker] {
		t.Fatalf("sessions: %+v", list)
	}
}
