// Package batchd is the daemon's batch service: it runs package batch's
// engine (on an embedded NATS server under the state folder, or on the
// cluster [batch] nats names) and a worker whose rows run in the daemon's
// own browser and the [pool] endpoints, and answers the batch.* calls of
// the CLI. A batch survives the CLI that started it: it runs here until
// done, and a daemon started again goes on with what was left.
package batchd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/waymark-dev/waymark/batch"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/secret"
)

// Methods of the batch service.
const (
	MethodSubmit  = "batch.submit"  // SubmitParams → batch.Status
	MethodStatus  = "batch.status"  // IDParams → batch.Status; no id: StatusList
	MethodResults = "batch.results" // ResultsParams → ResultsReply
	MethodCancel  = "batch.cancel"  // IDParams → batch.Status
	MethodHeld    = "batch.held"    // IDParams → HeldReply
	MethodResume  = "batch.resume"  // ResumeParams → batch.Status
)

// SubmitParams start a batch.
type SubmitParams struct {
	Spec     batch.Spec                   `json:"spec"`
	Rows     []map[string]json.RawMessage `json:"rows"`
	Parallel int                          `json:"parallel"`
	// Secrets are the values of the references the rows name ("env:PIN"
	// → its value), read by the submitting command where it runs. The
	// daemon keeps them in memory for this batch only (batch.Vault):
	// never on the stream, in a file or a log. A reference left out holds
	// its rows as needs_secret.
	Secrets map[string]string `json:"secrets,omitempty"`
}

// ResumeParams hand over the secrets of a batch's held rows and put the
// rows back to run.
type ResumeParams struct {
	ID      string            `json:"id"`
	Secrets map[string]string `json:"secrets,omitempty"`
}

// HeldReply names the references a batch's held rows need.
type HeldReply struct {
	Refs []string `json:"refs"`
}

// IDParams name a batch.
type IDParams struct {
	ID string `json:"id,omitempty"`
}

// ResultsParams ask for the results written after revision After (0:
// all).
type ResultsParams struct {
	ID    string `json:"id"`
	After uint64 `json:"after,omitempty"`
}

// ResultsReply is what batch.results answers: the results, and the
// batch's status when they were read.
type ResultsReply struct {
	Status  batch.Status   `json:"status"`
	Results []batch.Result `json:"results"`
	// Rev is the revision to ask after next time.
	Rev uint64 `json:"rev"`
}

// StatusList is every batch's status, oldest first.
type StatusList struct {
	Batches []batch.Status `json:"batches"`
}

// Options configure a [Service].
type Options struct {
	// Dir is the embedded server's store.
	Dir string
	// Config is [batch] and [pool].
	Batch config.Batch
	Pool  config.Pool
	// Local is the daemon's session manager: its browser is the
	// endpoint "local".
	Local calls.Caller
	// Remote makes a session manager for a CDP endpoint of the pool.
	Remote func(endpoint string) (calls.Caller, func() error)
	Logger *slog.Logger
	// Worker names the daemon's worker; empty means "daemon-HOST".
	Worker string
}

// Service is the daemon's batch service. It starts nothing until the
// first batch call, or [Service.Resume] finds batches left.
type Service struct {
	opts Options
	log  *slog.Logger

	mu       sync.Mutex
	srv      *batch.Server
	nc       *nats.Conn
	e        *batch.Engine
	closers  []func() error
	parallel int
	stopWork context.CancelFunc
	workDone chan struct{}
	pool     *batch.Pool
	// vault holds the secrets submitters handed over; the daemon never
	// reads its own environment for a row (it is clean: secret.Environ).
	vault batch.Vault
}

// New returns a service; it starts nothing.
func New(opts Options) *Service {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Worker == "" {
		host, _ := os.Hostname()
		opts.Worker = "daemon-" + sanitize(host)
	}
	return &Service{opts: opts, log: log}
}

func sanitize(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' {
			b.WriteRune(c)
		}
	}
	if b.Len() == 0 {
		return "local"
	}
	return b.String()
}

// Connect opens a NATS connection for [batch] nats, with its credentials
// and TLS files; the worker command uses it too.
func Connect(b config.Batch, name string) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(500 * time.Millisecond)}
	if b.Creds != "" {
		opts = append(opts, nats.UserCredentials(b.Creds))
	}
	if b.TLSCA != "" {
		opts = append(opts, nats.RootCAs(b.TLSCA))
	}
	if b.TLSCert != "" || b.TLSKey != "" {
		opts = append(opts, nats.ClientCert(b.TLSCert, b.TLSKey))
	}
	nc, err := nats.Connect(b.NATS, opts...)
	if err != nil {
		return nil, calls.Errorf(calls.ErrUnavailable, "check [batch] nats (and its creds and TLS files), and that the NATS server runs", "connect to NATS at %s: %v", b.NATS, err)
	}
	return nc, nil
}

