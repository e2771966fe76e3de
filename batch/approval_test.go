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

// TestRowDeliveredTwiceLosesTheJournalRace: a row delivered twice at once
// (its first worker thought dead under load, yet alive) presses in the
// delivery that journals first. The other stops before pressing and
// writes no result of its own: the row ends as the journal says (here,
// with no result from the winner, uncertain), never "failed" with a
// journal error over a press that happened.
func TestRowDeliveredTwiceLosesTheJournalRace(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{AckWait: time.Second})
	f := newFakeCaller()
	ctx := context.Background()
	var once sync.Once
	ids := make(chan string, 1)
	startWorker(t, e, "w1", []Endpoint{{Name: "fake", Caller: f, Max: 1}}, WorkerOptions{Replay: func(ctx context.Context, d calls.Session, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		// The other delivery journals its press first.
		once.Do(func() {
			entry := []byte(`{"attempt":1,"step":"place","control":"button \"Place order\"","worker":"w0"}`)
			if _, err := e.journal.Create(ctx, rowKeyName(<-ids, 1), entry); err != nil {
				t.Error(err)
			}
		})
		return fakeReplay(nil)(ctx, d, r, o)
	}})
	spec, err := e.Submit(ctx, Spec{Routine: testRoutine(t, false), Submits: "allow", Retries: 1}, rowsOf(1, nil))
	if err != nil {
		t.Fatal(err)
	}
	ids <- spec.ID
	st := waitDone(t, e, spec.ID, 30*time.Second)
	res, err := e.Results(ctx, spec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.Uncertain != 1 || len(res) != 1 || res[0].Status != StatusUncertain || f.pressed("row-1") != 0 {
		t.Fatalf("status %+v, results %+v, pressed %d: want one uncertain row, pressed 0 times by the losing delivery", st, res, f.pressed("row-1"))
	}
}
