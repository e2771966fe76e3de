package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/timing"
)

// helloTimeout bounds the wait for a client's hello.
const helloTimeout = 10 * time.Second

// ServeConn serves one client connection until it closes or ctx is done:
// it reads the client's hello, sends its own, then answers requests. When
// the client hangs up, its requests' contexts are canceled. Run calls it for
// each connection it accepts; tests call it with one end of a net.Pipe.
func (s *Server) ServeConn(ctx context.Context, nc net.Conn) {
	s.track(nc, true)
	defer s.track(nc, false)
	defer nc.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { nc.Close() })
	defer stop()

	c := &conn{s: s, nc: nc, w: rpc.NewWriter(nc, 0), inflight: make(map[uint64]context.CancelFunc)}
	r := rpc.NewReader(nc, 0)
	if err := c.hello(r); err != nil {
		if !errors.Is(err, io.EOF) { // a bare dial, such as Listen's check, is no error
			s.log.Warn("hello", "err", err)
		}
		return
	}
	for {
		m, err := r.Read()
		switch {
		case err == nil:
		case errors.Is(err, rpc.ErrMalformed), errors.Is(err, rpc.ErrInvalid):
			s.log.Warn("bad line", "err", err)
			if m != nil && m.ID != 0 {
				c.reply(m.ID, nil, calls.Errorf(calls.ErrBadInput, "", "bad request: %v", err))
			}
			continue
		default:
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				s.log.Warn("read", "err", err)
			}
			// The client hung up: cancel what it asked, and wait for
			// the handlers to return so none outlives its connection.
			cancel()
			c.wg.Wait()
			return
		}
		switch k, _ := m.Kind(); k {
		case rpc.KindRequest:
			c.dispatch(ctx, m)
		case rpc.KindCancel:
			c.cancel(m.ID)
		default:
			s.log.Warn("unexpected message", "kind", k.String())
		}
	}
}

// conn is one client connection.
type conn struct {
	s  *Server
	nc net.Conn
	w  *rpc.Writer
	wg sync.WaitGroup // request goroutines

	mu       sync.Mutex // guards inflight
	inflight map[uint64]context.CancelFunc
}

// hello reads the client's hello and answers with ours. A client of another
// protocol still gets our hello, so it can say what runs here.
func (c *conn) hello(r *rpc.Reader) error {
	c.nc.SetReadDeadline(time.Now().Add(helloTimeout))
	m, err := r.Read()
	c.nc.SetReadDeadline(time.Time{})
	if err == nil && m.Hello == nil {
		err = fmt.Errorf("first line is not a hello")
	}
	if m == nil && err != nil && !errors.Is(err, rpc.ErrInvalid) {
		return err
	}
	werr := c.w.Write(&rpc.Message{V: rpc.Version, Hello: &rpc.Hello{Binary: c.s.opts.Version, PID: os.Getpid(), Settings: c.s.opts.Settings}})
	if err != nil {
		return err
	}
	return werr
}

