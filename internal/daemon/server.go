package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/wait"
	"github.com/waymark-dev/waymark/secret"
)

// Handler answers the requests the server does not answer itself: page
// calls and session calls. It is called concurrently for different sessions,
// one request at a time for each session. An error's category travels to the
// client (calls.Code, calls.Hint); a panic is recovered and answered as
// "internal". If the Handler is an [io.Closer], Run closes it when the
// server stops: that is where the browser is closed.
type Handler interface {
	Handle(ctx context.Context, session, method string, params json.RawMessage) (any, error)
}

// StatusReporter is what a Handler may add to daemon.status.
type StatusReporter interface {
	// Status returns the browser's executable or CDP endpoint ("" before
	// the first page call) and the number of open sessions. It must not block.
	Status() (browser string, sessions int)
}

// Busy is what a Handler may say to keep the daemon up with no client
// connected: work under way that no request waits for (a batch).
type Busy interface {
	Busy() bool
}

// Options configure a [Server]. The zero value serves on the default socket
// with a handler that knows no methods.
type Options struct {
	// Socket is the socket's path; empty means [DefaultPaths].
	Socket string
	// Handler answers every method but daemon.status and daemon.stop; nil
	// refuses them as unknown.
	Handler Handler
	// Logger gets one line a request (session, method, dur_ms, sizes; never
	// params); nil discards.
	Logger *slog.Logger
	// Version is the binary's version, sent in the hello.
	Version string
	// Settings are the settings the daemon read when it started, sent in
	// the hello and in daemon.status (see rpc.Hello); nil sends none.
	Settings map[string]string
	// Now is the clock of the uptime; nil means time.Now.
	Now func() time.Time
	// IdleTimeout stops the server once no client has been connected for
	// that long; zero means never.
	IdleTimeout time.Duration
	// Grace is how long requests under way may go on once the server
	// stops, before their contexts are canceled; zero means 5 s.
	Grace time.Duration
	// Unqueued answers the methods it names, each request at once, in no
	// session's lane: a method that makes calls of its own through this
	// server (rpc.MethodCLIRun runs a CLI command in the daemon, and the
	// command's calls queue in their session's lane) would otherwise wait
	// behind itself. Such a request is canceled, like any other, when its
	// client cancels it or hangs up.
	Unqueued map[string]UnqueuedFunc
}

// UnqueuedFunc answers a request of [Options].Unqueued. dial connects to
// this server in memory, a connection served as a client's is (a hello
// each way, then requests in their sessions' lanes) without the socket;
// it closes when the request ends.
type UnqueuedFunc func(ctx context.Context, dial func(context.Context) (net.Conn, error), params json.RawMessage) (any, error)

// Server is the daemon's socket server. It owns its socket file; the
// browser belongs to the Handler.
type Server struct {
	opts    Options
	h       Handler
	log     *slog.Logger
	now     func() time.Time
	paths   Paths
	pathErr error
	lanes   lanes

	stopOnce sync.Once
	stop     chan struct{} // closed by daemon.stop
	poke     chan struct{} // a connection came or went; capacity 1

	connW sync.WaitGroup // connections accepted by Run, being served

	mu       sync.Mutex // guards the fields below
	started  time.Time
	conns    map[net.Conn]struct{}
	stopping bool          // no new requests are taken
	active   int           // requests being handled
	drained  chan struct{} // closed when stopping and active is 0
}

