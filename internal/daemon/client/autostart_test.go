//go:build unix

package client_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/daemon/client"
	"github.com/waymark-dev/waymark/internal/rpc"
)

var fakeDaemon string // the built testdata/fakedaemon

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wmbin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fakeDaemon = filepath.Join(dir, "fakedaemon")
	cmd := exec.Command("go", "build", "-o", fakeDaemon, "./testdata/fakedaemon")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build the fake daemon:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// autoClient returns an auto-starting client of version v on socket, and
// stops its daemon at the end of the test.
func autoClient(t *testing.T, socket, v string, stderr *syncBuffer) *client.Client {
	opts := client.Options{Socket: socket, AutoStart: true, Exe: fakeDaemon, Args: []string{"--version", v}, Version: v}
	if stderr != nil {
		opts.Stderr = stderr
	}
	c := client.New(opts)
	t.Cleanup(func() {
		c.Close()
		stop := client.New(client.Options{Socket: socket})
		defer stop.Close()
		stop.Call(context.Background(), "", rpc.MethodDaemonStop, nil, nil)
	})
	return c
}

func daemonPID(t *testing.T, c *client.Client) int {
	t.Helper()
	var r struct{ PID int }
	if err := c.Call(context.Background(), "s", "pid", nil, &r); err != nil {
		t.Fatal(err)
	}
	if r.PID == 0 || r.PID == os.Getpid() {
		t.Fatalf("daemon pid %d", r.PID)
	}
	return r.PID
}

func processAlive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func TestAutoStartAndRestartAfterKill(t *testing.T) {
	socket := filepath.Join(shortDir(t), "d.sock")
	var stderr syncBuffer
	c := autoClient(t, socket, "v1", &stderr)

	pid := daemonPID(t, c)
	if !strings.Contains(stderr.String(), "started the daemon") {
		t.Errorf("no notice of the start: %q", stderr.String())
	}
	if got := daemonPID(t, c); got != pid {
		t.Errorf("second call went to pid %d, not %d", got, pid)
	}
	if fi, err := os.Stat(socket + ".log"); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log: %v, %v", fi, err)
	}

	// SIGKILL leaves a stale socket file; the next call starts a new daemon.
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
	if _, err := os.Lstat(socket); err != nil {
		t.Fatalf("expected a stale socket file: %v", err)
	}
	pid2 := daemonPID(t, c)
	if pid2 == pid {
		t.Fatal("same pid after kill")
	}

	// A new client, as the next CLI command would make, finds it.
	c2 := client.New(client.Options{Socket: socket, Version: "v1"})
	defer c2.Close()
	if got := daemonPID(t, c2); got != pid2 {
		t.Errorf("new client reached pid %d, want %d", got, pid2)
	}
}

func TestConcurrentAutoStartStartsOne(t *testing.T) {
	socket := filepath.Join(shortDir(t), "d.sock")
	pids := make([]int, 6)
	var wg sync.WaitGroup
	for i := range pids {
		c := autoClient(t, socket, "v1", nil)
		wg.Go(func() { pids[i] = daemonPID(t, c) })
	}
	wg.Wait()
	for i, p := range pids {
		if p != pids[0] {
			t.Errorf("client %d reached pid %d, client 0 pid %d", i, p, pids[0])
		}
	}
}

func TestVersionRestart(t *testing.T) {
	socket := filepath.Join(shortDir(t), "d.sock")
	old := autoClient(t, socket, "v1", nil)
	oldPID := daemonPID(t, old)

	var stderr syncBuffer
	c := autoClient(t, socket, "v2", &stderr)
	var st rpc.DaemonStatus
	if err := c.Call(context.Background(), "s", "pid", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(context.Background(), "", rpc.MethodDaemonStatus, nil, &st); err != nil {
		t.Fatal(err)
	}
	if st.Version != "v2" || st.PID == oldPID {
		t.Errorf("after the restart: %+v (old pid %d)", st, oldPID)
	}
	waitGone(t, oldPID)
	// The notice says the sessions go with the old daemon: a user who
	// rebuilt finds the page gone (about:blank) and is told why.
	if !strings.Contains(stderr.String(), "restarting the daemon (it runs v1, this is v2; it closes every session)") {
		t.Errorf("no notice of the restart: %q", stderr.String())
	}
}

func TestStartFailureShowsLog(t *testing.T) {
	socket := filepath.Join(shortDir(t), "d.sock")
	c := client.New(client.Options{Socket: socket, AutoStart: true, Exe: fakeDaemon, Args: []string{"--fail"}})
	defer c.Close()
	err := c.Call(context.Background(), "s", "pid", nil, nil)
	if !errors.Is(err, calls.ErrUnavailable) || !strings.Contains(err.Error(), "fake failure at start") || !strings.Contains(err.Error(), socket+".log") {
		t.Fatalf("start failure: %v", err)
	}
}

func TestCallCancelReachesDaemon(t *testing.T) {
	socket := filepath.Join(shortDir(t), "d.sock")
	c := autoClient(t, socket, "v1", nil)
	daemonPID(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := c.Call(ctx, "s", "block", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("call past its deadline: %v", err)
	}
	// Session s is free again only if the daemon canceled the blocked request.
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Call(ctx, "s", "pid", nil, nil); err != nil {
		t.Fatalf("session still blocked: %v", err)
	}
}

// TestSignals checks daemon.Main: SIGHUP (the terminal closed) is ignored,
// SIGTERM stops the daemon and removes its socket.
func TestSignals(t *testing.T) {
	socket := filepath.Join(shortDir(t), "d.sock")
	c := autoClient(t, socket, "v1", nil)
	pid := daemonPID(t, c)
	if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	if got := daemonPID(t, c); got != pid {
		t.Fatalf("after SIGHUP the daemon is pid %d, not %d", got, pid)
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
	if _, err := os.Lstat(socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket after SIGTERM: %v", err)
	}
	log, _ := os.ReadFile(socket + ".log")
	if !strings.Contains(string(log), `"msg":"stopped"`) {
		t.Errorf("log has no graceful stop:\n%s", log)
	}
}

// TestAutoStartScrubsEnv: a daemon a command starts inherits no model key
// and no variable a --secret was read from.
func TestAutoStartScrubsEnv(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-proj-Zq8Xw2Lk9Vb4Nm7Pd1Rt6Yh3")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-api03-Zq8Xw2Lk9Vb4Nm7Pd1")
	t.Setenv("S", "482913")
	socket := filepath.Join(shortDir(t), "d.sock")
	c := autoClient(t, socket, "v1", nil)
	var env []string
	if err := c.Call(context.Background(), "s", "env", nil, &env); err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(env, "\n")
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if name == "OPENAI_API_KEY" || name == "ANTHROPIC_API_KEY" || name == "S" || strings.Contains(value, "482913") {
			t.Errorf("the daemon's environment holds %s", name)
		}
	}
	if !strings.Contains(joined, "PATH=") || !strings.Contains(joined, "WAYMARK_SOCKET="+socket) {
		t.Errorf("the daemon lost what it needs:\n%s", joined)
	}
}
