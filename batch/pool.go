package batch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// Endpoint is one browser the pool leases sessions of: the local browser
// (a daemon's session manager) or one at a CDP endpoint.
type Endpoint struct {
	// Name identifies the browser across workers ("local:host", or the
	// ws:// URL), so that two workers on one browser share its maximum.
	Name string
	// Caller makes the calls of its sessions: a session is a browser
	// context of its own.
	Caller calls.Caller
	// Max is how many sessions may run on it at once, over every worker;
	// zero means 4.
	Max int
}

// Pool leases browser sessions for rows. A lease is a key in a bucket
// with a time to live that the pool renews while it holds the lease, so a
// dead worker's leases come free on their own. A session given back stays
// warm, leased, for the next row of the same routine.
type Pool struct {
	e      *Engine
	worker string
	eps    []Endpoint

	mu    sync.Mutex
	idle  []*slot // warm sessions, leased, between rows
	held  map[string]*slot
	taken []time.Duration // lease to warm session, for [Pool.LeaseTimes]
	stop  chan struct{}
	wg    sync.WaitGroup
}

type slot struct {
	ep       int
	idleAt   time.Time // when it was given back
	key      string    // the lease's key
	session  string
	routine  string // the routine hash it last ran; "" when fresh
	warmable bool   // it ran a row and may be reused
}

// NewPool makes a pool over the endpoints for one worker (its name is in
// the session names and the leases).
func (e *Engine) NewPool(worker string, eps []Endpoint) (*Pool, error) {
	if len(eps) == 0 {
		return nil, calls.Errorf(calls.ErrBadInput, "name a browser: the local one, or [pool] endpoints", "the pool has no browser")
	}
	if !validID(worker) {
		return nil, calls.Errorf(calls.ErrBadInput, "use letters, digits and dashes", "bad worker name %q", worker)
	}
	p := &Pool{e: e, worker: worker, eps: slices.Clone(eps), held: map[string]*slot{}, stop: make(chan struct{})}
	for i := range p.eps {
		if p.eps[i].Max <= 0 {
			p.eps[i].Max = 4
		}
	}
	p.wg.Add(1)
	go p.renew() // exits when Close closes stop
	return p, nil
}

// Lease is a session held for one row.
type Lease struct {
	p *Pool
	s *slot
	// Warm says the session ran a row of the same routine before.
	Warm bool
	// Took is the time from the request to a session ready for the row.
	Took time.Duration
}

// Endpoint names the browser the lease is on.
func (l *Lease) Endpoint() string { return l.p.eps[l.s.ep].Name }

// Driver is the lease's session: every call a session answers, so a
// row's routine runs every step it has (forms, sheets, documents, API
// calls) whatever wraps it.
func (l *Lease) Driver() calls.Session { return l.driver(nil) }

// driver is the lease's session, telling note the outcome of every call
// (nil: none) whichever call it was, so the worker's retry policy sees the
// last error of a form fill or an API call as well as of a click.
func (l *Lease) driver(note func(error)) calls.Session {
	var c calls.Caller = l.p.eps[l.s.ep].Caller
	if note != nil {
		c = noting{c, note}
	}
	return calls.Remote{Caller: c, Session: l.s.session}
}

// noting is a Caller that tells each call's error (nil for none).
type noting struct {
	calls.Caller
	note func(error)
}

func (n noting) Call(ctx context.Context, session, method string, params, result any) error {
	err := n.Caller.Call(ctx, session, method, params, result)
	n.note(err)
	return err
}

// Release gives the session back. A broken one (its browser crashed) is
// closed and its lease dropped; the others stay warm.
func (l *Lease) Release(ctx context.Context, broken bool) {
	p := l.p
	if broken {
		p.drop(ctx, l.s)
		return
	}
	l.s.warmable, l.s.idleAt = true, time.Now()
	p.mu.Lock()
	p.idle = append(p.idle, l.s)
	p.mu.Unlock()
}

