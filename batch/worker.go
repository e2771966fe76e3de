package batch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/wait"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
	"github.com/waymark-dev/waymark/siteapi"
)

// WorkerOptions configure [Engine.Work].
type WorkerOptions struct {
	// Name is the worker's name, in results and leases; it must be unique
	// among running workers.
	Name string
	// Parallel is how many rows run at once; zero means 1.
	Parallel int
	// Pool leases the sessions rows run in.
	Pool *Pool
	// Getenv reads the environment for secrets named env:VAR when Secrets
	// is nil; nil means os.Getenv.
	Getenv func(string) string
	// Secrets reads the secrets rows name (see secrets.go); nil means
	// EnvSecrets(Getenv): this process's environment and files.
	Secrets Secrets
	// Logger gets a line a row (never a secret value: it is redacted);
	// nil discards.
	Logger *slog.Logger
	// Grace is how long rows under way may go on once ctx ends, before
	// they are stopped and given back; zero stops them at once.
	Grace time.Duration
	// Replay runs one row; nil means replay.Run. Tests put a fake here.
	Replay func(ctx context.Context, d calls.Session, r *routine.Routine, opts replay.Options) (*replay.Result, error)
}

// Work takes rows and runs them until ctx ends. Rows running when it ends
// are given back to the stream (their journal decides what happens next).
func (e *Engine) Work(ctx context.Context, opts WorkerOptions) error {
	if opts.Pool == nil {
		return calls.Errorf(calls.ErrBadInput, "", "a worker needs a pool of browsers")
	}
	if opts.Parallel <= 0 {
		opts.Parallel = 1
	}
	if opts.Replay == nil {
		opts.Replay = replay.Run
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	cons, err := e.rows.Consumer(ctx, workers)
	if err != nil {
		return fmt.Errorf("batch: find the workers' consumer: %w", err)
	}
	w := &worker{e: e, opts: opts, specs: map[string]*loaded{}}
	// Rows run on a context of their own: when ctx ends no row is taken,
	// and the rows under way get Grace to finish.
	rowCtx, stopRows := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRows()
	allDone := make(chan struct{})
	go func() { // exits when the rows are stopped or all done
		select {
		case <-ctx.Done():
		case <-allDone:
			return
		}
		if opts.Grace > 0 {
			t := time.NewTimer(opts.Grace)
			defer t.Stop()
			select {
			case <-t.C:
			case <-allDone:
			}
		}
		stopRows()
	}()
	defer close(allDone)
	var wg sync.WaitGroup
	for range opts.Parallel {
		wg.Add(1)
		go func() { // exits when ctx ends
			defer wg.Done()
			for ctx.Err() == nil {
				msg, err := cons.Next(jetstream.FetchMaxWait(time.Second))
				if err != nil {
					if !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
						opts.Logger.Debug("batch: fetch", "err", err)
						_ = wait.Sleep(ctx, 500*time.Millisecond) // the loop stops on ctx
					}
					continue
				}
				w.handle(rowCtx, msg)
			}
		}()
	}
	wg.Wait()
	return nil
}

type worker struct {
	e    *Engine
	opts WorkerOptions
	mu   sync.Mutex
	// specs caches each batch's spec and parsed routine.
	specs map[string]*loaded
}

type loaded struct {
	spec *Spec
	r    *routine.Routine
	hash string
	// vars are what a row gives (Spec.Variables); signIns the bundled
	// sign-in routines, by name.
	vars    []routine.Variable
	signIns map[string]*routine.Routine
}

func (w *worker) spec(ctx context.Context, id string) (*loaded, error) {
	w.mu.Lock()
	l := w.specs[id]
	w.mu.Unlock()
	if l != nil {
		return l, nil
	}
	spec, err := w.e.Spec(ctx, id)
	if err != nil {
		return nil, err
	}
	r, err := routine.Parse(spec.Routine)
	if err != nil {
		return nil, err
	}
	signIns, err := spec.signIns()
	if err != nil {
		return nil, err
	}
	vars, err := variablesOf(r, signIns)
	if err != nil {
		return nil, err
	}
	l = &loaded{spec: spec, r: r, hash: spec.routineHash(), vars: vars, signIns: signIns}
	w.mu.Lock()
	w.specs[id] = l
	w.mu.Unlock()
	return l, nil
}

