package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/wait"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// startWorker runs a worker until the test ends (or stop is called).
func startWorker(t testing.TB, e *Engine, name string, eps []Endpoint, opts WorkerOptions) (stop func()) {
	t.Helper()
	pool, err := e.NewPool(name, eps)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	opts.Name, opts.Pool = name, pool
	done := make(chan struct{})
	go func() { // exits when cancel is called
		defer close(done)
		_ = e.Work(ctx, opts)
	}()
	var once bool
	stop = func() {
		if once {
			return
		}
		once = true
		cancel()
		<-done
		pool.Close(context.Background())
	}
	t.Cleanup(stop)
	return stop
}

func TestEveryRowOnceWithTwoWorkers(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{})
	f := newFakeCaller()
	eps := []Endpoint{{Name: "fake", Caller: f, Max: 8}}
	ctx := context.Background()
	spec, err := e.Submit(ctx, Spec{Routine: testRoutine(t, false), Submits: "allow"}, rowsOf(60, nil))
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, e, "w1", eps, WorkerOptions{Parallel: 4, Replay: fakeReplay(nil)})
	startWorker(t, e, "w2", eps, WorkerOptions{Parallel: 4, Replay: fakeReplay(nil)})
	st := waitDone(t, e, spec.ID, 30*time.Second)
	if st.State != StateDone || st.OK != 60 || st.Done != 60 {
		t.Fatalf("status = %+v", st)
	}
	res, err := e.Results(ctx, spec.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if r.N != i+1 || r.Status != StatusOK {
			t.Errorf("result %d = %+v", i, r)
		}
		if n := f.pressed(fmt.Sprintf("row-%d", r.N)); n != 1 {
			t.Errorf("row %d pressed %d times", r.N, n)
		}
	}
}

// TestRetryPolicy: a timeout is retried up to Retries; a replaced control
// is not; a row that pressed a submit before it lost the page is
// uncertain, not retried.
func TestRetryPolicy(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{})
	f := newFakeCaller()
	var mu sync.Mutex
	tries := map[string]int{}
	timeout := &calls.Error{Kind: calls.ErrTimeout, Msg: "timed out"}
	fake := func(ctx context.Context, d calls.Session, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		id := o.Vars["id"]
		mu.Lock()
		tries[id]++
		n := tries[id]
		mu.Unlock()
		stopped := func(c replay.Cause) (*replay.Result, error) {
			return &replay.Result{Status: replay.StatusStopped, Cause: c, Message: string(c)}, nil
		}
		switch id {
		case "flaky": // times out twice, then passes
			if n <= 2 {
				_, err := d.Open(ctx, calls.OpenRequest{URL: "timeout"})
				_ = err
				return stopped(replay.CauseFailed)
			}
		case "down": // always times out
			_, _ = d.Open(ctx, calls.OpenRequest{URL: "timeout"})
			return stopped(replay.CauseFailed)
		case "replaced":
			return stopped(replay.CauseReplaced)
		case "pressed-then-lost":
			_, _ = d.Act(ctx, calls.ActRequest{Kind: "click", Target: "@submit", Value: id, Submits: o.Submits})
			_, _ = d.Open(ctx, calls.OpenRequest{URL: "timeout"})
			return stopped(replay.CauseFailed)
		}
		return &replay.Result{Status: replay.StatusOK}, nil
	}
	eps := []Endpoint{{Name: "fake", Caller: timeoutCaller{f, timeout}, Max: 4}}
	rows := []map[string]json.RawMessage{}
	for _, id := range []string{"flaky", "down", "replaced", "pressed-then-lost", "fine"} {
		rows = append(rows, map[string]json.RawMessage{"id": json.RawMessage(`"` + id + `"`)})
	}
	spec, err := e.Submit(context.Background(), Spec{Routine: testRoutine(t, false), Submits: "allow", Retries: 2}, rows)
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, e, "w1", eps, WorkerOptions{Parallel: 2, Replay: fake})
	waitDone(t, e, spec.ID, 30*time.Second)
	res, _ := e.Results(context.Background(), spec.ID)
	want := map[string]struct {
		status, cause string
		attempts      int
	}{
		"flaky":             {StatusOK, "", 3},
		"down":              {StatusFailed, CauseTimeout, 3},
		"replaced":          {StatusFailed, "replaced", 1},
		"pressed-then-lost": {StatusUncertain, CauseTimeout, 1},
		"fine":              {StatusOK, "", 1},
	}
	for _, r := range res {
		id := map[int]string{1: "flaky", 2: "down", 3: "replaced", 4: "pressed-then-lost", 5: "fine"}[r.N]
		w := want[id]
		if r.Status != w.status || r.Cause != w.cause || r.Attempts != w.attempts {
			t.Errorf("%s: got %s/%s after %d attempts, want %s/%s after %d", id, r.Status, r.Cause, r.Attempts, w.status, w.cause, w.attempts)
		}
	}
	if f.pressed("pressed-then-lost") != 1 {
		t.Errorf("pressed %d times", f.pressed("pressed-then-lost"))
	}
}

