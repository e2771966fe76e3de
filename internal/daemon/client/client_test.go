package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/daemon"
	"github.com/waymark-dev/waymark/internal/daemon/client"
	"github.com/waymark-dev/waymark/internal/rpc"
)

type handlerFunc func(ctx context.Context, session, method string, params json.RawMessage) (any, error)

func (f handlerFunc) Handle(ctx context.Context, session, method string, params json.RawMessage) (any, error) {
	return f(ctx, session, method, params)
}

// pipeDial returns a Dial that serves each connection in memory with srv.
func pipeDial(t *testing.T, srv *daemon.Server) func(context.Context) (net.Conn, error) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	return func(context.Context) (net.Conn, error) {
		a, b := net.Pipe()
		wg.Go(func() { srv.ServeConn(ctx, b) }) // exits when the client closes a, or at cleanup
		return a, nil
	}
}

func TestInMemory(t *testing.T) {
	srv := daemon.New(daemon.Options{Version: "v1", Handler: handlerFunc(func(_ context.Context, session, method string, params json.RawMessage) (any, error) {
		switch method {
		case "echo":
			return params, nil
		case "stale":
			return nil, calls.Errorf(calls.ErrStaleRef, "run waymark snapshot", "no element e5")
		}
		return nil, errors.New("no such method")
	})})
	c := client.New(client.Options{Version: "v1", Dial: pipeDial(t, srv)})
	defer c.Close()

	var got map[string]string
	if err := c.Call(context.Background(), "s", "echo", map[string]string{"a": "b"}, &got); err != nil || got["a"] != "b" {
		t.Fatalf("echo: %v, %v", got, err)
	}
	err := c.Call(context.Background(), "s", "stale", nil, nil)
	if !errors.Is(err, calls.ErrStaleRef) || err.Error() != "no element e5" || calls.Hint(err) != "run waymark snapshot" {
		t.Fatalf("stale: %v (hint %q)", err, calls.Hint(err))
	}
	var st rpc.DaemonStatus
	if err := c.Call(context.Background(), "", rpc.MethodDaemonStatus, nil, &st); err != nil || st.Version != "v1" {
		t.Fatalf("status: %+v, %v", st, err)
	}
	// Concurrent calls share the connection.
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			var n int
			if err := c.Call(context.Background(), "s", "echo", i, &n); err != nil || n != i {
				t.Errorf("concurrent call %d: %d, %v", i, n, err)
			}
		})
	}
	wg.Wait()
}

func TestVersionMismatchWithoutAutoStart(t *testing.T) {
	srv := daemon.New(daemon.Options{Version: "v1"})
	c := client.New(client.Options{Version: "v2", Dial: pipeDial(t, srv)})
	defer c.Close()
	err := c.Call(context.Background(), "s", "open", nil, nil)
	if !errors.Is(err, calls.ErrUnavailable) || !strings.Contains(err.Error(), "v1") || !strings.Contains(calls.Hint(err), "waymark daemon stop") {
		t.Fatalf("mismatch: %v (hint %q)", err, calls.Hint(err))
	}
	// Status and stop still work, so that "waymark daemon stop" can.
	if err := c.Call(context.Background(), "", rpc.MethodDaemonStatus, nil, nil); err != nil {
		t.Fatalf("status across versions: %v", err)
	}
}

func TestNoDaemon(t *testing.T) {
	socket := shortDir(t) + "/none.sock"
	c := client.New(client.Options{Socket: socket})
	defer c.Close()
	err := c.Call(context.Background(), "s", "open", nil, nil)
	if !errors.Is(err, calls.ErrUnavailable) || !strings.Contains(err.Error(), socket) || !strings.Contains(calls.Hint(err), "waymark daemon") {
		t.Fatalf("no daemon: %v (hint %q)", err, calls.Hint(err))
	}
}