// engine starts (once) the server and the engine.
func (s *Service) engine(ctx context.Context) (*batch.Engine, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.e != nil {
		return s.e, nil
	}
	var nc *nats.Conn
	var err error
	if s.opts.Batch.NATS != "" {
		if nc, err = Connect(s.opts.Batch, "waymark-daemon"); err != nil {
			return nil, err
		}
	} else {
		if err := os.MkdirAll(s.opts.Dir, 0o700); err != nil {
			return nil, fmt.Errorf("the batch store: %w", err)
		}
		srv, err := batch.StartServer(batch.ServerOptions{Dir: s.opts.Dir, Listen: s.opts.Batch.Listen})
		if err != nil {
			return nil, err
		}
		if nc, err = srv.Connect(); err != nil {
			srv.Shutdown()
			return nil, err
		}
		s.srv = srv
		if u := srv.ClientURL(); u != "" {
			s.log.Info("batch: workers may connect", "url", u)
		}
	}
	e, err := batch.Open(ctx, nc, batch.EngineOptions{})
	if err != nil {
		nc.Close()
		if s.srv != nil {
			s.srv.Shutdown()
			s.srv = nil
		}
		return nil, err
	}
	s.nc, s.e = nc, e
	return e, nil
}

// Resume starts the engine and the worker when the store holds batches,
// so a daemon started again goes on with them. It is for the daemon's
// start; it logs what fails.
func (s *Service) Resume(ctx context.Context) {
	if s.opts.Batch.NATS == "" {
		if _, err := os.Stat(filepath.Join(s.opts.Dir, "jetstream")); err != nil {
			return
		}
	}
	e, err := s.engine(ctx)
	if err != nil {
		s.log.Warn("batch: resume", "err", err)
		return
	}
	ids, err := e.List(ctx)
	if err != nil || len(ids) == 0 {
		return
	}
	for _, id := range ids {
		if st, err := e.Status(ctx, id); err == nil && st.State == batch.StateRunning {
			s.log.Info("batch: resuming", "id", id, "done", st.Done, "total", st.Total)
			if err := s.work(e, 0); err != nil {
				s.log.Warn("batch: resume the worker", "err", err)
			}
			return
		}
	}
}