// timeoutCaller fails an open of "timeout" as a timeout.
type timeoutCaller struct {
	*fakeCaller
	err error
}

func (c timeoutCaller) Call(ctx context.Context, session, method string, params, result any) error {
	if method == calls.MethodOpen {
		if req, ok := params.(calls.OpenRequest); ok && req.URL == "timeout" {
			return c.err
		}
		return nil
	}
	return c.fakeCaller.Call(ctx, session, method, params, result)
}

// TestUncertainWhenTheWorkerStopsAfterASubmit: a row whose worker went
// away after pressing comes back uncertain from the next worker, with the
// step it reached, and is never pressed again; a row that had pressed
// nothing runs again.
func TestUncertainWhenTheWorkerStopsAfterASubmit(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{AckWait: 2 * time.Second})
	f := newFakeCaller()
	eps := []Endpoint{{Name: "fake", Caller: f, Max: 4}}
	pressedOne := make(chan struct{})
	var once sync.Once
	hang := func(ctx context.Context, vars map[string]string) (*replay.Result, error) {
		if vars["id"] == "row-1" {
			once.Do(func() { close(pressedOne) })
			<-ctx.Done() // the worker dies here
			return &replay.Result{Status: replay.StatusCanceled}, nil
		}
		return &replay.Result{Status: replay.StatusOK}, nil
	}
	spec, err := e.Submit(context.Background(), Spec{Routine: testRoutine(t, false), Submits: "allow"}, rowsOf(1, nil))
	if err != nil {
		t.Fatal(err)
	}
	stop1 := startWorker(t, e, "w1", eps, WorkerOptions{Parallel: 1, Replay: fakeReplay(hang)})
	select {
	case <-pressedOne:
	case <-time.After(20 * time.Second):
		t.Fatal("row 1 never ran")
	}
	stop1()
	startWorker(t, e, "w2", eps, WorkerOptions{Parallel: 1, Replay: fakeReplay(nil)})
	waitDone(t, e, spec.ID, 30*time.Second)
	res, _ := e.Results(context.Background(), spec.ID)
	if len(res) != 1 || res[0].Status != StatusUncertain || res[0].Step != "place" || res[0].Cause != CauseWorker {
		t.Fatalf("results = %+v", res)
	}
	if n := f.pressed("row-1"); n != 1 {
		t.Errorf("row 1 pressed %d times", n)
	}
}

// TestKeysSkipRowsDone: a batch submitted again with the same key runs
// only the rows that are not done.
func TestKeysSkipRowsDone(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{})
	f := newFakeCaller()
	startWorker(t, e, "w1", []Endpoint{{Name: "fake", Caller: f}}, WorkerOptions{Parallel: 2, Replay: fakeReplay(nil)})
	ctx := context.Background()
	rt := testRoutine(t, false)
	first, err := e.Submit(ctx, Spec{Routine: rt, Submits: "allow", Key: "id"}, rowsOf(3, nil))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e, first.ID, 20*time.Second)
	again, err := e.Submit(ctx, Spec{Routine: rt, Submits: "allow", Key: "id"}, rowsOf(5, nil))
	if err != nil {
		t.Fatal(err)
	}
	st := waitDone(t, e, again.ID, 20*time.Second)
	if st.Skipped != 3 || st.OK != 2 {
		t.Fatalf("second batch = %+v", st)
	}
	for i := 1; i <= 5; i++ {
		if n := f.pressed(fmt.Sprintf("row-%d", i)); n != 1 {
			t.Errorf("row-%d pressed %d times", i, n)
		}
	}
}

