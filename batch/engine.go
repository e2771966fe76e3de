package batch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/waymark-dev/waymark/calls"
)

// Names of the stream, consumer and buckets. They are fixed, so every
// daemon and worker on a NATS system shares them.
const (
	rowsStream    = "WAYMARK_ROWS"
	rowsSubject   = "waymark.rows." // + batch id
	workers       = "waymark-workers"
	specsBucket   = "waymark_batches"
	resultsBucket = "waymark_results"
	journalBucket = "waymark_journal"
	doneBucket    = "waymark_done"
	leasesBucket  = "waymark_leases"
)

// EngineOptions tune an [Engine]. The zero value is valid.
type EngineOptions struct {
	// Replicas of the stream and buckets: 1 on one server, 3 on a
	// cluster of three. Zero means 1.
	Replicas int
	// AckWait is how long a row may go without word from its worker
	// (a worker heartbeats every third of it) before it is given to
	// another; zero means 30 s.
	AckWait time.Duration
	// LeaseTTL is how long a browser lease lives without renewal; zero
	// means 1 minute.
	LeaseTTL time.Duration
}

// Engine is the batch engine over one NATS connection. It is safe for
// concurrent use.
type Engine struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	opts    EngineOptions
	rows    jetstream.Stream
	specs   jetstream.KeyValue
	results jetstream.KeyValue
	journal jetstream.KeyValue
	done    jetstream.KeyValue
	leases  jetstream.KeyValue
}

// Open makes (or finds) the stream and buckets on nc's JetStream.
func Open(ctx context.Context, nc *nats.Conn, opts EngineOptions) (*Engine, error) {
	if opts.Replicas <= 0 {
		opts.Replicas = 1
	}
	if opts.AckWait <= 0 {
		opts.AckWait = 30 * time.Second
	}
	if opts.LeaseTTL <= 0 {
		opts.LeaseTTL = time.Minute
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	e := &Engine{nc: nc, js: js, opts: opts}
	e.rows, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:      rowsStream,
		Subjects:  []string{rowsSubject + "*"},
		Retention: jetstream.WorkQueuePolicy,
		Storage:   jetstream.FileStorage,
		Replicas:  opts.Replicas,
		// Duplicates of a row published twice (a submit retried after a
		// lost reply) are dropped within this window.
		Duplicates: 10 * time.Minute,
	})
	if err != nil {
		return nil, fmt.Errorf("batch: make the rows stream: %w", err)
	}
	bucket := func(name string, ttl time.Duration) (jetstream.KeyValue, error) {
		kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: name, Storage: jetstream.FileStorage, Replicas: opts.Replicas, TTL: ttl})
		if err != nil {
			return nil, fmt.Errorf("batch: make the %s bucket: %w", name, err)
		}
		return kv, nil
	}
	if e.specs, err = bucket(specsBucket, 0); err != nil {
		return nil, err
	}
	if e.results, err = bucket(resultsBucket, 0); err != nil {
		return nil, err
	}
	if e.journal, err = bucket(journalBucket, 0); err != nil {
		return nil, err
	}
	if e.done, err = bucket(doneBucket, 0); err != nil {
		return nil, err
	}
	if e.leases, err = bucket(leasesBucket, opts.LeaseTTL); err != nil {
		return nil, err
	}
	_, err = e.rows.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable:   workers,
		AckPolicy: jetstream.AckExplicitPolicy,
		AckWait:   opts.AckWait,
		// The worker counts attempts (a dead worker's row is not a
		// retry) and gives a row up after its retries and a few deaths
		// (worker.go); this is the backstop.
		MaxDeliver:    100,
		MaxAckPending: 10000,
	})
	if err != nil {
		return nil, fmt.Errorf("batch: make the workers' consumer: %w", err)
	}
	return e, nil
}

