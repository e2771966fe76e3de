package daemon_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/daemon"
	"github.com/waymark-dev/waymark/internal/daemon/client"
	"github.com/waymark-dev/waymark/internal/rpc"
)

func echo(_ context.Context, session, method string, params json.RawMessage) (any, error) {
	return map[string]any{"session": session, "method": method, "params": params}, nil
}

func TestRoundTrip(t *testing.T) {
	r := start(t, daemon.Options{Handler: &fakeHandler{fn: echo}, Version: "v1"})
	c := client.New(client.Options{Socket: r.socket, Version: "v1"})
	defer c.Close()
	for i := range 3 { // the connection is reused
		var got struct {
			Session string
			Method  string
			Params  map[string]int
		}
		if err := c.Call(context.Background(), "work", "open", map[string]int{"n": i}, &got); err != nil {
			t.Fatal(err)
		}
		if got.Session != "work" || got.Method != "open" || got.Params["n"] != i {
			t.Errorf("call %d: got %+v", i, got)
		}
	}
	// nil params and a nil result are allowed.
	if err := c.Call(context.Background(), "work", "open", nil, nil); err != nil {
		t.Fatal(err)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		want     error
		code     string
		wantMsg  string
		wantHint string
	}{
		{
			name:     "stale ref with hint",
			err:      calls.Errorf(calls.ErrStaleRef, "run waymark snapshot", "no element [ref=e53] on the page now"),
			want:     calls.ErrStaleRef,
			code:     "stale_ref",
			wantMsg:  "no element [ref=e53] on the page now",
			wantHint: "run waymark snapshot",
		},
		{
			name:    "wrapped typed error",
			err:     fmt.Errorf("click e3: %w", &calls.CoveredError{Target: "e3", By: `dialog "Cookies"`}),
			want:    calls.ErrNotInteractable,
			code:    "not_interactable",
			wantMsg: `click e3: e3 is covered by dialog "Cookies"`,
		},
		{
			name:    "canceled",
			err:     fmt.Errorf("wait: %w", context.Canceled),
			want:    context.Canceled,
			code:    "canceled",
			wantMsg: "wait: context canceled",
		},
		{
			name:    "plain error",
			err:     errors.New("something broke"),
			code:    "internal",
			wantMsg: "something broke",
		},
	}
	h := &fakeHandler{}
	r := start(t, daemon.Options{Handler: h})
	c := client.New(client.Options{Socket: r.socket})
	defer c.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.fn = func(context.Context, string, string, json.RawMessage) (any, error) { return nil, tt.err }
			err := c.Call(context.Background(), "s", "click", nil, nil)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.want)
			}
			if got := calls.Code(err); got != tt.code {
				t.Errorf("code %q, want %q", got, tt.code)
			}
			if err.Error() != tt.wantMsg {
				t.Errorf("message %q, want %q", err.Error(), tt.wantMsg)
			}
			if got := calls.Hint(err); got != tt.wantHint {
				t.Errorf("hint %q, want %q", got, tt.wantHint)
			}
		})
	}
}

func TestPanicIsInternal(t *testing.T) {
	var logs syncBuffer
	h := &fakeHandler{fn: func(_ context.Context, _, method string, _ json.RawMessage) (any, error) {
		if method == "boom" {
			panic("nil map somewhere")
		}
		return map[string]bool{"ok": true}, nil
	}}
	r := start(t, daemon.Options{Handler: h, Logger: jsonLogger(&logs)})
	c := client.New(client.Options{Socket: r.socket})
	defer c.Close()

	err := c.Call(context.Background(), "s", "boom", map[string]string{"text": "hunter2"}, nil)
	if calls.Code(err) != "internal" || !strings.Contains(err.Error(), "boom") || calls.Hint(err) == "" {
		t.Fatalf("panic answered with %v (code %q, hint %q)", err, calls.Code(err), calls.Hint(err))
	}
	var got map[string]bool
	if err := c.Call(context.Background(), "s", "fine", nil, &got); err != nil || !got["ok"] {
		t.Fatalf("after a panic: %v, %v", got, err)
	}
	log := logs.String()
	for _, want := range []string{`"msg":"handler panic"`, "nil map somewhere", "goroutine ", `"method":"boom"`, `"dur_ms"`, `"params_bytes":18`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %s:\n%s", want, log)
		}
	}
	if strings.Contains(log, "hunter2") {
		t.Errorf("log holds a param:\n%s", log)
	}
}

