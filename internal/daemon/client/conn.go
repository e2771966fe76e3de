package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/waymark-dev/waymark/internal/rpc"
)

// helloTimeout bounds the hello exchange of a connection.
const helloTimeout = 5 * time.Second

// conn is one connection to a daemon: requests go out through w, and a
// reading goroutine hands each reply to the call waiting for it.
type conn struct {
	nc       net.Conn
	w        *rpc.Writer
	hello    rpc.Hello
	protocol string // the daemon's protocol version
	nextID   atomic.Uint64
	done     chan struct{} // closed when the reading goroutine exits

	mu      sync.Mutex // guards the fields below
	pending map[uint64]chan *rpc.Message
	err     error // why the connection ended
}

// handshake sends our hello on nc and reads the daemon's. On success it
// starts the reading goroutine; on failure it closes nc.
func handshake(ctx context.Context, nc net.Conn, version string) (*conn, error) {
	deadline := time.Now().Add(helloTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	nc.SetDeadline(deadline)
	// net.Conn I/O ignores ctx; closing nc ends it.
	stop := context.AfterFunc(ctx, func() { nc.Close() })

	c := &conn{nc: nc, w: rpc.NewWriter(nc, 0), done: make(chan struct{}), pending: make(map[uint64]chan *rpc.Message)}
	r := rpc.NewReader(nc, 0)
	err := c.w.Write(&rpc.Message{V: rpc.Version, Hello: &rpc.Hello{Binary: version, PID: os.Getpid()}})
	var m *rpc.Message
	if err == nil {
		m, err = r.Read()
	}
	var verr *rpc.VersionError
	switch {
	case errors.As(err, &verr) && m != nil && m.Hello != nil:
		err = nil // another protocol: the caller treats it as another version
	case err == nil && m.Hello == nil:
		err = errors.New("the daemon's first line is not a hello")
	}
	if !stop() && err == nil { // ctx ended, and nc with it
		err = ctx.Err()
	}
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("hello: %w", err)
	}
	nc.SetDeadline(time.Time{})
	c.hello, c.protocol = *m.Hello, m.V
	go c.read(r) // exits when nc is closed, by close or by the daemon
	return c, nil
}

// read hands replies to their calls until the connection ends.
func (c *conn) read(r *rpc.Reader) {
	defer close(c.done)
	for {
		m, err := r.Read()
		if err != nil && (m == nil || m.ID == 0) && (errors.Is(err, rpc.ErrMalformed) || errors.Is(err, rpc.ErrInvalid)) {
			continue // a line we cannot place; its call, if any, ends with its context
		}
		if err != nil && m == nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
			return
		}
		if err != nil { // an invalid reply to a known call
			m = &rpc.Message{ID: m.ID, Error: &rpc.Error{Code: "internal", Message: "bad reply from the daemon: " + err.Error()}}
		}
		if m.Event != nil {
			continue // no call asks for events yet
		}
		c.mu.Lock()
		ch := c.pending[m.ID]
		delete(c.pending, m.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- m // buffered
		}
	}
}

// errNotSent says a request could not be written: the daemon cannot have
// acted on it, so it is safe to send again on a new connection.
type errNotSent struct{ err error }

func (e *errNotSent) Error() string { return e.err.Error() }
func (e *errNotSent) Unwrap() error { return e.err }

// errGone says the daemon hung up before it replied.
var errGone = errors.New("the daemon hung up")

// call sends one request and waits for its reply.
func (c *conn) call(ctx context.Context, session, method string, params []byte) (*rpc.Message, error) {
	id := c.nextID.Add(1)
	ch := make(chan *rpc.Message, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, &errNotSent{c.err}
	}
	c.pending[id] = ch
	c.mu.Unlock()

	err := c.w.Write(&rpc.Message{V: rpc.Version, ID: id, Session: session, Method: method, Params: params})
	if err != nil {
		c.forget(id)
		if errors.Is(err, rpc.ErrLineTooLong) {
			return nil, err
		}
		return nil, &errNotSent{err}
	}
	select {
	case m := <-ch:
		return m, nil
	case <-c.done:
		select {
		case m := <-ch: // the reply came just before the end
			return m, nil
		default:
			return nil, errGone
		}
	case <-ctx.Done():
		c.forget(id)
		// Best effort: tell the daemon to stop the work.
		_ = c.w.Write(&rpc.Message{ID: id, Cancel: true})
		return nil, ctx.Err()
	}
}

func (c *conn) forget(id uint64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// dead reports whether the connection has ended.
func (c *conn) dead() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// close closes the connection and waits for the reading goroutine.
func (c *conn) close() {
	c.nc.Close()
	<-c.done
}
