//go:build unix

package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/daemon/daemonpath"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/version"
)

// helloTimeout bounds the wait for the daemon's hello: a daemon that does
// not answer is left to waymark-full, which reports it.
const helloTimeout = 5 * time.Second

// runFull replaces the front with waymark-full, same arguments, same
// environment.
func runFull(full string, args []string) int {
	err := syscall.Exec(full, append([]string{full}, args...), os.Environ())
	return fail(args, exitUnavailable, "unavailable", "run "+full+": "+err.Error(), "")
}

// runInDaemon has the daemon run the command, and returns its exit status
// and true once the command ran there (or failed there). It returns false
// when nothing was done: no daemon answers, the daemon was started by
// another waymark-full, or the daemon declined the command; waymark-full
// then runs it.
func runInDaemon(full string, args []string) (int, bool) {
	socket, ok := socketPath(args)
	if !ok {
		return 0, false
	}
	fd, err := dial(socket)
	if err != nil {
		return 0, false
	}
	f := os.NewFile(uintptr(fd), "waymark daemon")
	defer f.Close()
	r := rpc.NewReader(f, 0)
	if !handshake(f, fd, r, version.Of(full)) {
		return 0, false
	}
	req, err := request(args)
	if err != nil {
		return 0, false
	}
	line, err := rpc.AppendMessage(nil, &rpc.Message{V: rpc.Version, ID: 1, Method: rpc.MethodCLIRun, Params: req})
	if err != nil {
		return 0, false
	}
	if _, err := f.Write(line); err != nil {
		return 0, false // not sent: nothing ran
	}
	stop := cancelOnSignal(f)
	defer stop()
	for {
		m, err := r.Read()
		switch {
		case err != nil:
			if stop() {
				return exitCanceled, true
			}
			return fail(args, exitUnavailable, "unavailable", "the waymark daemon stopped while running the command: "+err.Error(),
				"run the command again; if it fails again, see the daemon's log"), true
		case m.ID != 1 || m.Event != nil:
			continue // nothing else is sent on this connection
		case m.Error != nil:
			if m.Error.Code == "unavailable" { // the daemon is stopping: it took nothing
				return 0, false
			}
			return fail(args, 1, m.Error.Code, m.Error.Message, m.Error.Hint), true
		}
		var res rpc.CLIRunResult
		if err := json.Unmarshal(m.Result, &res); err != nil {
			return fail(args, 1, "internal", "read the daemon's answer: "+err.Error(), ""), true
		}
		if !res.Ran {
			return 0, false
		}
		for _, w := range res.Output {
			out := os.Stdout
			if w.FD == 2 {
				out = os.Stderr
			}
			out.Write(w.Data)
		}
		return res.Exit, true
	}
}

// socketPath is the daemon's socket as waymark-full finds it, and false
// when the front cannot tell: a --socket flag, or a relative
// WAYMARK_SOCKET (waymark-full reads both against its own flags and
// folder).
func socketPath(args []string) (string, bool) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--socket" || strings.HasPrefix(a, "--socket=") {
			return "", false
		}
	}
	s := os.Getenv("WAYMARK_SOCKET")
	if s != "" && !filepath.IsAbs(s) {
		return "", false
	}
	p, err := daemonpath.For(s)
	if err != nil {
		return "", false
	}
	// The request carries the environment, secrets and all: never to a
	// socket of another user.
	if err := p.CheckOwner(); err != nil {
		return "", false
	}
	return p.Socket, true
}

// dial connects to the Unix socket. It uses the system calls rather than
// package net, which alone would double the front's start (it links the
// C resolver, and with it the dynamic loader).
func dial(socket string) (int, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return -1, err
	}
	syscall.CloseOnExec(fd) // not into waymark-full
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: socket}); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

// handshake sends the front's hello and reads the daemon's: it reports
// whether the daemon speaks this protocol and was started by the
// waymark-full of version want.
func handshake(w io.Writer, fd int, r *rpc.Reader, want string) bool {
	line, err := rpc.AppendMessage(nil, &rpc.Message{V: rpc.Version, Hello: &rpc.Hello{Binary: want, PID: os.Getpid()}})
	if err != nil {
		return false
	}
	if _, err := w.Write(line); err != nil {
		return false
	}
	tv := syscall.NsecToTimeval(helloTimeout.Nanoseconds())
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv)
	m, err := r.Read()
	_ = syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &syscall.Timeval{}) // a command may take long
	return err == nil && m.Hello != nil && m.V == rpc.Version && m.Hello.Binary == want
}

// request is the front's rpc.CLIRunRequest.
func request(args []string) (json.RawMessage, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err // waymark-full says what is wrong
	}
	cfg, _ := os.UserConfigDir() // none: no user config file, as in waymark-full
	if args == nil {
		args = []string{}
	}
	return json.Marshal(rpc.CLIRunRequest{
		Args: args, Env: os.Environ(), Dir: dir, ConfigDir: cfg,
		StdinTTY:  iostreams.IsTerminal(os.Stdin),
		StdoutTTY: iostreams.IsTerminal(os.Stdout),
		StderrTTY: iostreams.IsTerminal(os.Stderr),
	})
}

// cancelOnSignal asks the daemon to cancel the command at the first SIGINT
// or SIGTERM, as waymark-full's command stops at its first: the daemon then
// answers with what the command says when stopped. A second signal ends
// the front the usual way. The returned stop ends the watch and reports
// whether a signal came.
func cancelOnSignal(f *os.File) func() bool {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	var mu sync.Mutex // guards got
	got := false
	go func() { // exits at the first signal or when stop is called
		select {
		case <-sigs:
		case <-done:
			return
		}
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		mu.Lock()
		got = true
		mu.Unlock()
		line, _ := rpc.AppendMessage(nil, &rpc.Message{ID: 1, Cancel: true})
		if _, err := f.Write(line); err != nil && !errors.Is(err, os.ErrClosed) {
			f.Close() // the daemon cancels what a closed connection asked
		}
	}()
	var once sync.Once
	return func() bool {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
		})
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}
