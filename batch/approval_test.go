package batch

import (
	"context"
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