// Acquire leases a session for a row of the routine, waiting for a free
// one while every endpoint is full. A warm session of the same routine
// comes first; its cookies are cleared unless keepCookies.
func (p *Pool) Acquire(ctx context.Context, routineHash string, keepCookies bool) (*Lease, error) {
	start := time.Now()
	for {
		s, warm := p.takeIdle(routineHash)
		if s == nil {
			var err error
			if s, err = p.newLease(ctx); err != nil {
				return nil, err
			}
		}
		if s != nil {
			if s.routine != routineHash && s.warmable {
				// Another routine ran here: a fresh context, so nothing
				// of it leaks into this one.
				p.closeSession(ctx, s)
				s.session = p.sessionName(s)
			}
			if warm && !keepCookies {
				_, err := calls.Remote{Caller: p.eps[s.ep].Caller, Session: s.session}.Cookies(ctx, calls.CookieRequest{Op: "clear"})
				if err != nil {
					p.drop(ctx, s)
					continue
				}
			}
			s.routine = routineHash
			l := &Lease{p: p, s: s, Warm: warm, Took: time.Since(start)}
			if warm {
				p.mu.Lock()
				p.taken = append(p.taken, l.Took)
				p.mu.Unlock()
			}
			return l, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// takeIdle takes a warm session, of the routine if there is one.
func (p *Pool) takeIdle(routineHash string) (*slot, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) == 0 {
		return nil, false
	}
	i := slices.IndexFunc(p.idle, func(s *slot) bool { return s.routine == routineHash })
	warm := i >= 0
	if !warm {
		i = 0
	}
	s := p.idle[i]
	p.idle = slices.Delete(p.idle, i, i+1)
	return s, warm
}

// newLease takes a free place on an endpoint, or returns nil, nil when
// every one is full.
func (p *Pool) newLease(ctx context.Context) (*slot, error) {
	for ep, e := range p.eps {
		for i := range e.Max {
			key := "ep" + keyHash(e.Name) + ".s" + strconv.Itoa(i)
			if _, err := p.e.leases.Create(ctx, key, []byte(p.worker)); err != nil {
				if errors.Is(err, jetstream.ErrKeyExists) {
					continue
				}
				return nil, fmt.Errorf("batch: lease a session: %w", err)
			}
			s := &slot{ep: ep, key: key}
			s.session = p.sessionName(s)
			p.mu.Lock()
			p.held[key] = s
			p.mu.Unlock()
			return s, nil
		}
	}
	return nil, nil
}

var sessionSeq struct {
	sync.Mutex
	n int
}

func (p *Pool) sessionName(s *slot) string {
	sessionSeq.Lock()
	sessionSeq.n++
	n := sessionSeq.n
	sessionSeq.Unlock()
	return rpc.WorkerSession(p.worker, s.ep, n)
}

func (p *Pool) closeSession(ctx context.Context, s *slot) {
	_ = rpc.Daemon{Caller: p.eps[s.ep].Caller, Session: s.session}.CloseSession(ctx)
}

// drop closes a session and frees its lease.
func (p *Pool) drop(ctx context.Context, s *slot) {
	p.closeSession(ctx, s)
	p.mu.Lock()
	delete(p.held, s.key)
	p.mu.Unlock()
	_ = p.e.leases.Delete(ctx, s.key)
}

// renew writes every held lease again each third of its time to live.
func (p *Pool) renew() {
	defer p.wg.Done()
	t := time.NewTicker(p.e.opts.LeaseTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		// A session idle for a lease's time to live is given up, so a
		// worker with no rows left does not keep browsers from others.
		p.mu.Lock()
		var stale []*slot
		p.idle = slices.DeleteFunc(p.idle, func(s *slot) bool {
			if time.Since(s.idleAt) > p.e.opts.LeaseTTL {
				stale = append(stale, s)
				return true
			}
			return false
		})
		keys := make([]string, 0, len(p.held))
		for k, s := range p.held {
			if !slices.Contains(stale, s) {
				keys = append(keys, k)
			}
		}
		p.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), p.e.opts.LeaseTTL/3)
		for _, s := range stale {
			p.drop(ctx, s)
		}
		for _, k := range keys {
			_, _ = p.e.leases.Put(ctx, k, []byte(p.worker))
		}
		cancel()
	}
}

// LeaseTimes returns the times from a lease request to a warm session,
// sorted, for measures.
func (p *Pool) LeaseTimes() []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := slices.Clone(p.taken)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Close closes the pool's sessions and frees its leases.
func (p *Pool) Close(ctx context.Context) {
	close(p.stop)
	p.wg.Wait()
	p.mu.Lock()
	held := make([]*slot, 0, len(p.held))
	for _, s := range p.held {
		held = append(held, s)
	}
	p.idle = nil
	p.mu.Unlock()
	for _, s := range held {
		p.drop(ctx, s)
	}
}
