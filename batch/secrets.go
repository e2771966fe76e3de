package batch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

// A row whose secret its worker cannot read is held, not failed: its
// result is needs_secret, the row waits in the journal (its references
// only, as on the stream), and [Engine.Resume] puts it back on the stream
// once someone hands the values over.
const (
	StatusNeedsSecret = "needs_secret"
	CauseSecret       = "secret"
	// StateNeedsSecret is a batch whose other rows are done while some
	// wait for their secrets.
	StateNeedsSecret = "needs_secret"
)

// Secrets reads the secrets a batch's rows name, where the worker runs.
// A value that is not there is an error wrapping [secret.ErrUnset]: the
// row is held as needs_secret.
type Secrets interface {
	Resolve(batch string, ref secret.Ref, name string) (secret.Value, error)
}

// EnvSecrets reads env: references from getenv (nil: the process's own
// environment) and file: references from the worker's files: what
// `waymark worker` does. No one is there to prompt.
type EnvSecrets func(string) string

// Resolve reads ref.
func (g EnvSecrets) Resolve(_ string, ref secret.Ref, name string) (secret.Value, error) {
	getenv := (func(string) string)(g)
	if getenv == nil {
		getenv = os.Getenv
	}
	return ref.Resolve(secret.Sources{Getenv: getenv, ReadFile: os.ReadFile}, name)
}

// Vault holds the secrets the command that submitted a batch read for it
// (from its own environment, files or terminal) and handed over: in
// memory only, a batch's values for that batch's rows alone. It is the
// daemon's source, whose own environment is clean (secret.Environ): a
// daemon started again holds none, and rows that need one wait as
// needs_secret until `waymark batch resume` hands them over again. It is
// safe for concurrent use.
type Vault struct {
	mu sync.Mutex // guards byBatch
	// byBatch maps a batch id to its values by reference ("env:PIN").
	byBatch map[string]map[string]secret.Value
}

// Put adds the values of a batch, by reference as [secret.Ref.String]
// writes it.
func (v *Vault) Put(batch string, values map[string]secret.Value) {
	if len(values) == 0 {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.byBatch == nil {
		v.byBatch = map[string]map[string]secret.Value{}
	}
	m := v.byBatch[batch]
	if m == nil {
		m = map[string]secret.Value{}
		v.byBatch[batch] = m
	}
	for ref, val := range values {
		m[ref] = val
	}
}

// Forget drops a batch's values: it is done, canceled, or its submit
// failed.
func (v *Vault) Forget(batch string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.byBatch, batch)
}

// Has says whether the vault holds values for the batch.
func (v *Vault) Has(batch string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.byBatch[batch]) > 0
}

// Resolve returns the value handed over for ref in this batch.
func (v *Vault) Resolve(batch string, ref secret.Ref, name string) (secret.Value, error) {
	v.mu.Lock()
	val, ok := v.byBatch[batch][ref.String()]
	v.mu.Unlock()
	if !ok {
		return secret.Value{}, &secret.RefError{Ref: ref.String(), Err: secret.ErrUnset,
			Reason: ref.String() + " was not handed over for this batch (the daemon keeps secrets in memory only)"}
	}
	return secret.New(name, val.Reveal()), nil
}

// RowRefs returns the distinct references the rows name for the batch's
// secret variables (the routine's and its sign-in routines',
// [Spec.Variables]), in the order first named: what the submitting
// command reads and hands over. A row that names a bad one is an error,
// as [Engine.Submit] would say.
func RowRefs(spec *Spec, rows []map[string]json.RawMessage) ([]secret.Ref, error) {
	vars, err := spec.Variables()
	if err != nil {
		return nil, err
	}
	var refs []secret.Ref
	for i, f := range rows {
		if err := checkRow(vars, f); err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, calls.Hint(err), "row %d: %v", i+1, err)
		}
		for _, v := range vars {
			if !v.Secret {
				continue
			}
			s, _ := refOf(f[v.Name])
			ref, _ := secret.ParseRef(s) // checked by checkRow
			if !slices.Contains(refs, ref) {
				refs = append(refs, ref)
			}
		}
	}
	return refs, nil
}

// secrets is the worker's source: WorkerOptions.Secrets, or its
// environment.
func (w *worker) secrets() Secrets {
	if w.opts.Secrets != nil {
		return w.opts.Secrets
	}
	return EnvSecrets(w.opts.Getenv)
}