// deathsAllowed is how many deliveries past its retries a row gets when
// its workers die under it.
const deathsAllowed = 4

// running is a row's marker while a worker holds it: the retries so far.
type running struct {
	Tries  int    `json:"tries"`
	Worker string `json:"worker"`
}

// handle runs one delivered row to a result, or gives it back for a retry.
func (w *worker) handle(ctx context.Context, msg jetstream.Msg) {
	e, log := w.e, w.opts.Logger
	var row Row
	if err := json.Unmarshal(msg.Data(), &row); err != nil {
		log.Error("batch: a row that is not JSON; dropped", "err", err)
		_ = msg.Term()
		return
	}
	l, err := w.spec(ctx, row.Batch)
	if err != nil {
		log.Error("batch: no spec for the row; dropped", "batch", row.Batch, "n", row.N, "err", err)
		_ = msg.Term()
		return
	}
	spec, key := l.spec, rowKeyName(row.Batch, row.N)
	// What is known of the row already, read at once: three reads of
	// the store one after another were most of the engine's cost a row
	// after the lease's (BenchmarkEngineCost). Nothing this worker does
	// writes them before they are judged below, in the same order.
	var (
		wg          sync.WaitGroup
		resultErr   error
		j           journal
		journaledOK bool
		run         running
	)
	wg.Go(func() { _, resultErr = e.results.Get(ctx, key) })
	wg.Go(func() { j, journaledOK = w.journaled(ctx, key) })
	wg.Go(func() {
		if ent, err := e.journal.Get(ctx, key+".run"); err == nil {
			_ = json.Unmarshal(ent.Value(), &run)
		}
	})
	wg.Wait()
	if resultErr == nil {
		_ = msg.Ack() // done already: its worker died between the result and the ack
		return
	}
	if journaledOK {
		// An earlier delivery pressed a submit and wrote no result: its
		// worker died. Running the row again could press it twice.
		e.writeResult(ctx, spec, Result{Batch: row.Batch, N: row.N, Key: row.Key, Status: StatusUncertain, Cause: CauseWorker, Step: j.Step,
			Message: fmt.Sprintf("worker %s stopped after pressing %s (step %s); whether it went through is not known", j.Worker, calls.ShownControl(j.Control), j.Step),
			Hint:    "check this row on the site by hand; it is not run again", Attempts: j.Attempt, Worker: w.opts.Name})
		_ = msg.Ack()
		return
	}
	// A row delivered again and again with no result kills its workers
	// (or they keep dying under it): after its retries and a few deaths
	// more it is given up, rather than taking worker after worker.
	if md, err := msg.Metadata(); err == nil && md.NumDelivered > uint64(spec.Retries+deathsAllowed) {
		e.writeResult(ctx, spec, Result{Batch: row.Batch, N: row.N, Key: row.Key, Status: StatusFailed, Cause: CauseWorker,
			Message: fmt.Sprintf("delivered %d times and never finished: its workers stopped while running it", md.NumDelivered),
			Hint:    "look at the workers' logs for this row; it is not run again", Attempts: int(md.NumDelivered) - 1, Worker: w.opts.Name})
		_ = msg.Ack()
		return
	}
	run.Worker = w.opts.Name
	b, _ := json.Marshal(run)
	_, _ = e.journal.Put(ctx, key+".run", b)
	// The marker first, then the cancel flag: Cancel sets the flag, then
	// looks for markers, so a row is either canceled here or left to run
	// by Cancel, never both nor neither.
	if e.canceled(ctx, row.Batch) {
		e.writeResult(ctx, spec, Result{Batch: row.Batch, N: row.N, Key: row.Key, Status: StatusCanceled, Message: "the batch was canceled before this row ran"})
		_ = e.journal.Delete(ctx, key+".run")
		_ = msg.Ack()
		return
	}

	// Heartbeats: the row stays ours while it runs, however long.
	hctx, stopBeat := context.WithCancel(ctx)
	go func() { // exits when the row is done
		t := time.NewTicker(e.opts.AckWait / 3)
		defer t.Stop()
		for {
			select {
			case <-hctx.Done():
				return
			case <-t.C:
				_ = msg.InProgress()
			}
		}
	}()
	res, retry := w.run(ctx, l, row, run.Tries+1)
	stopBeat()
	if res.Status == statusElsewhere {
		// Delivered twice at once (this row's other worker thought dead
		// under load, yet alive), and the other delivery journaled its
		// submit first. This one pressed nothing and writes no result:
		// the row comes back once the other had time to end it, and its
		// next delivery finds that result, or the journal with none
		// (uncertain), as after any worker's death.
		log.Info("batch: row taken by another delivery", "batch", row.Batch, "n", row.N)
		_ = msg.NakWithDelay(e.opts.AckWait)
		return
	}
	if ctx.Err() != nil {
		// The worker is stopping: the row goes back whole; its journal
		// (if it pressed a submit) makes the next delivery uncertain.
		_ = msg.Nak()
		return
	}
	if retry && run.Tries < spec.Retries {
		run.Tries++
		b, _ := json.Marshal(run)
		_, _ = e.journal.Put(ctx, key+".run", b)
		log.Info("batch: row retried", "batch", row.Batch, "n", row.N, "cause", res.Cause, "try", run.Tries)
		_ = msg.NakWithDelay(time.Duration(run.Tries) * 500 * time.Millisecond)
		return
	}
	res.Attempts = run.Tries + 1
	if e.writeResult(ctx, spec, res) {
		log.Info("batch: row done", "batch", row.Batch, "n", row.N, "status", res.Status, "cause", res.Cause, "dur_ms", res.DurMS)
	}
	_ = e.journal.Delete(ctx, key+".run")
	_ = msg.Ack()
}

