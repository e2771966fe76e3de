package cli

import (
	"time"

	"github.com/waymark-dev/waymark/batch"
	"github.com/waymark-dev/waymark/internal/batchd"
)

// batchReply answers the batch calls like a daemon whose batch of one row
// ended with status (ok, or failed), and the page calls like pageReply.
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
		return pageReply(method, params)
	}
}