// hold keeps a row whose secret is not there, for [Engine.Resume]: the
// row as it came off the stream (references, never values).
func (w *worker) hold(ctx context.Context, row Row) error {
	b, err := json.Marshal(row)
	if err != nil {
		return err
	}
	_, err = w.e.journal.Put(ctx, rowKeyName(row.Batch, row.N)+".held", b)
	return err
}

// needsSecret is the result of a row held for its secret.
func needsSecret(res Result, err error) Result {
	res.Status, res.Cause, res.Message = StatusNeedsSecret, CauseSecret, err.Error()
	res.Hint = "set it where the batch was submitted, then run: " + calls.Cmd("batch resume") + " " + res.Batch
	return res
}

// HeldRefs returns the distinct references the held rows of a batch name:
// what `waymark batch resume` reads and hands over.
func (e *Engine) HeldRefs(ctx context.Context, id string) ([]secret.Ref, error) {
	spec, err := e.Spec(ctx, id)
	if err != nil {
		return nil, err
	}
	rows, err := e.held(ctx, id)
	if err != nil {
		return nil, err
	}
	fields := make([]map[string]json.RawMessage, 0, len(rows))
	for _, h := range rows {
		fields = append(fields, h.row.Fields)
	}
	return RowRefs(spec, fields)
}

type heldRow struct {
	key string // the journal key
	rev uint64
	row Row
}

// held reads a batch's held rows, in row order.
func (e *Engine) held(ctx context.Context, id string) ([]heldRow, error) {
	if !validID(id) {
		return nil, calls.Errorf(calls.ErrBadInput, "list them with "+calls.Cmd("batch status"), "bad batch id %q", id)
	}
	lister, err := e.journal.ListKeysFiltered(ctx, id+".*.held")
	if err != nil {
		return nil, err
	}
	var out []heldRow
	for k := range lister.Keys() {
		ent, err := e.journal.Get(ctx, k)
		if err != nil {
			continue // resumed meanwhile
		}
		var row Row
		if json.Unmarshal(ent.Value(), &row) != nil || row.Batch != id {
			continue
		}
		out = append(out, heldRow{key: k, rev: ent.Revision(), row: row})
	}
	slices.SortFunc(out, func(a, b heldRow) int { return a.row.N - b.row.N })
	return out, nil
}

// Resume puts a batch's held rows back on the stream, for the workers to
// run now that their secrets were handed over (the daemon's [Vault]) or
// set where a worker runs. Each held row's needs_secret result goes
// before its row goes back, so a worker never takes the row for done. A
// canceled batch is not resumed.
func (e *Engine) Resume(ctx context.Context, id string) (*Status, error) {
	if _, err := e.Spec(ctx, id); err != nil {
		return nil, err
	}
	if e.canceled(ctx, id) {
		return nil, calls.Errorf(calls.ErrBadInput, "submit its rows again as a new batch", "batch %s was canceled", id)
	}
	rows, err := e.held(ctx, id)
	if err != nil {
		return nil, err
	}
	for _, h := range rows {
		key := rowKeyName(id, h.row.N)
		if ent, err := e.results.Get(ctx, key); err == nil {
			var r Result
			if json.Unmarshal(ent.Value(), &r) == nil && r.Status != StatusNeedsSecret {
				_ = e.journal.Delete(ctx, h.key) // it ran meanwhile
				continue
			}
			if err := e.results.Delete(ctx, key, jetstream.LastRevision(ent.Revision())); err != nil {
				return nil, fmt.Errorf("batch: resume row %d: %w", h.row.N, err)
			}
		} else if !errors.Is(err, jetstream.ErrKeyNotFound) {
			return nil, err
		}
		data, _ := json.Marshal(h.row)
		msgID := id + "." + strconv.Itoa(h.row.N) + ".held" + strconv.FormatUint(h.rev, 10)
		if _, err := e.js.Publish(ctx, rowsSubject+id, data, jetstream.WithMsgID(msgID)); err != nil {
			return nil, fmt.Errorf("batch: put row %d back on the stream: %w", h.row.N, err)
		}
		_ = e.journal.Delete(ctx, h.key, jetstream.LastRevision(h.rev))
	}
	return e.Status(ctx, id)
}

// isUnset says the row's secret is not there (rather than badly named).
func isUnset(err error) bool { return errors.Is(err, secret.ErrUnset) }
