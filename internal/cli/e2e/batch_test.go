package e2e

import (
	"testing"
	"time"

	"github.com/waymark-dev/waymark/batch"
	"github.com/waymark-dev/waymark/internal/batchd"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	batchcmd "github.com/waymark-dev/waymark/internal/cli/cmd/batch"
)

// batchReply answers the batch calls like a daemon whose batch of one row
// ended with status (ok, or failed), and the page calls like clitest.PageReply.
func batchReply(status string) func(method string, params any) (any, error) {
	st := batch.Status{ID: "b1", Name: "r.json", State: batch.StateDone, Total: 1, Done: 1, Created: time.Now()}
	if status == batch.StatusOK {
		st.OK = 1
	} else {
		st.Failed = 1
	}
	return func(method string, params any) (any, error) {
		switch method {
		case batchd.MethodSubmit:
			return batch.Status{ID: "b1", State: batch.StateRunning, Total: 1}, nil
		case batchd.MethodStatus:
			if p, _ := params.(batchd.IDParams); p.ID == "" {
				return batchd.StatusList{Batches: []batch.Status{st}}, nil
			}
			return st, nil
		case batchd.MethodCancel:
			return st, nil
		case batchd.MethodResults:
			r := batch.Result{Batch: "b1", N: 1, Status: status, DurMS: 12, Attempts: 1}
			if status != batch.StatusOK {
				r.Cause, r.Message = "verify", "the page did not show Thank you"
			}
			return batchd.ResultsReply{Status: st, Results: []batch.Result{r}, Rev: 1}, nil
		}
		return clitest.PageReply(method, params)
	}
}

func TestRowExit(t *testing.T) {
	for _, c := range []struct {
		r    batch.Result
		want int
	}{
		{batch.Result{Status: batch.StatusOK}, 0},
		{batch.Result{Status: batch.StatusSkipped}, 0},
		{batch.Result{Status: batch.StatusCanceled}, 130},
		{batch.Result{Status: batch.StatusFailed, Cause: "verify"}, 12},
		{batch.Result{Status: batch.StatusFailed, Cause: "replaced"}, 13},
		{batch.Result{Status: batch.StatusFailed, Cause: batch.CauseTimeout}, 1},
		{batch.Result{Status: batch.StatusFailed, Cause: batch.CauseBrowser}, 3},
		{batch.Result{Status: batch.StatusFailed, Cause: batch.CauseInput}, 2},
		{batch.Result{Status: batch.StatusUncertain, Cause: batch.CauseWorker}, 1},
	} {
		if got := batchcmd.RowExit(c.r); got != c.want {
			t.Errorf("%s/%s: exit %d, want %d", c.r.Status, c.r.Cause, got, c.want)
		}
	}
}

func TestProgressBar(t *testing.T) {
	st := batch.Status{Total: 200, Done: 50, OK: 48, Failed: 1, Uncertain: 1, RatePerMin: 120, LeftMS: 75_000}
	got := batchcmd.ProgressBar(st, 20)
	want := "[#####...............] 50/200  ok 48  failed 1  uncertain 1  120 rows/min  1m15s left   "
	if got != want {
		t.Errorf("bar =\n%q\nwant\n%q", got, want)
	}
	line := batchcmd.BatchRowLine(batch.Result{N: 7, Status: batch.StatusUncertain, Cause: batch.CauseWorker, Step: "place", Key: "ann", DurMS: 812, Message: "worker w1 stopped"})
	if line != "row 7     uncertain    812ms  ann  worker at place: worker w1 stopped" {
		t.Errorf("row line = %q", line)
	}
}
