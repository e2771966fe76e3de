package batch

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// TestWorkerTrustsApprovalsOnTheSubmittersWord: a worker cannot see the
// routine file nor the person's state folder, so it takes the word of
// the CLI that submitted the batch (Spec.Approved, set from the approval
// authority): the routine's recorded approvals hold for its replays only
// with it.
func TestWorkerTrustsApprovalsOnTheSubmittersWord(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{})
	eps := []Endpoint{{Name: "fake", Caller: newFakeCaller(), Max: 2}}
	ctx := context.Background()
	var mu sync.Mutex
	holds := map[string]bool{}
	startWorker(t, e, "w1", eps, WorkerOptions{Parallel: 2, Replay: func(ctx context.Context, d calls.Session, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		mu.Lock()
		holds[o.Vars["id"]] = o.Approvals.Holds(r)
		mu.Unlock()
		return &replay.Result{Status: replay.StatusOK}, nil
	}})
	for _, approved := range []bool{true, false} {
		rows := rowsOf(1, nil)
		spec, err := e.Submit(ctx, Spec{Routine: testRoutine(t, false), Submits: "ask", Approved: approved}, rows)
		if err != nil {
			t.Fatal(err)
		}
		if st := waitDone(t, e, spec.ID, 30*time.Second); st.OK != 1 {
			t.Fatalf("status = %+v", st)
		}
		mu.Lock()
		got := holds["row-1"]
		mu.Unlock()
		if got != approved {
			t.Errorf("Spec.Approved %v: the approvals hold %v", approved, got)
		}
	}
}

// TestRecordedApprovalJournaled: with submits "ask", a routine whose file
// a person saved presses its recorded submits with the approval the page
// gave (replay's pressApproved: asked first, then pressed with it). That
// press is the row's commit as much as one let through by "allow": the
// row's journal is written before it, so a worker that dies after it
// leaves the row uncertain, never run twice.
func TestRecordedApprovalJournaled(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{})
	f := newFakeCaller()
	ctx := context.Background()
	startWorker(t, e, "w1", []Endpoint{{Name: "fake", Caller: f, Max: 1}}, WorkerOptions{Replay: func(ctx context.Context, d calls.Session, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		req := calls.ActRequest{Kind: "click", Target: "@submit", Value: o.Vars["id"], Submits: o.Submits}
		_, err := d.Act(ctx, req)
		a, ok := calls.ApprovalOf(err)
		if !ok || !o.Approvals.Holds(r) {
			return &replay.Result{Status: replay.StatusStopped, Cause: replay.CauseNeedsApproval, Message: fmt.Sprint(err)}, nil
		}
		req.Approve = &a
		if _, err := d.Act(ctx, req); err != nil {
			return nil, err
		}
		return &replay.Result{Status: replay.StatusOK}, nil
	}})
	spec, err := e.Submit(ctx, Spec{Routine: testRoutine(t, false), Submits: "ask", Approved: true}, rowsOf(1, nil))
	if err != nil {
		t.Fatal(err)
	}
	if st := waitDone(t, e, spec.ID, 30*time.Second); st.OK != 1 || f.pressed("row-1") != 1 {
		t.Fatalf("status %+v, pressed %d", st, f.pressed("row-1"))
	}
	if _, err := e.journal.Get(ctx, rowKeyName(spec.ID, 1)); err != nil {
		t.Errorf("the press of a recorded approval was not journaled: %v", err)
	}
}