// dispatch starts a request. Its ticket in the session's lane is taken here,
// in the reading goroutine, so that the lane keeps the arrival order.
func (c *conn) dispatch(ctx context.Context, m *rpc.Message) {
	switch m.Method {
	case rpc.MethodDaemonStatus:
		c.reply(m.ID, c.s.status(), nil)
		return
	case rpc.MethodDaemonStop:
		c.s.log.Info("request", "method", m.Method)
		c.reply(m.ID, struct{}{}, nil)
		c.s.requestStop()
		return
	}
	if !c.s.begin() {
		c.reply(m.ID, nil, calls.Errorf(calls.ErrUnavailable, "run the command again", "the waymark daemon is stopping"))
		return
	}
	rctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	if _, dup := c.inflight[m.ID]; dup {
		c.mu.Unlock()
		cancel()
		c.s.end()
		c.reply(m.ID, nil, calls.Errorf(calls.ErrBadInput, "", "request id %d is already in use", m.ID))
		return
	}
	c.inflight[m.ID] = cancel
	c.mu.Unlock()

	handle := func(ctx context.Context) (any, error) { return c.s.h.Handle(ctx, m.Session, m.Method, m.Params) }
	var t *ticket // nil: an unqueued method, in no lane
	if fn, ok := c.s.opts.Unqueued[m.Method]; ok {
		handle = func(ctx context.Context) (any, error) {
			dial := func(context.Context) (net.Conn, error) { return c.s.pipe(ctx), nil }
			return fn(ctx, dial, m.Params)
		}
	} else {
		t = c.s.lanes.join(m.Session)
	}
	c.wg.Add(1)
	go func() { // exits when the handler returns (its context ends with the connection)
		defer c.wg.Done()
		defer c.s.end()
		start := time.Now()
		var res any
		var err error
		if t != nil {
			err = t.wait(rctx)
			timing.Since(start, "lane "+m.Method)
		}
		if err == nil {
			endSpan := timing.Span("rpc " + m.Method)
			res, err = c.s.call(rctx, m, handle)
			endSpan()
		}
		c.mu.Lock()
		delete(c.inflight, m.ID)
		c.mu.Unlock()
		cancel()
		endReply := timing.Span("reply " + m.Method)
		n := c.reply(m.ID, res, err)
		endReply()
		attrs := []any{"session", m.Session, "method", m.Method,
			"dur_ms", time.Since(start).Milliseconds(), "params_bytes", len(m.Params), "result_bytes", n}
		if err != nil {
			c.s.log.Info("request", append(attrs, "code", calls.Code(err), "err", err.Error())...)
		} else {
			c.s.log.Info("request", attrs...)
		}
		// The session's next call starts after this one's log line, so the
		// log reads in the order the calls ran.
		if t != nil {
			t.done()
		}
	}()
}

func (c *conn) cancel(id uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cancel := c.inflight[id]; cancel != nil {
		cancel()
	}
}

// call runs handle, the Handler or an unqueued method, turning a panic
// into an "internal" error for this request alone.
func (s *Server) call(ctx context.Context, m *rpc.Message, handle func(context.Context) (any, error)) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("handler panic", "session", m.Session, "method", m.Method,
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res, err = nil, calls.Errorf(nil, "run the command again; if it fails again, report it with the daemon log",
				"internal error in the waymark daemon while handling %s: %v", m.Method, p)
		}
	}()
	return handle(ctx)
}

// pipe returns a connection to s made in memory and served as a client's
// connection is, until ctx is done or the caller closes it.
func (s *Server) pipe(ctx context.Context) net.Conn {
	client, server := net.Pipe()
	go s.ServeConn(ctx, server) // exits when either end closes or ctx is done
	return client
}

// reply sends the result or error of request id and returns the size of the
// result sent.
func (c *conn) reply(id uint64, res any, err error) int {
	msg := &rpc.Message{ID: id}
	if err == nil {
		msg.Result, err = marshalResult(res)
	}
	if err == nil {
		if werr := c.w.Write(msg); !errors.Is(werr, rpc.ErrLineTooLong) {
			c.logWrite(werr)
			return len(msg.Result)
		}
		err = calls.Errorf(calls.ErrBadInput, "ask for less (a smaller screenshot or a scope)",
			"the result is too large to send (%d bytes, over %d)", len(msg.Result), rpc.MaxLineSize)
		msg.Result = nil
	}
	msg.Error = &rpc.Error{Code: calls.Code(err), Message: err.Error(), Hint: calls.Hint(err), Data: calls.DataOf(err)}
	c.logWrite(c.w.Write(msg))
	return 0
}

func (c *conn) logWrite(err error) {
	if err != nil && !errors.Is(err, net.ErrClosed) {
		c.s.log.Debug("write reply", "err", err)
	}
}

func marshalResult(res any) (json.RawMessage, error) {
	if res == nil {
		return json.RawMessage("{}"), nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encode the result: %w", err)
	}
	return b, nil
}

// noHandler stands in for a nil Handler.
type noHandler struct{}

func (noHandler) Handle(_ context.Context, _, method string, _ json.RawMessage) (any, error) {
	return nil, calls.Errorf(calls.ErrBadInput, "run "+calls.Cmd("--help"), "unknown method %q", method)
}