// statusElsewhere marks a run whose row another delivery of it holds (it
// journaled the row's submit first); never written as a result.
const statusElsewhere = "elsewhere"

func (w *worker) journaled(ctx context.Context, key string) (journal, bool) {
	ent, err := w.e.journal.Get(ctx, key)
	if err != nil {
		return journal{}, false
	}
	var j journal
	return j, json.Unmarshal(ent.Value(), &j) == nil
}

// run runs the routine once for the row. retry says a retry may help.
func (w *worker) run(ctx context.Context, l *loaded, row Row, attempt int) (res Result, retry bool) {
	res = Result{Batch: row.Batch, N: row.N, Key: row.Key, Worker: w.opts.Name}
	start := time.Now()
	defer func() { res.DurMS = time.Since(start).Milliseconds() }()
	vars, secrets, err := rowValues(l.vars, row, w.secrets())
	if isUnset(err) {
		if herr := w.hold(ctx, row); herr != nil {
			res.Status, res.Cause, res.Message = StatusFailed, CauseWorker, "hold the row for its secret: "+herr.Error()
			return res, true
		}
		return needsSecret(res, err), false
	}
	if err != nil {
		res.Status, res.Cause, res.Message, res.Hint = StatusFailed, CauseInput, err.Error(), calls.Hint(err)
		return res, false
	}
	lease, err := w.opts.Pool.Acquire(ctx, l.hash, l.spec.KeepCookies)
	if err != nil {
		res.Status, res.Cause, res.Message = StatusFailed, CauseBrowser, err.Error()
		return res, true
	}
	res.Browser = lease.Endpoint()
	known := new(secret.Set)
	for _, v := range secrets {
		known.AddValue(v)
	}
	j := &journaling{w: w, r: l.r, key: rowKeyName(row.Batch, row.N), attempt: attempt}
	j.Session = lease.driver(j.note)
	ro := replay.Options{Vars: vars, Secrets: secrets, Submits: l.spec.Submits, Approvals: approval.Relayed(l.r, l.spec.Approved),
		KeepHeals: replay.KeepNever, NoHand: !l.spec.Hand, Progress: j.progress}
	ro.SignIn = w.signIn(l, j.Session, ro) // signin.go
	rr, err := w.opts.Replay(ctx, j, l.r, ro)
	broken := j.browserGone()
	lease.Release(context.WithoutCancel(ctx), broken)
	if j.lostRace() {
		res.Status = statusElsewhere
		return res, false
	}
	if err != nil {
		res.Status, res.Cause, res.Message, res.Hint = StatusFailed, CauseInput, known.Redact(err.Error()), calls.Hint(err)
		return res, false
	}
	// Replay masks what it knows; the page may still quote a secret
	// back (an error message with the value typed), so everything the
	// result keeps is masked again here.
	res.Message, res.Hint = known.Redact(rr.Message), known.Redact(rr.Hint)
	res.Heals = rr.Heals
	if len(rr.Data) > 0 {
		res.Data = make(map[string]json.RawMessage, len(rr.Data))
		for k, v := range rr.Data {
			masked := known.Redact(string(v))
			if !json.Valid([]byte(masked)) {
				masked, _ = marshalString(masked)
			}
			res.Data[k] = json.RawMessage(masked)
		}
	}
	for _, s := range rr.Steps {
		if s.Status == "stopped" {
			res.Step = s.Path
			if s.ID != "" {
				res.Step = s.ID
			}
		}
	}
	switch rr.Status {
	case replay.StatusOK:
		res.Status = StatusOK
		return res, false
	case replay.StatusCanceled:
		res.Status, res.Cause = StatusFailed, string(replay.CauseCanceled)
		return res, false
	}
	res.Status, res.Cause = StatusFailed, string(rr.Cause)
	// A goto that could not load stops as landed-elsewhere; the open's
	// error says it was the network, not the site sending it elsewhere.
	if rr.Cause == replay.CauseFailed || rr.Cause == replay.CauseLandedAway && j.lastCode() == "navigation" {
		switch j.lastCode() {
		case "timeout", "page_unresponsive":
			res.Cause, retry = CauseTimeout, true
		case "navigation", "unavailable":
			res.Cause, retry = CauseNetwork, true
		case "browser_gone", "page_crashed":
			res.Cause, retry = CauseBrowser, true
		}
	}
	if rr.Cause == replay.CauseFailed && j.refused() {
		// The site refused the session to the last API call (after a
		// sign-in, when the recipe names one): it travels as a
		// navigation error, yet another try would be refused alike.
		res.Cause, retry = CauseAuth, false
	}
	if j.pressed() {
		if retry {
			// It pressed a submit, then lost the page: what the site
			// did with the submit is not known, and a retry could press
			// it again.
			res.Status = StatusUncertain
			res.Hint = "check this row on the site by hand; it is not run again"
		}
		return res, false
	}
	return res, retry
}

