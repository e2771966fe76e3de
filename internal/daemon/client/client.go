// Package client talks to the waymark daemon: it dials the daemon's socket,
// starts a daemon when none answers (and the caller allows it), restarts one
// of another version, and sends calls.
//
// A command costs one dial, one hello each way and one request:
//
//	c := client.New(client.Options{AutoStart: true, Version: version})
//	defer c.Close()
//	page, err := calls.Remote{Caller: c, Session: "default"}.Open(ctx, calls.OpenRequest{URL: "example.com"})
//
// A *Client is a calls.Caller: calls.Remote over it is the typed session.
//
// Errors the daemon returns come back in their categories, so
// errors.Is(err, calls.ErrStaleRef) works here as in the daemon. A daemon
// that cannot be reached or started gives an error wrapping
// calls.ErrUnavailable that says what to do.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/daemon"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// Options configure a [Client]. The zero value dials the default socket and
// starts nothing.
type Options struct {
	// Socket is the daemon's socket; empty means daemon.DefaultPaths. The
	// CLI fills it from WAYMARK_SOCKET.
	Socket string
	// AutoStart starts a daemon when none answers, and restarts one of
	// another Version.
	AutoStart bool
	// Exe is the binary started as "Exe daemon Args..."; empty means
	// os.Executable(). The daemon gets WAYMARK_SOCKET set to the socket.
	Exe string
	// Args follow "daemon" on the started daemon's command line.
	Args []string
	// Version is this binary's version, compared with the daemon's. Empty
	// accepts any daemon.
	Version string
	// Dial connects to the daemon in place of dialing Socket; tests use it
	// for an in-memory server. nil dials the socket.
	Dial func(ctx context.Context) (net.Conn, error)
	// Stderr gets a line when a daemon is started or restarted; nil is
	// silent.
	Stderr io.Writer
	// StartTimeout bounds the wait for a started daemon to answer; zero
	// means 10 s.
	StartTimeout time.Duration
	// CheckHello, when set, judges the hello of each new connection of
	// this version (not those daemon.stop and daemon.status make): the CLI
	// compares the daemon's settings with the ones it asked for. Its
	// error fails the call, which is then not sent.
	CheckHello func(rpc.Hello) error
}

// Client sends calls to the daemon over one connection, made at the first
// Call and made again if the daemon goes away. It is safe for concurrent
// use; calls of one session are run in the order the daemon receives them.
type Client struct {
	opts Options

	mu       sync.Mutex // guards the fields below; held while connecting
	paths    daemon.Paths
	pathsErr error
	resolved bool
	cn       *conn
	checked  *conn // the connection Options.CheckHello accepted
	closed   bool
}

// New returns a client; it dials nothing until the first Call.
func New(opts Options) *Client {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 10 * time.Second
	}
	return &Client{opts: opts}
}

// ErrClosed says the Client was closed.
var ErrClosed = errors.New("client: closed")

var _ calls.Caller = (*Client)(nil)

// Call sends method with params (nil: none) for session and decodes the
// result into result (nil: discard). The daemon's errors come back as
// driver errors of the same category, message and hint.
func (c *Client) Call(ctx context.Context, session, method string, params, result any) error {
	var raw json.RawMessage
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return calls.Errorf(calls.ErrBadInput, "", "encode the %s request: %v", method, err)
		}
		raw = b
	}
	tolerant := method == rpc.MethodDaemonStop || method == rpc.MethodDaemonStatus
	for attempt := 0; ; attempt++ {
		cn, reused, err := c.conn(ctx, tolerant)
		if err != nil {
			return err
		}
		m, err := cn.call(ctx, session, method, raw)
		var notSent *errNotSent
		switch {
		case err == nil:
			return decode(m, method, result)
		case errors.As(err, &notSent) && reused && attempt == 0:
			// The daemon went away since the last call, and this request
			// never reached it: send it once more, to a new daemon.
			c.drop(cn)
			continue
		case errors.Is(err, rpc.ErrLineTooLong):
			return calls.Errorf(calls.ErrBadInput, "send less", "the %s request is too large: %v", method, err)
		case ctx.Err() != nil:
			return err
		default:
			c.drop(cn)
			return calls.Errorf(calls.ErrUnavailable, "run the command again",
				"the waymark daemon stopped while handling %s (%v); its log is %s", method, err, c.logPath())
		}
	}
}