// New returns a server; it starts nothing.
func New(opts Options) *Server {
	s := &Server{
		opts:  opts,
		h:     opts.Handler,
		log:   opts.Logger,
		now:   opts.Now,
		stop:  make(chan struct{}),
		poke:  make(chan struct{}, 1),
		conns: make(map[net.Conn]struct{}),

		drained: make(chan struct{}),
	}
	if s.h == nil {
		s.h = noHandler{}
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	// Every line the daemon logs is redacted (STYLE rule 21): it logs the
	// error of every failed request, and an error may quote what a page
	// or a caller sent.
	s.log = slog.New(secret.NewHandler(s.log.Handler(), nil))
	if s.now == nil {
		s.now = time.Now
	}
	if s.opts.Grace <= 0 {
		s.opts.Grace = 5 * time.Second
	}
	s.paths, s.pathErr = PathsFor(opts.Socket)
	s.started = s.now()
	return s
}

// Run listens, then serves until ctx is done, a daemon.stop request comes or
// the server has been idle for IdleTimeout. Then it stops listening (which
// removes the socket file), gives requests under way Grace to finish,
// cancels the rest, closes the connections and closes the Handler if it is
// an io.Closer. It returns an error wrapping [ErrAlreadyRunning] if another
// daemon answers on the socket, and otherwise the Handler's Close error.
func (s *Server) Run(ctx context.Context) error {
	if s.pathErr != nil {
		return s.pathErr
	}
	// The clock starts before the socket answers, so a status asked as
	// soon as it does never counts from a later start.
	s.mu.Lock()
	s.started = s.now()
	s.mu.Unlock()
	ln, err := Listen(s.paths)
	if err != nil {
		return err
	}
	s.log.Info("listening", "socket", s.paths.Socket, "pid", os.Getpid(), "version", s.opts.Version)

	// Requests outlive ctx by the grace period, so they hang off a
	// context of their own.
	base, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	accepted := make(chan struct{})
	go func() { // exits when ln is closed
		defer close(accepted)
		s.accept(base, ln)
	}()

	reason := s.wait(ctx)
	s.log.Info("stopping", "reason", reason)
	ln.Close()
	<-accepted

	s.mu.Lock()
	s.stopping = true
	if s.active == 0 {
		close(s.drained)
	}
	s.mu.Unlock()
	if !wait.Closed(s.drained, s.opts.Grace) {
		s.log.Warn("requests still under way; canceling them", "grace_ms", s.opts.Grace.Milliseconds())
		cancel()
		wait.Closed(s.drained, time.Second)
	}
	cancel()
	s.closeConns()
	waitTimeout(&s.connW, time.Second)

	if c, ok := s.h.(io.Closer); ok {
		if err := c.Close(); err != nil {
			s.log.Error("closing the handler", "err", err)
			return fmt.Errorf("close the daemon's sessions: %w", err)
		}
	}
	s.log.Info("stopped")
	return nil
}

// wait blocks until the server should stop and says why.
func (s *Server) wait(ctx context.Context) string {
	var idle *time.Timer
	if s.opts.IdleTimeout > 0 {
		idle = time.NewTimer(s.opts.IdleTimeout)
		defer idle.Stop()
	}
	for {
		var idleC <-chan time.Time
		if idle != nil && s.connCount() == 0 {
			idleC = idle.C
		}
		select {
		case <-ctx.Done():
			return "signal or context done"
		case <-s.stop:
			return "daemon.stop"
		case <-s.poke:
			if idle != nil {
				idle.Reset(s.opts.IdleTimeout)
			}
		case <-idleC:
			if b, ok := s.h.(Busy); ok && b.Busy() {
				// Work goes on with no client (a batch): not idle.
				idle.Reset(s.opts.IdleTimeout)
				continue
			}
			if s.connCount() == 0 {
				return "idle"
			}
		}
	}
}

func (s *Server) accept(ctx context.Context, ln net.Listener) {
	for {
		nc, err := ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				s.log.Error("accept", "err", err)
			}
			return
		}
		if err := checkPeer(nc); err != nil {
			s.log.Warn("refused a connection", "err", err)
			nc.Close()
			continue
		}
		s.connW.Add(1)
		go func() { // exits when the connection closes
			defer s.connW.Done()
			s.ServeConn(ctx, nc)
		}()
	}
}

// requestStop makes Run return.
func (s *Server) requestStop() { s.stopOnce.Do(func() { close(s.stop) }) }

func (s *Server) track(nc net.Conn, on bool) {
	s.mu.Lock()
	if on {
		s.conns[nc] = struct{}{}
	} else {
		delete(s.conns, nc)
	}
	s.mu.Unlock()
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

func (s *Server) connCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

func (s *Server) closeConns() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for nc := range s.conns {
		nc.Close()
	}
}

func (s *Server) status() rpc.DaemonStatus {
	st := rpc.DaemonStatus{PID: os.Getpid(), Version: s.opts.Version, Socket: s.paths.Socket, Settings: s.opts.Settings}
	s.mu.Lock()
	st.UptimeMS = s.now().Sub(s.started).Milliseconds()
	s.mu.Unlock()
	if r, ok := s.h.(StatusReporter); ok {
		st.Browser, st.Sessions = r.Status()
	}
	return st
}

// begin counts a request in, unless the server is stopping.
func (s *Server) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping {
		return false
	}
	s.active++
	return true
}

// end counts a request out.
func (s *Server) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active--; s.active == 0 && s.stopping {
		close(s.drained)
	}
}

// waitTimeout waits for wg at most d and reports whether it finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { // exits when wg is done; left behind only if a connection never closes
		wg.Wait()
		close(done)
	}()
	return wait.Closed(done, d)
}