// Submit checks the routine and the rows, then puts the batch on the
// stream and returns it with its id (spec.ID, or a new one). Rows whose key
// is done already are written as skipped at once.
func (e *Engine) Submit(ctx context.Context, spec Spec, fields []map[string]json.RawMessage) (*Spec, error) {
	vars, err := spec.Variables()
	if err != nil {
		return nil, err
	}
	if len(fields) == 0 {
		return nil, calls.Errorf(calls.ErrBadInput, "give one JSON object a line, or a CSV file with a header", "the batch has no rows")
	}
	if spec.ID == "" {
		spec.ID = NewID()
	} else if !validID(spec.ID) {
		return nil, calls.Errorf(calls.ErrBadInput, "use letters, digits and dashes", "bad batch id %q", spec.ID)
	}
	if spec.Submits == "" {
		spec.Submits = "ask"
	}
	spec.Total, spec.Created = len(fields), time.Now().UTC()
	rows := make([]Row, len(fields))
	for i, f := range fields {
		rows[i] = Row{Batch: spec.ID, N: i + 1, Fields: f}
		if err := checkRow(vars, f); err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, calls.Hint(err), "row %d: %v", i+1, err)
		}
		if spec.Key != "" {
			k, err := rowKey(f, spec.Key)
			if err != nil {
				return nil, calls.Errorf(calls.ErrBadInput, "every row needs the --key field, a string or a number", "row %d: %v", i+1, err)
			}
			rows[i].Key = k
		}
	}
	b, _ := json.Marshal(spec)
	if _, err := e.specs.Create(ctx, spec.ID, b); err != nil {
		if errors.Is(err, jetstream.ErrKeyExists) {
			return nil, calls.Errorf(calls.ErrBadInput, "choose another id, or look at it with "+calls.Cmd("batch status")+" "+spec.ID, "batch %s exists already", spec.ID)
		}
		return nil, err
	}
	rh := spec.routineHash()
	seen := map[string]int{}
	var pubs []jetstream.PubAckFuture
	for _, row := range rows {
		if row.Key != "" {
			if first, dup := seen[row.Key]; dup {
				e.writeResult(ctx, &spec, Result{Batch: spec.ID, N: row.N, Key: row.Key, Status: StatusSkipped,
					Message: fmt.Sprintf("the same key as row %d", first)})
				continue
			}
			seen[row.Key] = row.N
			if d, ok := e.doneMark(ctx, rh, row.Key); ok {
				e.writeResult(ctx, &spec, Result{Batch: spec.ID, N: row.N, Key: row.Key, Status: StatusSkipped,
					Message: fmt.Sprintf("done already (%s) as row %d of batch %s", d.Status, d.N, d.Batch)})
				continue
			}
		}
		data, _ := json.Marshal(row)
		f, err := e.js.PublishAsync(rowsSubject+spec.ID, data, jetstream.WithMsgID(spec.ID+"."+strconv.Itoa(row.N)))
		if err != nil {
			return nil, fmt.Errorf("batch: put row %d on the stream: %w", row.N, err)
		}
		pubs = append(pubs, f)
	}
	select {
	case <-e.js.PublishAsyncComplete():
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	for i, f := range pubs {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			return nil, fmt.Errorf("batch: put row %d of %d on the stream: %w", i+1, len(pubs), err)
		}
	}
	return &spec, nil
}

// NewID returns a new batch id: the time and 8 random hex digits.
func NewID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "b" + time.Now().UTC().Format("0102-1504") + "-" + hex.EncodeToString(b[:])
}

func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Spec returns a batch's spec.
func (e *Engine) Spec(ctx context.Context, id string) (*Spec, error) {
	if !validID(id) {
		return nil, calls.Errorf(calls.ErrBadInput, "list them with "+calls.Cmd("batch status"), "bad batch id %q", id)
	}
	ent, err := e.specs.Get(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, calls.Errorf(calls.ErrBadInput, "list them with "+calls.Cmd("batch status"), "no batch %s", id)
	}
	if err != nil {
		return nil, err
	}
	var s Spec
	if err := json.Unmarshal(ent.Value(), &s); err != nil {
		return nil, fmt.Errorf("batch %s: %w", id, err)
	}
	return &s, nil
}

// List returns the ids of every batch, oldest first.
func (e *Engine) List(ctx context.Context) ([]string, error) {
	lister, err := e.specs.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for k := range lister.Keys() {
		if !strings.Contains(k, ".") {
			ids = append(ids, k)
		}
	}
	return ids, nil
}

