package batch

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/adversarial"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// lateShop's "Continue" arms a POST to /pay that goes when the page is
// told "go" (the test's cue, standing for the handler's timer firing
// after the click's step); the title then says how it ended.
const lateShop = `<!doctype html><title>Shop</title><p>Your basket</p>
<button type=button id=b onclick="document.addEventListener('go',()=>fetch('/pay',{method:'POST',body:'card=4242'}).then(()=>{document.title='sent'},()=>{document.title='stopped'}),{once:true})">Continue</button>`

// TestRowsLateSendNeedsApproval: rows of a routine whose click's handler
// sends after the step, with submits "ask". The send is stopped at the
// driver's gate in every row, nothing reaches the server, and each row
// fails as needs-approval (it ended "ok" before, its order never placed).
// Counted at the server.
func TestRowsLateSendNeedsApproval(t *testing.T) {
	t.Parallel()
	srv := adversarial.NewServer(t, map[string]string{"/": lateShop})
	m := browserManager(t)
	e, _, _ := testEngine(t, EngineOptions{})
	rt := fmt.Sprintf(`{"format": "waymark.routine/1", "name": "late", "version": 1, "steps": [
  {"id": "open", "kind": "goto", "url": %q, "landed": {"path": "/"}},
  {"id": "continue", "kind": "act", "op": "click",
   "target": {"locator": "role=button[name=\"Continue\"]", "fingerprint": {"role": "button", "name": "continue"}}}]}`, srv.URL("/"))
	// The worker's replay, with the cue given after the row's click: its
	// session is the row's (the journal's), as every step's is.
	cue := func(ctx context.Context, d calls.Session, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		next := o.Progress
		o.Progress = func(ev replay.StepEvent) {
			if next != nil {
				next(ev)
			}
			if ev.Step.Op != calls.ActClick || ev.Step.Status != "ok" {
				return
			}
			if _, err := d.Eval(ctx, calls.EvalRequest{Expression: `document.dispatchEvent(new Event('go')), true`, MainWorld: true}); err != nil {
				t.Error(err)
				return
			}
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				res, err := d.Eval(ctx, calls.EvalRequest{Expression: `document.title === 'sent' || document.title === 'stopped'`, MainWorld: true})
				if err == nil && string(res.Value) == "true" {
					return
				}
				if time.Now().After(deadline) {
					t.Errorf("the page's send never ended: %v", err)
					return
				}
			}
		}
		return replay.Run(ctx, d, r, o)
	}
	startWorker(t, e, "late", []Endpoint{{Name: "local", Caller: m, Max: 2}}, WorkerOptions{Parallel: 2, Replay: cue})
	const rows = 2
	spec, err := e.Submit(context.Background(), Spec{Routine: []byte(rt), Submits: "ask"}, rowsOf(rows, nil))
	if err != nil {
		t.Fatal(err)
	}
	st := waitDone(t, e, spec.ID, 2*time.Minute)
	if n := srv.Count("POST", "/pay"); n != 0 {
		t.Fatalf("the late send reached the server %d times", n)
	}
	res, err := e.Results(context.Background(), spec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != rows || len(res) != rows {
		t.Fatalf("status %+v, want %d failed rows: %+v", st, rows, res)
	}
	for _, r := range res {
		if r.Status != StatusFailed || r.Cause != string(replay.CauseNeedsApproval) {
			t.Errorf("row %d: %s %s %q, want failed as needs-approval", r.N, r.Status, r.Cause, r.Message)
		}
	}
}