// TestSecretNeverStored: a row names its secret; the worker reads it from
// its environment; not one copy of the value is in the store's files or
// the results.
func TestSecretNeverStored(t *testing.T) {
	e, _, dir := testEngine(t, EngineOptions{})
	const value = "Zq7-very-secret-pass-91"
	var got string
	var mu sync.Mutex
	fake := func(ctx context.Context, d calls.Session, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		mu.Lock()
		got = o.Secrets["password"].Reveal()
		mu.Unlock()
		// A message quoting the value, as a page error might: the result
		// must not keep it.
		return &replay.Result{Status: replay.StatusStopped, Cause: replay.CauseVerify, Message: "the page said: wrong password " + value}, nil
	}
	startWorker(t, e, "w1", []Endpoint{{Name: "fake", Caller: newFakeCaller()}}, WorkerOptions{Replay: fake,
		Getenv: func(k string) string {
			if k == "PW" {
				return value
			}
			return ""
		}})
	ctx := context.Background()
	// A value in the row itself is refused before it reaches the stream.
	if _, err := e.Submit(ctx, Spec{Routine: testRoutine(t, true)}, rowsOf(1, func(_ int, f map[string]json.RawMessage) {
		f["password"] = json.RawMessage(`"` + value + `"`)
	})); err == nil || calls.Code(err) != "bad_input" {
		t.Fatalf("a secret by value: err = %v", err)
	}
	spec, err := e.Submit(ctx, Spec{Routine: testRoutine(t, true)}, rowsOf(1, func(_ int, f map[string]json.RawMessage) {
		f["password"] = json.RawMessage(`{"secret":"env:PW"}`)
	}))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e, spec.ID, 20*time.Second)
	mu.Lock()
	if got != value {
		t.Fatalf("the worker read %q", got)
	}
	mu.Unlock()
	res, _ := e.Results(ctx, spec.ID)
	b, _ := json.Marshal(res)
	if bytes.Contains(b, []byte(value)) {
		t.Errorf("the results hold the value: %s", b)
	}
	assertNotInFiles(t, dir, value)
}

