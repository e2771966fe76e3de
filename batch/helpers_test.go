package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// testEngine starts an embedded server in a temporary folder and opens an
// engine over an in-process connection.
func testEngine(t testing.TB, opts EngineOptions) (*Engine, *Server, string) {
	t.Helper()
	dir := t.TempDir()
	srv, err := StartServer(ServerOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e, err := Open(ctx, nc, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e, srv, dir
}

// fakeCaller stands in for a browser: "act" on target "@submit" with
// submits ask needs approval; with the approval it is pressed and counted.
type fakeCaller struct {
	mu       sync.Mutex
	presses  map[string]int // by the row's "id" value typed before
	clears   int
	sessions map[string]bool
}

func newFakeCaller() *fakeCaller {
	return &fakeCaller{presses: map[string]int{}, sessions: map[string]bool{}}
}

func (f *fakeCaller) Call(_ context.Context, session, method string, params, result any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions[session] = true
	switch method {
	case calls.MethodCookies:
		f.clears++
		return nil
	case rpc.MethodSessionClose:
		delete(f.sessions, session)
		return nil
	case calls.MethodAct:
		b, _ := json.Marshal(params)
		var req calls.ActRequest
		_ = json.Unmarshal(b, &req)
		if req.Target != "@submit" {
			return nil
		}
		switch {
		case req.Approve != nil:
			f.presses[req.Value]++
			return nil
		case req.Submits == "ask":
			a, _ := json.Marshal(calls.Approval{Action: "click", Control: `button "Place order"`, Token: "t1"})
			return &calls.Error{Kind: calls.ErrNeedsApproval, Msg: "needs approval", Data: a}
		default:
			f.presses[req.Value]++
			return nil
		}
	}
	return fmt.Errorf("fake: unexpected %s", method)
}

func (f *fakeCaller) pressed(id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.presses[id]
}

// testRoutine has one plain variable "id" and one secret "password".
func testRoutine(t testing.TB, secretVar bool) json.RawMessage {
	t.Helper()
	r := routine.Routine{Format: routine.Format, Name: "fake", Version: 1,
		Variables: []routine.Variable{{Name: "id"}},
		Steps: []routine.Step{{ID: "open", Kind: routine.KindGoto, URL: "http://127.0.0.1:1/"},
			{ID: "place", Kind: routine.KindGoto, URL: "http://127.0.0.1:1/place"}}}
	if secretVar {
		r.Variables = append(r.Variables, routine.Variable{Name: "password", Secret: true})
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fakeReplay presses "@submit" once for the row (with the row's id as
// the value, so the fake counts presses by row), then calls after.
func fakeReplay(after func(ctx context.Context, vars map[string]string) (*replay.Result, error)) func(context.Context, calls.Session, *routine.Routine, replay.Options) (*replay.Result, error) {
	return func(ctx context.Context, d calls.Session, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		if o.Progress != nil {
			o.Progress(replay.StepEvent{N: 1, Of: 2})
		}
		if _, err := d.Act(ctx, calls.ActRequest{Kind: "click", Target: "@submit", Value: o.Vars["id"], Submits: o.Submits}); err != nil {
			return &replay.Result{Status: replay.StatusStopped, Cause: replay.CauseFailed, Message: err.Error()}, nil
		}
		if after != nil {
			return after(ctx, o.Vars)
		}
		return &replay.Result{Status: replay.StatusOK}, nil
	}
}

func rowsOf(n int, extra func(i int, f map[string]json.RawMessage)) []map[string]json.RawMessage {
	out := make([]map[string]json.RawMessage, n)
	for i := range out {
		f := map[string]json.RawMessage{"id": json.RawMessage(fmt.Sprintf(`"row-%d"`, i+1))}
		if extra != nil {
			extra(i, f)
		}
		out[i] = f
	}
	return out
}

// waitDone waits until the batch has every result.
func waitDone(t testing.TB, e *Engine, id string, within time.Duration) *Status {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		st, err := e.Status(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if st.State != StateRunning {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("batch not done after %s: %+v", within, st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (f *fakeCaller) clearCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.clears
}

func (f *fakeCaller) open(session string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sessions[session]
}
