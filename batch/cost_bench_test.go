package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// BenchmarkEngineCost measures what the batch engine itself costs a row
// (the queue, the journal, the lease and the result), against the row's
// replay, on the demo shop's five-step add-to-cart routine (issue 32: at
// most 5 %).
//
// Three runs in one benchmark, so their ratios share the machine's state:
//   - loop: the routine replayed row after row in one session, as a
//     program would without the engine; its mean replay time is the row's
//     replay time.
//   - parallel=1 and parallel=4: a batch over the same rows. Each replay's
//     start and end are recorded; between the moment every slot has
//     started a row and the moment the last row starts, the queue is never
//     empty, so a slot not replaying is the engine at work on a row
//     (fetching, journaling, leasing, writing the result). Its time, over
//     the rows, is the engine's cost a row.
//
// Reported for each parallel: engine-ms/row; engine-%-of-loop, of the
// loop's replay time a row (the loop run just before and just after the
// batch, as the machine's load drifts); engine-%-of-own, of the batch's
// own mean replay time, measured at the same moments as the engine's (at
// parallel 4 on two cores both are slowed by the four rows sharing them).
//
//	go test ./batch -run '^$' -bench EngineCost -benchtime 1x
func BenchmarkEngineCost(b *testing.B) {
	e, _, _ := testEngine(b, EngineOptions{})
	m := ownBrowserManager(b) // its numbers compare with earlier runs, each with a browser of its own
	_, base := demoSite(b)
	rt := recordAddToCart(b, m, base)
	_ = rpc.Daemon{Caller: m}.CloseAllSessions(context.Background()) // the recording's
	r, err := routine.Parse(rt)
	if err != nil {
		b.Fatal(err)
	}
	rowVars := func(i int) map[string]string {
		return map[string]string{"id": fmt.Sprint(i%24 + 1), "qty": "1"}
	}
	const loopRows = 6
	// loop replays the routine row after row in one session, no engine,
	// and returns its mean time a row (the first row, which warms the
	// session as a batch's first lease does, is not counted).
	loop := func() time.Duration {
		ctx := context.Background()
		s := calls.Remote{Caller: m, Session: "cost-loop"}
		defer func() { _ = rpc.Daemon{Caller: m, Session: "cost-loop"}.CloseSession(ctx) }()
		var sum time.Duration
		for i := range loopRows + 1 {
			start := time.Now()
			res, err := replay.Run(ctx, s, r, replay.Options{Vars: rowVars(i), Submits: replay.SubmitsAllow, KeepHeals: replay.KeepNever, NoHand: true})
			if err != nil || res.Status != replay.StatusOK {
				b.Fatalf("loop row %d: %v %+v", i, err, res)
			}
			if i > 0 {
				sum += time.Since(start)
			}
		}
		return sum / loopRows
	}
	ms := func(d float64) float64 { return d / float64(time.Millisecond) }
	for range b.N {
		for _, par := range []int{1, 4} {
			// The loop just before and just after the batch: the machine's
			// load drifts, and the batch is compared with their mean.
			before := loop()
			engineMS, batchReplay := engineCost(b, e, m, rt, par, 10*par+2)
			perRow := ms(float64(before+loop()) / 2)
			b.ReportMetric(engineMS, fmt.Sprintf("p%d-engine-ms/row", par))
			b.ReportMetric(100*engineMS/perRow, fmt.Sprintf("p%d-engine-%%-of-loop", par))
			b.ReportMetric(100*engineMS/ms(batchReplay), fmt.Sprintf("p%d-engine-%%-of-own", par))
			b.Logf("parallel %d: engine %.1f ms a row = %.1f %% of the loop's replay (%.0f ms, before and after), %.1f %% of the batch's own (%.0f ms: %.2f× the loop's)",
				par, engineMS, 100*engineMS/perRow, perRow, 100*engineMS/ms(batchReplay), ms(batchReplay), ms(batchReplay)/perRow)
		}
	}
}

// span is one replay's start and end.
type span struct{ start, end time.Time }

// engineCost runs a batch of rows at parallel par and returns the engine's
// time a row in the steady window (ms) and the batch's mean replay time.
func engineCost(b *testing.B, e *Engine, m calls.Caller, rt json.RawMessage, par, rows int) (float64, float64) {
	var mu sync.Mutex
	var spans []span
	timed := func(ctx context.Context, d calls.Session, r *routine.Routine, opts replay.Options) (*replay.Result, error) {
		start := time.Now()
		res, err := replay.Run(ctx, d, r, opts)
		// The last step's settle is left to the session's next command
		// (driver/pending.go): in the loop the next row's first step
		// waits for it; here it is the row's too, not the lease's.
		_, _ = d.Tab(ctx, calls.TabRequest{Op: "list"})
		mu.Lock()
		spans = append(spans, span{start, time.Now()})
		mu.Unlock()
		return res, err
	}
	stop := startWorker(b, e, fmt.Sprintf("cost-%d", par), []Endpoint{{Name: "local", Caller: m, Max: par}}, WorkerOptions{Parallel: par, Replay: timed})
	defer stop()
	spec, err := e.Submit(context.Background(), Spec{Routine: rt, Submits: "allow"}, rowsOf(rows, func(i int, f map[string]json.RawMessage) {
		f["id"] = json.RawMessage(fmt.Sprintf(`"%d"`, i%24+1))
		f["qty"] = json.RawMessage(`"1"`)
	}))
	if err != nil {
		b.Fatal(err)
	}
	if st := waitDone(b, e, spec.ID, 10*time.Minute); st.OK != rows {
		b.Fatalf("status %+v", st)
	}
	mu.Lock()
	defer mu.Unlock()
	return steadyIdle(spans, par)
}

// steadyIdle is the slots' time not spent replaying, a row, between the
// par-th start and the last start (ms), and the mean replay time of the
// rows past the first par (warm sessions), as a duration in ns.
func steadyIdle(spans []span, par int) (float64, float64) {
	slices.SortFunc(spans, func(a, b span) int { return a.start.Compare(b.start) })
	t0, t1 := spans[par-1].start, spans[len(spans)-1].start
	var busy time.Duration
	var mean time.Duration
	for _, s := range spans[par:] {
		mean += s.end.Sub(s.start)
	}
	mean /= time.Duration(len(spans) - par)
	for _, s := range spans {
		from, to := s.start, s.end
		if from.Before(t0) {
			from = t0
		}
		if to.After(t1) {
			to = t1
		}
		if to.After(from) {
			busy += to.Sub(from)
		}
	}
	idle := time.Duration(par)*t1.Sub(t0) - busy
	inWindow := len(spans) - par // rows started in (t0, t1]
	return float64(idle.Microseconds()) / 1000 / float64(inWindow), float64(mean)
}