// TestResumesAfterARestart: the server (the daemon's) stops mid-batch and
// starts again on the same folder; the batch goes on where it was: every
// row has one result, none pressed twice.
func TestResumesAfterARestart(t *testing.T) {
	dir := t.TempDir()
	f := newFakeCaller()
	eps := []Endpoint{{Name: "fake", Caller: f, Max: 4}}
	slow := fakeReplay(func(ctx context.Context, _ map[string]string) (*replay.Result, error) {
		_ = wait.Sleep(ctx, 30*time.Millisecond)
		return &replay.Result{Status: replay.StatusOK}, nil
	})
	start := func() (*Engine, func()) {
		srv, err := StartServer(ServerOptions{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		nc, err := srv.Connect()
		if err != nil {
			t.Fatal(err)
		}
		e, err := Open(context.Background(), nc, EngineOptions{AckWait: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		stopW := startWorker(t, e, "w", eps, WorkerOptions{Parallel: 2, Replay: slow})
		return e, func() { stopW(); nc.Close(); srv.Shutdown() }
	}
	e, stop := start()
	spec, err := e.Submit(context.Background(), Spec{Routine: testRoutine(t, false), Submits: "allow"}, rowsOf(40, nil))
	if err != nil {
		t.Fatal(err)
	}
	for {
		st, err := e.Status(context.Background(), spec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.Done >= 10 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	e, stop = start()
	defer stop()
	st := waitDone(t, e, spec.ID, 30*time.Second)
	res, _ := e.Results(context.Background(), spec.ID)
	if len(res) != 40 || st.OK+st.Uncertain != 40 || st.OK < 30 {
		t.Fatalf("status = %+v", st)
	}
	for _, r := range res {
		// An uncertain row's worker journaled the press and stopped: it
		// may have stopped before pressing (the server went away between
		// the journal and the press) — never after pressing twice.
		n := f.pressed(fmt.Sprintf("row-%d", r.N))
		if n > 1 || n == 0 && r.Status != StatusUncertain {
			t.Errorf("row %d (%s) pressed %d times", r.N, r.Status, n)
		}
	}
}

// TestCancel: rows not started come back canceled at once; a row running
// finishes; the batch ends canceled.
func TestCancel(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{})
	f := newFakeCaller()
	started := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	hold := fakeReplay(func(ctx context.Context, _ map[string]string) (*replay.Result, error) {
		once.Do(func() { close(started) })
		select {
		case <-release:
		case <-ctx.Done():
		}
		return &replay.Result{Status: replay.StatusOK}, nil
	})
	spec, err := e.Submit(context.Background(), Spec{Routine: testRoutine(t, false), Submits: "allow"}, rowsOf(10, nil))
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, e, "w1", []Endpoint{{Name: "fake", Caller: f, Max: 1}}, WorkerOptions{Parallel: 1, Replay: hold})
	<-started
	st, err := e.Cancel(context.Background(), spec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.Canceled != 9 || st.State != StateRunning {
		t.Fatalf("after cancel: %+v", st)
	}
	close(release)
	st = waitDone(t, e, spec.ID, 20*time.Second)
	if st.State != StateCanceled || st.OK != 1 || st.Canceled != 9 {
		t.Fatalf("status = %+v", st)
	}
}

// TestARowThatKillsItsWorkersIsGivenUp: a row whose workers keep dying
// under it (before any submit) is failed after its retries and a few
// deliveries more, not run forever.
func TestARowThatKillsItsWorkersIsGivenUp(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{AckWait: time.Second})
	ctx := context.Background()
	spec, err := e.Submit(ctx, Spec{Routine: testRoutine(t, false), Retries: 1}, rowsOf(1, nil))
	if err != nil {
		t.Fatal(err)
	}
	// Each delivery is taken and dropped, as by a worker that died.
	cons, err := e.rows.Consumer(ctx, workers)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1+deathsAllowed; i++ {
		if _, err := cons.Next(jetstream.FetchMaxWait(5 * time.Second)); err != nil {
			t.Fatalf("delivery %d: %v", i+1, err)
		}
	}
	f := newFakeCaller()
	startWorker(t, e, "w1", []Endpoint{{Name: "fake", Caller: f}}, WorkerOptions{Replay: fakeReplay(nil)})
	waitDone(t, e, spec.ID, 20*time.Second)
	res, _ := e.Results(ctx, spec.ID)
	if len(res) != 1 || res[0].Status != StatusFailed || res[0].Cause != CauseWorker {
		t.Fatalf("results = %+v", res)
	}
	if f.pressed("row-1") != 0 {
		t.Errorf("the row ran")
	}
}

// TestLongRowsHeartbeat: a row that runs for three ack waits is not given
// to another worker meanwhile: its worker says it is in progress.
func TestLongRowsHeartbeat(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{AckWait: time.Second})
	f := newFakeCaller()
	eps := []Endpoint{{Name: "fake", Caller: f, Max: 2}}
	long := fakeReplay(func(ctx context.Context, _ map[string]string) (*replay.Result, error) {
		_ = wait.Sleep(ctx, 3*time.Second)
		return &replay.Result{Status: replay.StatusOK}, nil
	})
	spec, err := e.Submit(context.Background(), Spec{Routine: testRoutine(t, false), Submits: "allow"}, rowsOf(1, nil))
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, e, "w1", eps, WorkerOptions{Replay: long})
	startWorker(t, e, "w2", eps, WorkerOptions{Replay: long})
	st := waitDone(t, e, spec.ID, 20*time.Second)
	res, _ := e.Results(context.Background(), spec.ID)
	if st.OK != 1 || res[0].Attempts != 1 || res[0].DurMS < 3000 || f.pressed("row-1") != 1 {
		t.Fatalf("status %+v, results %+v, pressed %d", st, res, f.pressed("row-1"))
	}
}

// TestGraceLetsRowsFinish: a worker told to stop takes no more rows and
// lets the row under way finish within its grace, so it ends ok rather
// than uncertain.
func TestGraceLetsRowsFinish(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{})
	f := newFakeCaller()
	pressed := make(chan struct{})
	var once sync.Once
	slow := fakeReplay(func(ctx context.Context, _ map[string]string) (*replay.Result, error) {
		once.Do(func() { close(pressed) })
		if err := wait.Sleep(ctx, time.Second); err != nil {
			return &replay.Result{Status: replay.StatusCanceled}, nil
		}
		return &replay.Result{Status: replay.StatusOK}, nil
	})
	spec, err := e.Submit(context.Background(), Spec{Routine: testRoutine(t, false), Submits: "allow"}, rowsOf(3, nil))
	if err != nil {
		t.Fatal(err)
	}
	stop := startWorker(t, e, "w1", []Endpoint{{Name: "fake", Caller: f}}, WorkerOptions{Replay: slow, Grace: 10 * time.Second})
	<-pressed
	stop()
	res, _ := e.Results(context.Background(), spec.ID)
	if len(res) != 1 || res[0].Status != StatusOK {
		t.Fatalf("after the stop: %+v", res)
	}
}

// TestOneServerAStore: a second server on the same store waits for the
// first to shut down instead of sharing its files.
func TestOneServerAStore(t *testing.T) {
	dir := t.TempDir()
	first, err := StartServer(ServerOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan *Server)
	go func() { // exits when the second server started or failed
		s, err := StartServer(ServerOptions{Dir: dir})
		if err != nil {
			t.Error(err)
		}
		started <- s
	}()
	select {
	case <-started:
		t.Fatal("a second server started on a store in use")
	case <-time.After(500 * time.Millisecond):
	}
	first.Shutdown()
	select {
	case s := <-started:
		if s != nil {
			s.Shutdown()
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the second server never started")
	}
}