func decode(m *rpc.Message, method string, result any) error {
	if m.Error != nil {
		return calls.FromWire(m.Error.Code, m.Error.Message, m.Error.Hint, m.Error.Data)
	}
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(m.Result, result); err != nil {
		return fmt.Errorf("decode the daemon's reply to %s: %w", method, err)
	}
	return nil
}

// Close closes the connection. It stops no daemon.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.cn != nil {
		c.cn.close()
		c.cn = nil
	}
	return nil
}

// drop forgets cn if it is still the client's connection.
func (c *Client) drop(cn *conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cn == cn {
		c.cn = nil
	}
	cn.close()
}

// conn returns the live connection, making one if needed, and whether it was
// made before this call. A tolerant caller (daemon.status, daemon.stop)
// accepts a daemon of another version.
func (c *Client) conn(ctx context.Context, tolerant bool) (*conn, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, false, ErrClosed
	}
	if cn := c.cn; cn != nil {
		if !cn.dead() && (tolerant || c.sameVersion(cn)) {
			if err := c.checkHello(cn, tolerant); err != nil {
				return nil, false, err
			}
			return cn, true, nil
		}
		c.cn = nil
		cn.close()
	}
	if err := c.resolve(); err != nil {
		return nil, false, err
	}
	cn, err := c.connect(ctx, tolerant)
	if err != nil {
		return nil, false, err
	}
	c.cn = cn
	if err := c.checkHello(cn, tolerant); err != nil {
		return nil, false, err
	}
	return cn, false, nil
}

// checkHello runs Options.CheckHello once a connection, for the first
// call that is not tolerant. It is called with c.mu held.
func (c *Client) checkHello(cn *conn, tolerant bool) error {
	if c.opts.CheckHello == nil || tolerant || c.checked == cn {
		return nil
	}
	if err := c.opts.CheckHello(cn.hello); err != nil {
		return err
	}
	c.checked = cn
	return nil
}

func (c *Client) resolve() error {
	if !c.resolved {
		c.paths, c.pathsErr = daemon.PathsFor(c.opts.Socket)
		c.resolved = true
	}
	if c.pathsErr != nil {
		return calls.Errorf(calls.ErrUnavailable, "set WAYMARK_SOCKET to a socket path", "no path for the daemon's socket: %v", c.pathsErr)
	}
	return nil
}

func (c *Client) sameVersion(cn *conn) bool {
	return cn.protocol == rpc.Version && (c.opts.Version == "" || cn.hello.Binary == c.opts.Version)
}

func (c *Client) logPath() string {
	if c.paths.Log == "" {
		return "(unknown)"
	}
	return c.paths.Log
}

// dial connects and exchanges hellos.
func (c *Client) dial(ctx context.Context) (*conn, error) {
	var nc net.Conn
	var err error
	if c.opts.Dial != nil {
		nc, err = c.opts.Dial(ctx)
	} else {
		if err := c.paths.CheckOwner(); err != nil {
			return nil, &ownerError{err}
		}
		var d net.Dialer
		nc, err = d.DialContext(ctx, "unix", c.paths.Socket)
	}
	if err != nil {
		return nil, err
	}
	return handshake(ctx, nc, c.opts.Version)
}

// ownerError says the socket belongs to someone else: no daemon is started
// in its place.
type ownerError struct{ err error }

func (e *ownerError) Error() string { return e.err.Error() }
func (e *ownerError) Unwrap() error { return e.err }