func TestSessionsInOrderAndConcurrent(t *testing.T) {
	var (
		mu        sync.Mutex
		active    = map[string]int{}
		maxActive = map[string]int{}
		order     []int
		met       = make(chan struct{})
		meetOnce  sync.Once
		arrived   int
	)
	h := &fakeHandler{fn: func(ctx context.Context, session, method string, params json.RawMessage) (any, error) {
		mu.Lock()
		active[session]++
		maxActive[session] = max(maxActive[session], active[session])
		mu.Unlock()
		defer func() {
			mu.Lock()
			active[session]--
			mu.Unlock()
		}()
		switch method {
		case "slow":
			var p struct{ N int }
			json.Unmarshal(params, &p)
			mu.Lock()
			order = append(order, p.N)
			mu.Unlock()
			time.Sleep(20 * time.Millisecond)
		case "meet": // returns only once two sessions are inside at once
			mu.Lock()
			if arrived++; arrived == 2 {
				meetOnce.Do(func() { close(met) })
			}
			mu.Unlock()
			select {
			case <-met:
			case <-time.After(15 * time.Second): // a loaded machine's dial and send, not the daemon's speed
				return nil, errors.New("the other session never came in")
			}
		}
		return nil, nil
	}}
	r := start(t, daemon.Options{Handler: h})

	t.Run("one session, many clients: one at a time", func(t *testing.T) {
		var wg sync.WaitGroup
		for i := range 5 {
			wg.Go(func() {
				c := client.New(client.Options{Socket: r.socket})
				defer c.Close()
				if err := c.Call(context.Background(), "a", "slow", map[string]int{"n": i}, nil); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if maxActive["a"] != 1 {
			t.Errorf("session a had %d requests at once, want 1", maxActive["a"])
		}
	})

	t.Run("one connection: arrival order", func(t *testing.T) {
		mu.Lock()
		order = nil
		mu.Unlock()
		rc := dialRaw(t, r.socket)
		for i := 1; i <= 5; i++ {
			rc.send(t, uint64(i), "b", "slow", fmt.Sprintf(`{"n":%d}`, i))
		}
		for range 5 {
			if m := rc.read(t); m.Error != nil {
				t.Fatal(m.Error)
			}
		}
		if diff := cmp.Diff([]int{1, 2, 3, 4, 5}, order); diff != "" {
			t.Errorf("order (-want +got):\n%s", diff)
		}
	})

	t.Run("two sessions: at once", func(t *testing.T) {
		var wg sync.WaitGroup
		for _, s := range []string{"x", "y"} {
			wg.Go(func() {
				c := client.New(client.Options{Socket: r.socket})
				defer c.Close()
				if err := c.Call(context.Background(), s, "meet", nil, nil); err != nil {
					t.Errorf("session %s: %v", s, err)
				}
			})
		}
		wg.Wait()
	})
}

func TestCancel(t *testing.T) {
	started := make(chan string, 4)
	ended := make(chan error, 4)
	h := &fakeHandler{fn: func(ctx context.Context, session, method string, params json.RawMessage) (any, error) {
		started <- session
		<-ctx.Done()
		ended <- ctx.Err()
		return nil, ctx.Err()
	}}
	r := start(t, daemon.Options{Handler: h})
	waitEnd := func(t *testing.T) {
		t.Helper()
		select {
		case err := <-ended:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("handler's ctx ended with %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the handler's context was not canceled")
		}
	}

	t.Run("client hangs up", func(t *testing.T) {
		rc := dialRaw(t, r.socket)
		rc.send(t, 1, "s", "block", "")
		<-started
		rc.Close()
		waitEnd(t)
	})

	t.Run("call's context canceled", func(t *testing.T) {
		c := client.New(client.Options{Socket: r.socket})
		defer c.Close()
		ctx, cancel := context.WithCancel(context.Background())
		go func() { // exits once the handler started
			<-started
			cancel()
		}()
		if err := c.Call(ctx, "s", "block", nil, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("Call: %v, want context.Canceled", err)
		}
		waitEnd(t)
	})
}

func TestBadLines(t *testing.T) {
	r := start(t, daemon.Options{Handler: &fakeHandler{fn: echo}})
	rc := dialRaw(t, r.socket)
	fmt.Fprintf(rc, "this is not json\n")
	fmt.Fprintf(rc, "{\"v\":%q,\"id\":3}\n", rpc.Version) // no method
	m := rc.read(t)
	if m.ID != 3 || m.Error == nil || m.Error.Code != "bad_input" {
		t.Fatalf("reply to a request without a method: %+v", m)
	}
	rc.send(t, 4, "s", "ping", "")
	if m := rc.read(t); m.ID != 4 || m.Result == nil {
		t.Fatalf("after bad lines: %+v", m)
	}
}

func TestStaleSocketReplaced(t *testing.T) {
	socket := filepath.Join(shortDir(t), "d.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: socket, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close() // the file stays, as after a SIGKILL
	if _, err := os.Lstat(socket); err != nil {
		t.Fatal(err)
	}
	r := start(t, daemon.Options{Socket: socket, Handler: &fakeHandler{fn: echo}})
	c := client.New(client.Options{Socket: r.socket})
	defer c.Close()
	if err := c.Call(context.Background(), "s", "ping", nil, nil); err != nil {
		t.Fatal(err)
	}
}

func TestNotASocketIsKept(t *testing.T) {
	path := filepath.Join(shortDir(t), "d.sock")
	os.WriteFile(path, []byte("mine"), 0o600)
	err := daemon.New(daemon.Options{Socket: path}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("Run on a regular file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "mine" {
		t.Error("the file was touched")
	}
}

func TestAlreadyRunning(t *testing.T) {
	r := start(t, daemon.Options{Handler: &fakeHandler{fn: echo}})
	err := daemon.New(daemon.Options{Socket: r.socket}).Run(context.Background())
	if !errors.Is(err, daemon.ErrAlreadyRunning) {
		t.Fatalf("second Run: %v, want ErrAlreadyRunning", err)
	}
	c := client.New(client.Options{Socket: r.socket})
	defer c.Close()
	if err := c.Call(context.Background(), "s", "ping", nil, nil); err != nil {
		t.Fatalf("the first daemon stopped answering: %v", err)
	}
}

func TestDefaultPathsPermissions(t *testing.T) {
	rt := shortDir(t)
	os.Chmod(rt, 0o755)
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(rt, "cache"))
	p, err := daemon.DefaultPaths()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(rt, "waymark", "daemon.sock"); p.Socket != want {
		t.Errorf("socket %s, want %s", p.Socket, want)
	}
	if want := filepath.Join(rt, "cache", "waymark", "daemon.log"); p.Log != want {
		t.Errorf("log %s, want %s", p.Log, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { // exits when ctx is canceled below
		if err := daemon.New(daemon.Options{}).Run(ctx); err != nil {
			t.Error(err)
		}
		close(done)
	}()
	defer func() {
		cancel()
		<-done
	}()
	waitDial(t, p.Socket, done)
	for path, want := range map[string]fs.FileMode{filepath.Dir(p.Socket): 0o700, p.Socket: 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
}

func TestFolderOfAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give a folder away")
	}
	rt := shortDir(t)
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(rt, "cache"))
	dir := filepath.Join(rt, "waymark")
	os.Mkdir(dir, 0o700)
	if err := os.Chown(dir, 12345, 12345); err != nil {
		t.Fatal(err)
	}
	err := daemon.New(daemon.Options{}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "belongs to user 12345") {
		t.Errorf("Run in another user's folder: %v", err)
	}
	c := client.New(client.Options{})
	defer c.Close()
	err = c.Call(context.Background(), "s", "ping", nil, nil)
	if !errors.Is(err, calls.ErrUnavailable) || !strings.Contains(err.Error(), "belongs to user 12345") {
		t.Errorf("client in another user's folder: %v", err)
	}
}

func TestStatusAndStop(t *testing.T) {
	h := &fakeHandler{fn: echo}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := t0
	var nowMu sync.Mutex
	clock := func() time.Time {
		nowMu.Lock()
		defer nowMu.Unlock()
		return now
	}
	r := start(t, daemon.Options{Handler: h, Version: "v9", Now: clock})
	nowMu.Lock()
	now = t0.Add(1500 * time.Millisecond)
	nowMu.Unlock()

	c := client.New(client.Options{Socket: r.socket, Version: "other"}) // status and stop work across versions
	defer c.Close()
	var st rpc.DaemonStatus
	if err := c.Call(context.Background(), "", rpc.MethodDaemonStatus, nil, &st); err != nil {
		t.Fatal(err)
	}
	want := rpc.DaemonStatus{PID: os.Getpid(), Version: "v9", Socket: r.socket, UptimeMS: 1500, Browser: "/usr/bin/chromium", Sessions: 3}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}

	if err := c.Call(context.Background(), "", rpc.MethodDaemonStop, nil, nil); err != nil {
		t.Fatalf("stop: %v", err)
	}
	select {
	case <-r.done:
		if r.err != nil {
			t.Errorf("Run after daemon.stop: %v", r.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after daemon.stop")
	}
	if n := h.closeCount(); n != 1 {
		t.Errorf("handler closed %d times, want 1", n)
	}
	if _, err := os.Lstat(r.socket); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("socket file after stop: %v", err)
	}
	if err := c.Call(context.Background(), "", rpc.MethodDaemonStatus, nil, nil); !errors.Is(err, calls.ErrUnavailable) {
		t.Errorf("call after stop: %v, want ErrUnavailable", err)
	}
}

func TestGraceThenCancel(t *testing.T) {
	started := make(chan struct{})
	h := &fakeHandler{fn: func(ctx context.Context, _, _ string, _ json.RawMessage) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	r := start(t, daemon.Options{Handler: h, Grace: 50 * time.Millisecond})
	c := client.New(client.Options{Socket: r.socket})
	defer c.Close()
	errc := make(chan error, 1)
	go func() { errc <- c.Call(context.Background(), "s", "block", nil, nil) }() // exits when the call ends
	<-started
	r.cancel()
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
	if err := <-errc; err == nil {
		t.Error("a request cut by the stop succeeded")
	}
}

func TestIdleTimeout(t *testing.T) {
	r := start(t, daemon.Options{Handler: &fakeHandler{fn: echo}, IdleTimeout: 100 * time.Millisecond})
	select {
	case <-r.done:
		if r.err != nil {
			t.Fatal(r.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("an idle server did not stop")
	}
}

func TestNilHandler(t *testing.T) {
	r := start(t, daemon.Options{})
	c := client.New(client.Options{Socket: r.socket})
	defer c.Close()
	if err := c.Call(context.Background(), "s", "open", nil, nil); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("unknown method: %v, want ErrBadInput", err)
	}
}

// BenchmarkCall measures one call over the socket on a warm connection.
func BenchmarkCall(b *testing.B) {
	socket := filepath.Join(shortDir(b), "d.sock")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	noop := &fakeHandler{fn: func(context.Context, string, string, json.RawMessage) (any, error) { return nil, nil }}
	go func() { done <- daemon.New(daemon.Options{Socket: socket, Handler: noop}).Run(ctx) }() // exits at cancel
	defer func() { cancel(); <-done }()
	for i := 0; ; i++ {
		if c, err := net.Dial("unix", socket); err == nil {
			c.Close()
			break
		}
		time.Sleep(time.Millisecond)
	}
	params := map[string]string{"ref": "e53"}

	b.Run("warm", func(b *testing.B) {
		c := client.New(client.Options{Socket: socket})
		defer c.Close()
		for b.Loop() {
			if err := c.Call(ctx, "default", "click", params, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dial+hello+call", func(b *testing.B) { // what one CLI command pays
		for b.Loop() {
			c := client.New(client.Options{Socket: socket})
			if err := c.Call(ctx, "default", "click", params, nil); err != nil {
				b.Fatal(err)
			}
			c.Close()
		}
	})
}

// TestLogRedacted: the daemon logs a failed request's error through the
// secret redaction, whatever logger it is given.
func TestLogRedacted(t *testing.T) {
	const key = "sk-ant-api03-Zq8Xw2Lk9Vb4Nm7Pd1Rt6Yh3Jc5Gf0Ss"
	var logs syncBuffer
	h := &fakeHandler{fn: func(context.Context, string, string, json.RawMessage) (any, error) {
		return nil, fmt.Errorf("the page said: your key is %s", key)
	}}
	r := start(t, daemon.Options{Handler: h, Logger: jsonLogger(&logs)})
	c := client.New(client.Options{Socket: r.socket})
	defer c.Close()
	if err := c.Call(context.Background(), "s", "act", nil, nil); err == nil {
		t.Fatal("no error")
	}
	// The session's next call starts after the first one's log line.
	_ = c.Call(context.Background(), "s", "again", nil, nil)
	log := logs.String()
	if !strings.Contains(log, "your key is") {
		t.Fatalf("the failure was not logged:\n%s", log)
	}
	if strings.Contains(log, key) {
		t.Errorf("the log holds the key:\n%s", log)
	}
}