// TestDaemonDiesMidCall serves hellos by hand and hangs up on the request.
func TestDaemonDiesMidCall(t *testing.T) {
	dial := func(context.Context) (net.Conn, error) {
		a, b := net.Pipe()
		go func() { // exits after one request: it closes its end
			defer b.Close()
			r, w := rpc.NewReader(b, 0), rpc.NewWriter(b, 0)
			if _, err := r.Read(); err != nil {
				return
			}
			w.Write(&rpc.Message{V: rpc.Version, Hello: &rpc.Hello{Binary: "v1", PID: 1}})
			r.Read()
		}()
		return a, nil
	}
	c := client.New(client.Options{Version: "v1", Dial: dial})
	defer c.Close()
	err := c.Call(context.Background(), "s", "click", nil, nil)
	if !errors.Is(err, calls.ErrUnavailable) || !strings.Contains(err.Error(), "stopped while handling click") {
		t.Fatalf("daemon died: %v", err)
	}
}

func TestClosed(t *testing.T) {
	c := client.New(client.Options{})
	c.Close()
	if err := c.Call(context.Background(), "s", "open", nil, nil); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

func shortDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "wmc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
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

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still runs", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestCheckHello: the daemon's hello carries the settings it started with;
// CheckHello judges them before the first call that is not daemon.status
// or daemon.stop, and its error stops the call before it is sent.
func TestCheckHello(t *testing.T) {
	settings := map[string]string{"policy.private_network": `"all"`}
	var handled []string
	srv := daemon.New(daemon.Options{Version: "v1", Settings: settings, Handler: handlerFunc(func(_ context.Context, _, method string, _ json.RawMessage) (any, error) {
		handled = append(handled, method)
		return nil, nil
	})})
	refuse := errors.New("other settings")
	var seen []map[string]string
	verdict := refuse
	c := client.New(client.Options{Version: "v1", Dial: pipeDial(t, srv), CheckHello: func(h rpc.Hello) error {
		seen = append(seen, h.Settings)
		return verdict
	}})
	defer c.Close()

	var st rpc.DaemonStatus
	if err := c.Call(context.Background(), "", rpc.MethodDaemonStatus, nil, &st); err != nil || st.Settings["policy.private_network"] != `"all"` {
		t.Fatalf("status: %+v, %v", st, err)
	}
	if len(seen) != 0 {
		t.Errorf("daemon.status was judged: %v", seen)
	}
	if err := c.Call(context.Background(), "s", "open", nil, nil); !errors.Is(err, refuse) {
		t.Fatalf("open: %v, want the check's error", err)
	}
	if len(handled) != 0 {
		t.Errorf("refused calls reached the daemon: %v", handled)
	}
	if len(seen) != 1 || seen[0]["policy.private_network"] != `"all"` {
		t.Errorf("hello settings seen: %v", seen)
	}
	verdict = nil
	for range 2 {
		if err := c.Call(context.Background(), "s", "open", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != 2 || len(handled) != 2 {
		t.Errorf("judged %d times, handled %v: want one more judgment for the connection, then none", len(seen), handled)
	}
}

// TestRestartOfADaemonThatStaysUp: a daemon of another version that is
// asked to stop and still answers five seconds later is named so, with the
// kill hint, whichever wait the deadline ended (the dial or the pause
// between dials); it was a bare "context deadline exceeded" when the
// deadline fell in the pause.
func TestRestartOfADaemonThatStaysUp(t *testing.T) {
	srv := daemon.New(daemon.Options{Version: "v1"}) // its stop stops nothing: every dial still answers
	c := client.New(client.Options{Version: "v2", Dial: pipeDial(t, srv), AutoStart: true})
	defer c.Close()
	err := c.Call(t.Context(), "s", "open", nil, nil)
	if !errors.Is(err, calls.ErrUnavailable) || !strings.Contains(err.Error(), "still answers") || !strings.Contains(calls.Hint(err), "kill") {
		t.Fatalf("a daemon that stays up: %v (hint %q), want unavailable, still answers, kill", err, calls.Hint(err))
	}
}