// work makes sure the daemon's worker runs, parallel rows at a time (0:
// as it is, or 4).
func (s *Service) work(e *batch.Engine, parallel int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopWork != nil {
		if parallel <= 0 || parallel == s.parallel {
			return nil
		}
		// Another parallel: the worker starts again with it, but only
		// when it has no rows in hand (stopping it would give them back
		// half done); else it keeps its own.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		n, err := e.Pending(ctx)
		cancel()
		if err != nil || n > 0 {
			return nil
		}
		s.stopWork()
		<-s.workDone
		s.pool.Close(context.Background())
		s.stopWork = nil
	}
	if parallel <= 0 {
		parallel = 4
	}
	eps, err := s.endpoints(parallel)
	if err != nil {
		return err
	}
	pool, err := e.NewPool(s.opts.Worker, eps)
	if err != nil {
		return err
	}
	total := 0
	for _, ep := range eps {
		total += ep.Max
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.stopWork, s.workDone, s.pool, s.parallel = cancel, done, pool, min(parallel, total)
	go func() { // exits when stopWork is called
		defer close(done)
		if err := e.Work(ctx, batch.WorkerOptions{Name: s.opts.Worker, Parallel: s.parallel, Pool: pool, Secrets: &s.vault, Logger: s.log,
			// A daemon stopping lets rows under way finish a little, so
			// fewer come back uncertain.
			Grace: 3 * time.Second}); err != nil {
			s.log.Error("batch: worker", "err", err)
		}
	}()
	return nil
}

// endpoints reads [pool] endpoints: "URL max=N" or "local max=N".
func (s *Service) endpoints(parallel int) ([]batch.Endpoint, error) {
	list := s.opts.Pool.Endpoints
	if len(list) == 0 {
		list = []string{"local max=" + strconv.Itoa(parallel)}
	}
	host, _ := os.Hostname()
	var eps []batch.Endpoint
	for _, raw := range list {
		ep, max, err := ParseEndpoint(raw)
		if err != nil {
			return nil, err
		}
		if ep == "local" {
			eps = append(eps, batch.Endpoint{Name: "local:" + host + ":" + s.opts.Worker, Caller: s.opts.Local, Max: max})
			continue
		}
		if s.opts.Remote == nil {
			return nil, calls.Errorf(calls.ErrBadInput, "", "CDP endpoints are not supported here")
		}
		c, closeIt := s.opts.Remote(ep)
		s.closers = append(s.closers, closeIt)
		eps = append(eps, batch.Endpoint{Name: ep, Caller: c, Max: max})
	}
	return eps, nil
}

// ParseEndpoint reads one [pool] endpoint: "ws://host:9222 max=6", or
// "local"; no max means 4.
func ParseEndpoint(raw string) (string, int, error) {
	f := strings.Fields(raw)
	if len(f) == 0 || len(f) > 2 {
		return "", 0, calls.Errorf(calls.ErrBadInput, `write "ws://host:9222 max=4" or "local max=4"`, "bad [pool] endpoint %q", raw)
	}
	max := 4
	if len(f) == 2 {
		v, ok := strings.CutPrefix(f[1], "max=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 1 {
			return "", 0, calls.Errorf(calls.ErrBadInput, `write "ws://host:9222 max=4"`, "bad max in [pool] endpoint %q", raw)
		}
		max = n
	}
	return f[0], max, nil
}

// Handles says whether the method is the service's.
func Handles(method string) bool { return strings.HasPrefix(method, "batch.") }

// Handle answers one batch call.
func (s *Service) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	e, err := s.engine(ctx)
	if err != nil {
		return nil, err
	}
	switch method {
	case MethodSubmit:
		var p SubmitParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		// The worker first: a new parallel can start it again only while
		// no rows are left.
		if err := s.work(e, p.Parallel); err != nil {
			return nil, err
		}
		// The values go in before the rows go out, under the id the
		// rows will carry.
		if p.Spec.ID == "" {
			p.Spec.ID = batch.NewID()
		}
		if s.vault.Has(p.Spec.ID) {
			return nil, calls.Errorf(calls.ErrBadInput, "choose another id", "batch %s is being submitted already", p.Spec.ID)
		}
		s.vault.Put(p.Spec.ID, values(p.Secrets))
		spec, err := e.Submit(ctx, p.Spec, p.Rows)
		if err != nil {
			s.vault.Forget(p.Spec.ID)
			return nil, err
		}
		return s.status(ctx, e, spec.ID)
	case MethodHeld:
		var p IDParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		refs, err := e.HeldRefs(ctx, p.ID)
		if err != nil {
			return nil, err
		}
		out := HeldReply{Refs: []string{}}
		for _, r := range refs {
			out.Refs = append(out.Refs, r.String())
		}
		return out, nil
	case MethodResume:
		var p ResumeParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		if err := s.work(e, 0); err != nil {
			return nil, err
		}
		s.vault.Put(p.ID, values(p.Secrets))
		if _, err := e.Resume(ctx, p.ID); err != nil {
			return nil, err
		}
		return s.status(ctx, e, p.ID)
	case MethodStatus:
		var p IDParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		if p.ID != "" {
			return s.status(ctx, e, p.ID)
		}
		ids, err := e.List(ctx)
		if err != nil {
			return nil, err
		}
		out := StatusList{Batches: []batch.Status{}}
		for _, id := range ids {
			if st, err := e.Status(ctx, id); err == nil {
				out.Batches = append(out.Batches, *st)
			}
		}
		return out, nil
	case MethodResults:
		var p ResultsParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		st, err := s.status(ctx, e, p.ID)
		if err != nil {
			return nil, err
		}
		res, rev, err := e.ResultsAfter(ctx, p.ID, p.After)
		if err != nil {
			return nil, err
		}
		if res == nil {
			res = []batch.Result{}
		}
		return ResultsReply{Status: *st, Results: res, Rev: rev}, nil
	case MethodCancel:
		var p IDParams
		if err := decode(params, &p); err != nil {
			return nil, err
		}
		s.vault.Forget(p.ID)
		return e.Cancel(ctx, p.ID)
	}
	return nil, calls.Errorf(calls.ErrBadInput, "update waymark: the CLI and the daemon may be of different versions", "unknown method %q", method)
}

// status is a batch's status; once it is done or canceled, the secrets
// handed over for it are dropped.
func (s *Service) status(ctx context.Context, e *batch.Engine, id string) (*batch.Status, error) {
	st, err := e.Status(ctx, id)
	if err == nil && (st.State == batch.StateDone || st.State == batch.StateCanceled) {
		s.vault.Forget(id)
	}
	return st, err
}

// values are secrets as the wire carries them, as secret values.
func values(m map[string]string) map[string]secret.Value {
	out := make(map[string]secret.Value, len(m))
	for ref, v := range m {
		out[ref] = secret.New(ref, v)
	}
	return out
}

func decode(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return nil
	}
	if err := json.Unmarshal(params, v); err != nil {
		return calls.Errorf(calls.ErrBadInput, "", "bad params: %v", err)
	}
	return nil
}

// Busy says a batch has rows left, so the daemon must not stop for being
// idle.
func (s *Service) Busy() bool {
	s.mu.Lock()
	e := s.e
	s.mu.Unlock()
	if e == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	n, err := e.Pending(ctx)
	return err == nil && n > 0
}

// Close stops the worker (its rows go back to the stream), the pool and
// the server.
func (s *Service) Close() error {
	s.mu.Lock()
	stop, done, pool := s.stopWork, s.workDone, s.pool
	s.stopWork = nil
	s.mu.Unlock()
	if stop != nil {
		stop()
		<-done
		pool.Close(context.Background())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, c := range s.closers {
		errs = append(errs, c())
	}
	if s.nc != nil {
		s.nc.Close()
	}
	if s.srv != nil {
		s.srv.Shutdown()
	}
	s.e, s.nc, s.srv = nil, nil, nil
	return errors.Join(errs...)
}
