package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/daemon"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// shortDir returns a fresh folder with a short path: t.TempDir's paths can
// pass the 104 bytes a socket path may have.
func shortDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "wmd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// fakeHandler calls fn, and counts Close calls.
type fakeHandler struct {
	fn     func(ctx context.Context, session, method string, params json.RawMessage) (any, error)
	mu     sync.Mutex
	closed int
}

func (h *fakeHandler) Handle(ctx context.Context, session, method string, params json.RawMessage) (any, error) {
	return h.fn(ctx, session, method, params)
}

func (h *fakeHandler) Status() (string, int) { return "/usr/bin/chromium", 3 }

func (h *fakeHandler) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed++
	return nil
}

func (h *fakeHandler) closeCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

type running struct {
	srv    *daemon.Server
	socket string
	cancel context.CancelFunc
	done   chan struct{} // closed when Run returns
	err    error         // what Run returned
}

// start runs a server on a socket in a short temporary folder (unless
// opts.Socket is set) and waits until it answers.
func start(t *testing.T, opts daemon.Options) *running {
	t.Helper()
	if opts.Socket == "" {
		opts.Socket = filepath.Join(shortDir(t), "d.sock")
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{srv: daemon.New(opts), socket: opts.Socket, cancel: cancel, done: make(chan struct{})}
	go func() { // exits when Run returns: at the latest, ctx canceled at cleanup
		r.err = r.srv.Run(ctx)
		close(r.done)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-r.done:
		case <-time.After(10 * time.Second):
			t.Error("Run did not return after cancel")
		}
	})
	waitDial(t, r.socket, r.done)
	return r
}

func waitDial(t *testing.T, socket string, done <-chan struct{}) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.Dial("unix", socket)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-done:
			t.Fatalf("Run returned before it answered")
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server never answered on %s: %v", socket, err)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// rawConn is a connection that speaks the protocol by hand.
type rawConn struct {
	net.Conn
	r *rpc.Reader
	w *rpc.Writer
}

func dialRaw(t *testing.T, socket string) *rawConn {
	t.Helper()
	nc, err := net.Dial("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	c := &rawConn{Conn: nc, r: rpc.NewReader(nc, 0), w: rpc.NewWriter(nc, 0)}
	if err := c.w.Write(&rpc.Message{V: rpc.Version, Hello: &rpc.Hello{Binary: "test", PID: os.Getpid()}}); err != nil {
		t.Fatal(err)
	}
	m, err := c.r.Read()
	if err != nil || m.Hello == nil {
		t.Fatalf("hello: %+v, %v", m, err)
	}
	return c
}

func (c *rawConn) send(t *testing.T, id uint64, session, method string, params string) {
	t.Helper()
	m := &rpc.Message{V: rpc.Version, ID: id, Session: session, Method: method}
	if params != "" {
		m.Params = json.RawMessage(params)
	}
	if err := c.w.Write(m); err != nil {
		t.Fatal(err)
	}
}

func (c *rawConn) read(t *testing.T) *rpc.Message {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	m, err := c.r.Read()
	if err != nil && !errors.Is(err, rpc.ErrInvalid) {
		t.Fatal(err)
	}
	return m
}

func jsonLogger(w *syncBuffer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