// Cancel stops a batch: rows not yet started are written as canceled
// (their messages are acked by the next worker that takes them); rows
// running finish, and a row whose worker died is settled when it is
// delivered again (canceled, or uncertain if it pressed a submit).
func (e *Engine) Cancel(ctx context.Context, id string) (*Status, error) {
	spec, err := e.Spec(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, err := e.specs.Put(ctx, id+".canceled", []byte("1")); err != nil {
		return nil, err
	}
	got, err := e.Results(ctx, id)
	if err != nil {
		return nil, err
	}
	have := map[int]bool{}
	for _, r := range got {
		have[r.N] = true
	}
	// A row in a worker's hands has its marker: it is left to the worker
	// (which sees the flag after its marker, see worker.handle).
	for n := 1; n <= spec.Total; n++ {
		if !have[n] && !e.running(ctx, id, n) {
			e.writeResult(ctx, spec, Result{Batch: id, N: n, Status: StatusCanceled, Message: "the batch was canceled before this row ran"})
		}
	}
	return e.Status(ctx, id)
}

// running says whether a worker holds row n now: it journals a start.
func (e *Engine) running(ctx context.Context, id string, n int) bool {
	_, err := e.journal.Get(ctx, rowKeyName(id, n)+".run")
	return err == nil
}

func (e *Engine) canceled(ctx context.Context, id string) bool {
	_, err := e.specs.Get(ctx, id+".canceled")
	return err == nil
}

// rowKeyName is a row's key in the results and journal buckets.
func rowKeyName(id string, n int) string { return id + ".r" + strconv.Itoa(n) }

// writeResult writes a row's result once: a second result for the same row
// (a row redelivered while its first worker still wrote) is dropped. It
// reports whether this one was written.
func (e *Engine) writeResult(ctx context.Context, spec *Spec, r Result) bool {
	if r.At.IsZero() {
		r.At = time.Now().UTC()
	}
	b, _ := json.Marshal(r)
	if _, err := e.results.Create(ctx, rowKeyName(spec.ID, r.N), b); err != nil {
		return false
	}
	if spec.Key != "" && r.Key != "" && (r.Status == StatusOK || r.Status == StatusUncertain) {
		m, _ := json.Marshal(doneMark{Batch: spec.ID, N: r.N, Status: r.Status})
		_, _ = e.done.Put(ctx, spec.routineHash()+"."+keyHash(r.Key), m)
	}
	return true
}

func (e *Engine) doneMark(ctx context.Context, rh, key string) (doneMark, bool) {
	ent, err := e.done.Get(ctx, rh+"."+keyHash(key))
	if err != nil {
		return doneMark{}, false
	}
	var d doneMark
	return d, json.Unmarshal(ent.Value(), &d) == nil
}

// Results returns the results written so far, in row order.
func (e *Engine) Results(ctx context.Context, id string) ([]Result, error) {
	res, _, err := e.ResultsAfter(ctx, id, 0)
	return res, err
}

// ResultsAfter returns the results written after revision after (0: all),
// in row order, and the revision to ask after next time: a follower
// reads each result once however they arrive.
func (e *Engine) ResultsAfter(ctx context.Context, id string, after uint64) ([]Result, uint64, error) {
	if !validID(id) {
		return nil, 0, calls.Errorf(calls.ErrBadInput, "", "bad batch id %q", id)
	}
	w, err := e.results.Watch(ctx, id+".*", jetstream.IgnoreDeletes())
	if err != nil {
		return nil, 0, err
	}
	defer w.Stop()
	byN := map[int]Result{}
	last := after
	for {
		select {
		case ent, ok := <-w.Updates():
			if !ok {
				return nil, 0, fmt.Errorf("batch: the results watch ended")
			}
			if ent == nil { // all current values seen
				out := make([]Result, 0, len(byN))
				for _, r := range byN {
					out = append(out, r)
				}
				sortResults(out)
				return out, last, nil
			}
			if ent.Revision() <= after {
				continue
			}
			last = max(last, ent.Revision())
			var r Result
			if err := json.Unmarshal(ent.Value(), &r); err == nil {
				byN[r.N] = r
			}
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		}
	}
}

// Status counts a batch's results.
func (e *Engine) Status(ctx context.Context, id string) (*Status, error) {
	spec, err := e.Spec(ctx, id)
	if err != nil {
		return nil, err
	}
	res, err := e.Results(ctx, id)
	if err != nil {
		return nil, err
	}
	return statusOf(spec, res, e.canceled(ctx, id), time.Now()), nil
}

func statusOf(spec *Spec, res []Result, canceled bool, now time.Time) *Status {
	st := &Status{ID: spec.ID, Name: spec.Name, Total: spec.Total, Created: spec.Created, Done: len(res), State: StateRunning}
	ran := 0
	for _, r := range res {
		switch r.Status {
		case StatusOK:
			st.OK++
		case StatusFailed:
			st.Failed++
		case StatusUncertain:
			st.Uncertain++
		case StatusSkipped:
			st.Skipped++
		case StatusCanceled:
			st.Canceled++
		case StatusNeedsSecret:
			st.NeedsSecret++
		}
		if r.Status != StatusSkipped && r.Status != StatusCanceled && r.Status != StatusNeedsSecret {
			ran++
		}
	}
	switch {
	case st.Done >= st.Total && canceled:
		st.State = StateCanceled
	case st.Done >= st.Total && st.NeedsSecret > 0:
		st.State = StateNeedsSecret // until batch resume
	case st.Done >= st.Total:
		st.State = StateDone
	}
	if el := now.Sub(spec.Created); el > time.Second && ran > 0 {
		st.RatePerMin = float64(ran) / el.Minutes()
		if st.State == StateRunning {
			st.LeftMS = int64(float64(st.Total-st.Done) / st.RatePerMin * 60000)
		}
	}
	return st
}

// Pending counts the rows not yet finished on the stream: waiting, or
// taken and not yet acked.
func (e *Engine) Pending(ctx context.Context) (uint64, error) {
	info, err := e.rows.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.Msgs, nil
}
