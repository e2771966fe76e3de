package wiring

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/cli/root"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/daemon"
	"github.com/waymark-dev/waymark/internal/daemon/client"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// frontGlobals are the global flags a command run for the front may set:
// the others (--headed, --cdp, --socket, --browser-arg, …) say how the
// daemon is started or reached, which only waymark-full's own dial judges.
var frontGlobals = map[string]bool{"session": true, "json": true}

// remoteRefusal says why the command of args must not run in the daemon,
// or "" when it may, with the name of the top-level command args run
// (root.Deps.Only). It is decided before anything runs: a refused command
// is run by waymark-full, and nothing may run twice. A command line the CLI
// would refuse (an unknown flag, a missing argument) may run: the daemon
// prints the same usage error waymark-full would.
func remoteRefusal(args []string) (why, top string) {
	t := frontTree()
	t.mu.Lock()
	defer t.mu.Unlock()
	cmd, _, err := t.root.Find(args)
	switch {
	case err != nil:
		return "no such command", ""
	case cmd.Annotations[cmdutil.RemoteSafe] == "":
		return cmd.CommandPath() + " runs in the calling process", ""
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		name, ok := strings.CutPrefix(a, "--")
		if !ok {
			if a == "-h" {
				return "-h", ""
			}
			continue // arguments, and short flags: no global flag has one
		}
		name, _, _ = strings.Cut(name, "=")
		switch {
		case name == "help":
			return "--help", ""
		case t.root.PersistentFlags().Lookup(name) != nil && !frontGlobals[name]:
			return "--" + name + " is for the daemon's start", ""
		}
	}
	for cmd.Parent() != t.root {
		cmd = cmd.Parent()
	}
	return "", cmd.Name()
}

// frontTree is the command tree remoteRefusal finds commands in: built
// once, as building one costs more than the rest of a short command. Find
// only reads it (and merges the persistent flags once), under mu.
var frontTree = sync.OnceValue(func() *cmdTree {
	streams, _, _, _ := iostreams.Test()
	return &cmdTree{root: root.NewCmdRoot(&cmdutil.Factory{IO: streams}, &cmdutil.GlobalOptions{})}
})

type cmdTree struct {
	mu   sync.Mutex // guards root
	root *cobra.Command
}

// frontRunner is the daemon's answer to rpc.MethodCLIRun: it runs the
// front's command with [MainWith] as the front's own process would have,
// with the front's environment (as much as rpc.FrontEnv keeps), working folder, config folder and
// terminals, and calls this daemon in memory (dial) with version v. What
// the command prints is gathered and sent back with its exit status.
func frontRunner(v string) daemon.UnqueuedFunc {
	return func(ctx context.Context, dial func(context.Context) (net.Conn, error), params json.RawMessage) (any, error) {
		var req rpc.CLIRunRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "", "bad %s request: %v", rpc.MethodCLIRun, err)
		}
		if req.Version != v {
			return rpc.CLIRunResult{Reason: "the daemon is of version " + v + ", the front's waymark-full of " + req.Version}, nil
		}
		why, top := remoteRefusal(req.Args)
		if why != "" {
			return rpc.CLIRunResult{Reason: why}, nil
		}
		// This run's alone, never logged, and never the daemon's own: a
		// variable the front did not send is not set for the command, and
		// one no front should send (FrontEnv) is dropped on arrival.
		getenv := envLookup(rpc.FrontEnv(req.Env, req.Args))
		out := &outputLog{}
		stdout, stderr := out.stream(1), out.stream(2)
		streams := iostreams.New(strings.NewReader(""), stdout, stderr,
			iostreams.Terminals{Stdin: req.StdinTTY, Stdout: req.StdoutTTY, Stderr: req.StderrTTY}, getenv)
		deps := root.Deps{
			Dial: func(ctx context.Context, g cmdutil.GlobalOptions, cfg *config.Config, start bool) (cmdutil.Caller, error) {
				// This daemon is up and of this version: nothing to
				// start, and the hello's settings are judged as any
				// client's are.
				c := client.New(client.Options{Socket: g.Socket, Dial: dial, Version: v,
					CheckHello: checkDaemonSettings(cfg, stderr, start)})
				if start {
					return c, nil
				}
				return noStartCaller{c}, nil
			},
			RunDaemon: func(context.Context, cmdutil.GlobalOptions, *config.Config) error { return errNotInDaemon },
			ServeDemo: func(context.Context, string, func(string)) error { return errNotInDaemon },
			Version:   v,
			Getenv:    getenv,
			Only:      top,
			Config: func(flags []config.Flag) (*config.Config, error) {
				return config.Load(config.LoadOptions{Getenv: getenv, Dir: req.Dir, UserDir: req.ConfigDir, Flags: flags})
			},
		}
		code := root.MainWith(ctx, req.Args, streams, deps)
		return rpc.CLIRunResult{Ran: true, Output: out.writes, Exit: code}, nil
	}
}

// errNotInDaemon is what a part the daemon does not lend a command run for
// the front says; [remoteRefusal] keeps every command that needs one out.
var errNotInDaemon = errors.New("not available to a command the daemon runs for the front")

// envLookup is the lookup of an environment given as KEY=VALUE lines; the
// first of a repeated key wins, as in os.Getenv on Unix.
func envLookup(env []string) func(string) string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		k, val, ok := strings.Cut(kv, "=")
		if _, seen := m[k]; ok && !seen {
			m[k] = val
		}
	}
	return func(k string) string { return m[k] }
}

// outputLog gathers what a command run for the front writes to its two
// streams, in order.
type outputLog struct {
	mu     sync.Mutex // guards writes
	writes []rpc.CLIWrite
}

// stream is the writer of stream fd.
func (o *outputLog) stream(fd int) io.Writer { return outputStream{o, fd} }

type outputStream struct {
	o  *outputLog
	fd int
}

func (s outputStream) Write(p []byte) (int, error) {
	s.o.mu.Lock()
	defer s.o.mu.Unlock()
	if n := len(s.o.writes); n > 0 && s.o.writes[n-1].FD == s.fd {
		s.o.writes[n-1].Data = append(s.o.writes[n-1].Data, p...)
	} else {
		s.o.writes = append(s.o.writes, rpc.CLIWrite{FD: s.fd, Data: append([]byte(nil), p...)})
	}
	return len(p), nil
}