// journaling is the row's session: before an approved submit (or a held
// non-GET request) goes, or approved cells are written, it writes the
// row's journal. It embeds the whole session, so every call it does not
// journal passes as it is; the lease's session tells it every call's
// error (note), for the retry policy.
type journaling struct {
	calls.Session
	w       *worker
	r       *routine.Routine
	key     string
	attempt int

	mu    sync.Mutex
	done  int // top-level steps done
	code  string
	press bool
	rev   uint64 // the journal entry's revision, once written
	// auth: the last API call was refused as auth (siteapi.KindAuth).
	auth bool
	// elsewhere: another delivery of the row journaled its submit first
	// (journal): the row is that delivery's, not this one's.
	elsewhere bool
}

// CallAPI keeps whether the site refused the session to the call.
func (j *journaling) CallAPI(ctx context.Context, req calls.APICallRequest) (*calls.APICallResult, error) {
	res, err := j.Session.CallAPI(ctx, req)
	j.mu.Lock()
	j.auth = siteapi.KindOf(err) == siteapi.KindAuth
	j.mu.Unlock()
	return res, err
}

func (j *journaling) refused() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.auth
}

func (j *journaling) progress(e replay.StepEvent) {
	j.mu.Lock()
	j.done = e.N
	j.mu.Unlock()
}

