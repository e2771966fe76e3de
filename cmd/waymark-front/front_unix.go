//go:build unix

package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/waymark-dev/waymark/internal/cli/envelope"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/daemon/daemonpath"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/version"
)

// helloTimeout bounds the wait for the daemon's hello.
const helloTimeout = 5 * time.Second

// runFull replaces the front with waymark-full, same arguments, same
// environment.
func runFull(full string, args []string) int {
	err := syscall.Exec(full, append([]string{full}, args...), os.Environ())
	return fail(args, envelope.ExitUnavailable, "unavailable", "run "+full+": "+err.Error(), "")
}

// runInDaemon has the daemon run the command, and returns its exit status
// and true once the command ran there (or failed there). It returns false
// when nothing was done: no daemon answers, the daemon was started by
// another waymark-full, or the daemon declined the command; waymark-full
// then runs it.
func runInDaemon(full string, args []string) (code int, ran bool) {
	socket, ok := socketPath(args)
	if !ok {
		return 0, false
	}
	want := version.Of(full)
	req, err := request(want, args)
	if err != nil {
		return 0, false
	}
	f, err := dial(socket)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	// The hello and the request go in one write, and the daemon's hello
	// and answer come back in one round trip: a daemon of another
	// version declines the request (CLIRunRequest.Version).
	hello, err := rpc.AppendMessage(nil, &rpc.Message{V: rpc.Version, Hello: &rpc.Hello{Binary: want, PID: os.Getpid()}})
	if err != nil {
		return 0, false
	}
	line, err := rpc.AppendMessage(hello, &rpc.Message{V: rpc.Version, ID: 1, Method: rpc.MethodCLIRun, Params: req})
	if err != nil {
		return 0, false
	}
	in := watchInterrupts(f)
	defer func() {
		if ran {
			// The front exits as soon as it returns: signal.Stop would
			// wake the runtime's signal thread once a signal (a round
			// trip each, ~0.5 ms of every command on a busy machine) to
			// restore a handling that ends with the process anyway.
			in.stopWatch()
		} else {
			in.stop() // waymark-full replaces the front: its signals as they were
		}
	}()
	if err := in.send(line); err != nil {
		if errors.Is(err, errInterrupted) {
			return envelope.ExitCanceled, true
		}
		return 0, false // not sent: nothing ran
	}
	r := rpc.NewReader(f, 0)
	_ = f.SetReadDeadline(time.Now().Add(helloTimeout))
	m, err := r.Read()
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The request is sent: whether the daemon will take it, the
		// front cannot tell, so it does not hand it over.
		return fail(args, envelope.ExitUnavailable, "unavailable", "the waymark daemon on "+socket+" did not answer in "+helloTimeout.String(),
			`see its log, or restart it: "waymark daemon restart"`), true
	case err != nil || m.Hello == nil || m.V != rpc.Version || m.Hello.Binary != want:
		// No hello: the daemon closed before it read a request. Another
		// version: it declines the request (or knows no cli.run).
		return 0, false
	}
	_ = f.SetReadDeadline(time.Time{}) // a command may take long
	for {
		m, err := r.Read()
		switch {
		case err != nil:
			if in.stop() {
				return envelope.ExitCanceled, true
			}
			return fail(args, envelope.ExitUnavailable, "unavailable", "the waymark daemon stopped while running the command: "+err.Error(),
				"run the command again; if it fails again, see the daemon's log"), true
		case m.ID != 1 || m.Event != nil:
			continue // nothing else is sent on this connection
		case m.Error != nil:
			if m.Error.Code == "unavailable" { // the daemon is stopping: it took nothing
				return 0, false
			}
			return fail(args, envelope.ExitFailed, m.Error.Code, m.Error.Message, m.Error.Hint), true
		}
		var res rpc.CLIRunResult
		if err := json.Unmarshal(m.Result, &res); err != nil {
			return fail(args, envelope.ExitFailed, "internal", "read the daemon's answer: "+err.Error(), ""), true
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
	// The request carries the variables a --secret names: never to a
	// socket of another user.
	if err := p.CheckOwner(); err != nil {
		return "", false
	}
	return p.Socket, true
}

// dial connects to the Unix socket. It uses the system calls rather than
// package net, which alone would double the front's start (it links the
// C resolver, and with it the dynamic loader). The socket is non-blocking,
// so that os.File waits for it in the runtime's poller, with deadlines.
func dial(socket string) (*os.File, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(fd) // not into waymark-full
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: socket}); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "waymark daemon"), nil
}

// request is the front's rpc.CLIRunRequest, for a daemon of version v.
func request(v string, args []string) (json.RawMessage, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err // waymark-full says what is wrong
	}
	cfg, _ := os.UserConfigDir() // none: no user config file, as in waymark-full
	if args == nil {
		args = []string{}
	}
	return json.Marshal(rpc.CLIRunRequest{
		// Waymark's settings and the variables the command names, never
		// the whole environment: a model key or another secret's
		// variable has no business in the daemon's memory.
		Version: v, Args: args, Env: rpc.FrontEnv(os.Environ(), args), Dir: dir, ConfigDir: cfg,
		StdinTTY:  iostreams.IsTerminal(os.Stdin),
		StdoutTTY: iostreams.IsTerminal(os.Stdout),
		StderrTTY: iostreams.IsTerminal(os.Stderr),
	})
}

// interrupts watches SIGINT and SIGTERM while the command runs in the
// daemon: at the first, the front asks the daemon to cancel the command, as
// waymark-full's command stops at its first, and the daemon answers with
// what the command says when stopped; a second ends the front the usual
// way. A signal before the request is sent keeps it from being sent.
type interrupts struct {
	sigs chan os.Signal
	done chan struct{}

	mu   sync.Mutex // guards the fields below; held while writing
	f    *os.File
	sent bool // the request went out
	got  bool // a signal came
}

// errInterrupted says a signal came before the request was sent.
var errInterrupted = errors.New("interrupted")

func watchInterrupts(f *os.File) *interrupts {
	in := &interrupts{sigs: make(chan os.Signal, 1), done: make(chan struct{}), f: f}
	signal.Notify(in.sigs, os.Interrupt, syscall.SIGTERM)
	go func() { // exits at the first signal or at stop
		select {
		case <-in.sigs:
		case <-in.done:
			return
		}
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		in.mu.Lock()
		defer in.mu.Unlock()
		in.got = true
		if !in.sent {
			return
		}
		line, _ := rpc.AppendMessage(nil, &rpc.Message{ID: 1, Cancel: true})
		if _, err := in.f.Write(line); err != nil {
			in.f.Close() // the daemon cancels what a closed connection asked
		}
	}()
	return in
}

// send writes the request, unless a signal came first.
func (in *interrupts) send(line []byte) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.got {
		return errInterrupted
	}
	if _, err := in.f.Write(line); err != nil {
		return err
	}
	in.sent = true
	return nil
}

// stop ends the watch, gives SIGINT and SIGTERM their default handling
// back, and reports whether a signal came.
func (in *interrupts) stop() bool {
	select {
	case <-in.done:
	default:
		signal.Stop(in.sigs)
		close(in.done)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.got
}

// stopWatch ends the watch of a front about to exit; the signals stay
// caught (a Ctrl-C between here and the exit is dropped, as the command
// has ended).
func (in *interrupts) stopWatch() {
	select {
	case <-in.done:
	default:
		close(in.done)
	}
}