func (j *journaling) lastCode() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.code
}

func (j *journaling) lostRace() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.elsewhere
}

func (j *journaling) pressed() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.press
}

func (j *journaling) browserGone() bool {
	c := j.lastCode()
	return c == "browser_gone" || c == "unavailable"
}

// note keeps the category of the last call's error ("" for none), which
// is what stopped a replay that stopped as failed.
func (j *journaling) note(err error) {
	code := ""
	if err != nil {
		code = calls.Code(err)
	}

	j.mu.Lock()
	j.code = code
	j.mu.Unlock()
}

// Act asks first, with submits held, whenever the replay would press
// freely: a step that sends nothing goes on as it is; one that would send
// comes back needing approval, and is pressed with that approval only
// after the journal says so. A press with an approval already (a submit a
// person pressed while recording, under submits "ask") is journaled
// before it goes, the same.
func (j *journaling) Act(ctx context.Context, req calls.ActRequest) (*calls.Outcome, error) {
	if req.Approve != nil {
		if err := j.journal(ctx, *req.Approve); err != nil {
			return nil, err
		}
		return j.Session.Act(ctx, req)
	}
	if req.Submits != replay.SubmitsAllow {
		return j.Session.Act(ctx, req)
	}
	probe := req
	probe.Submits = replay.SubmitsAsk
	out, err := j.Session.Act(ctx, probe)
	if err == nil || !errors.Is(err, calls.ErrNeedsApproval) {
		return out, err
	}
	var a calls.Approval
	if json.Unmarshal(calls.DataOf(err), &a) != nil || a.Token == "" {
		return out, err
	}
	if err := j.journal(ctx, a); err != nil {
		return nil, err
	}
	req.Approve = &a
	return j.Session.Act(ctx, req)
}

// SheetFill writes the journal before approved cells are written: they
// are the row's commit, as a pressed submit is.
func (j *journaling) SheetFill(ctx context.Context, req calls.SheetFillRequest) (*calls.SheetFillResult, error) {
	if req.Approve != nil {
		if err := j.journal(ctx, *req.Approve); err != nil {
			return nil, err
		}
	}
	return j.Session.SheetFill(ctx, req)
}

// journal writes the row's journal for an approved commit: the step, the
// control and what it sends. No journal, no commit: a row that could not
// say it pressed must not press.
func (j *journaling) journal(ctx context.Context, a calls.Approval) error {
	j.mu.Lock()
	step := stepName(j.r, j.done)
	j.mu.Unlock()
	entry, _ := json.Marshal(journal{Attempt: j.attempt, Step: step, Control: a.Control, Sends: a.Sends, Worker: j.w.opts.Name, At: time.Now().UTC()})
	// Create, not Put: at most one press per row, ever. A row delivered
	// twice at once (its first worker thought dead, yet alive) presses
	// in the delivery that journals first; the other stops here.
	// A later press of the same delivery updates its own entry.
	var rev uint64
	var err error
	if j.rev == 0 {
		rev, err = j.w.e.journal.Create(ctx, j.key, entry)
	} else {
		rev, err = j.w.e.journal.Update(ctx, j.key, entry, j.rev)
	}
	if errors.Is(err, jetstream.ErrKeyExists) {
		j.mu.Lock()
		j.elsewhere = true
		j.mu.Unlock()
		return calls.Errorf(calls.ErrUnavailable, "", "another delivery of this row journaled its submit first; this one does not press it")
	}
	if err != nil {
		return calls.Errorf(calls.ErrUnavailable, "", "write the row's journal before a submit: %v", err)
	}
	j.mu.Lock()
	j.press, j.rev = true, rev
	j.mu.Unlock()
	return nil
}

func marshalString(s string) (string, error) {
	b, err := json.Marshal(s)
	return string(b), err
}
