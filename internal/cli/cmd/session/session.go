package session

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/wait"
)

// The commands in this file ask the daemon about itself. They dial with
// Factory.RunningCaller: listing or closing must not start a daemon (and a
// browser) only to find nothing there.

// SessionListOptions are the flags of `waymark session list`.
type SessionListOptions struct {
	cmdutil.Common
	All bool // the batch workers' sessions too
}

// NewCmdSession builds `waymark session list`.
func NewCmdSession(f *cmdutil.Factory, runF func(context.Context, *SessionListOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "session list",
		Aliases: []string{"sessions"},
		Short:   "List the daemon's open sessions",
		Long:    "List the open sessions. Choose one for a command with --session NAME or WAYMARK_SESSION.",
		Args:    cobra.ArbitraryArgs,
		RunE:    cmdutil.GroupRunE,
	}
	opts := &SessionListOptions{}
	cmd.AddCommand(cmdutil.RunsInDaemon(&cobra.Command{
		Use:   "list",
		Short: "List the open sessions",
		Long: `List the open sessions. The sessions a batch's workers hold are left out
(a line on stderr counts them); --all lists them too, marked "batch".`,
		Args: cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Caller = f.RunningCaller
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return sessionListRun(cmd.Context(), opts)
		},
	}))
	cmd.PersistentFlags().BoolVar(&opts.All, "all", false, "list the sessions a batch's workers hold too")
	return cmd
}

func sessionListRun(ctx context.Context, opts *SessionListOptions) error {
	list, err := opts.Daemon().Sessions(ctx)
	if err != nil && !errors.Is(err, cmdutil.ErrNoDaemon) {
		return err
	}
	if list == nil {
		list = &rpc.SessionList{}
	}
	// A batch's workers' sessions are not the person's: left out (and
	// counted) unless --all. The daemon marks them (rpc.IsWorkerSession).
	mine := []rpc.SessionInfo{}
	for _, s := range list.Sessions {
		s.Batch = s.Batch || rpc.IsWorkerSession(s.Name)
		if s.Batch && !opts.All {
			list.Hidden++
			continue
		}
		mine = append(mine, s)
	}
	list.Sessions = mine
	return opts.Emit(list, func() error {
		if list.Hidden > 0 {
			defer opts.Note("%s of batch workers not listed; --all lists them", cmdutil.Count(list.Hidden, "session"))
		}
		if len(list.Sessions) == 0 {
			opts.Note("no open sessions")
			return nil
		}
		rows := make([][]string, 0, len(list.Sessions))
		for _, s := range list.Sessions {
			cur := ""
			if s.Name == opts.Session {
				cur = "*"
			} else if s.Batch {
				cur = "batch"
			}
			rows = append(rows, []string{s.Name, cur, strconv.Itoa(s.Tabs), s.URL})
		}
		return cmdutil.PrintTable(opts.IO.Out, opts.IO.IsStdoutTTY(), []string{"SESSION", "", "TABS", "URL"}, rows)
	})
}

// CloseOptions are the flags of `waymark close`.
type CloseOptions struct {
	cmdutil.Common
	All bool
}

// NewCmdClose builds `waymark close [--all]`.
func NewCmdClose(f *cmdutil.Factory, runF func(context.Context, *CloseOptions) error) *cobra.Command {
	opts := &CloseOptions{}
	cmd := &cobra.Command{
		Use:     "close [--all]",
		Short:   "Close the session (its tabs, cookies and refs), or all of them",
		Example: "  waymark close\n  waymark --session checkout close\n  waymark close --all",
		Args:    cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Caller = f.RunningCaller
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return closeRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.All, "all", false, "close every session")
	return cmd
}

func closeRun(ctx context.Context, opts *CloseOptions) error {
	d := opts.Daemon()
	closeSessions := d.CloseSession
	if opts.All {
		closeSessions = d.CloseAllSessions
	}
	// A session that is not open (a mistyped --session) is told apart from
	// one closed: "closed" would pass for success while the session meant
	// stays open.
	open := true
	var err error
	if !opts.All {
		var list *rpc.SessionList
		if list, err = d.Sessions(ctx); err == nil {
			open = slices.ContainsFunc(list.Sessions, func(s rpc.SessionInfo) bool { return s.Name == opts.Session })
		}
	}
	if err == nil && open {
		err = closeSessions(ctx)
	}
	if err != nil && !errors.Is(err, cmdutil.ErrNoDaemon) {
		return err
	}
	// Closing what is not open is done already: exit 0, and say so.
	running := err == nil
	data := map[string]any{"closed": running && open}
	if opts.All {
		data["all"] = true
	} else {
		data["session"] = opts.Session
	}
	return opts.Emit(data, func() error {
		switch {
		case !running:
			opts.Note("no daemon running; nothing to close")
		case !open:
			opts.Note("no session %q is open; nothing to close (%s lists the open ones)", opts.Session, calls.Cmd("session list"))
		case opts.All:
			opts.Note("closed all sessions")
		default:
			opts.Note("closed session %q", opts.Session)
		}
		return nil
	})
}

// DaemonRunOptions are the flags of the hidden foreground `waymark daemon`.
type DaemonRunOptions struct {
	cmdutil.Common
	RunDaemon func(ctx context.Context, g cmdutil.GlobalOptions, cfg *config.Config) error
	Globals   cmdutil.GlobalOptions // the socket; the browser flags are in the configuration
}

// DaemonCtlOptions are the flags of `waymark daemon stop|status|restart`.
type DaemonCtlOptions struct {
	cmdutil.Common
	Op string // "stop", "status" or "restart"
	// Running dials a daemon that runs and never starts one (restart
	// stops it with this); Caller starts one.
	Running func(ctx context.Context) (cmdutil.Caller, error)
}

// NewCmdDaemon builds `waymark daemon stop|status`, and bare `waymark
// daemon`, which runs the daemon in the foreground: the client execs that to
// start it, and people rarely type it.
func NewCmdDaemon(f *cmdutil.Factory, runF func(context.Context, *DaemonRunOptions) error) *cobra.Command {
	opts := &DaemonRunOptions{}
	cmd := &cobra.Command{
		Use:   "daemon stop|status|restart",
		Short: "Stop, restart the background daemon or show its status",
		Long: `The daemon keeps the browser and the sessions between commands. The first
command starts it; "waymark daemon stop" ends it and its browsers.

The daemon reads the browser settings (--headed, --executable-path, --cdp,
--browser-arg, [browser]) and the URL policy (--private-network, [policy])
once, when it starts. "waymark daemon restart" stops it and starts one with
the settings of this folder, environment and flags; a command whose
settings differ from the running daemon's says so.

Run with no subcommand, "waymark daemon" runs it in the foreground until
interrupted (this is how commands start it).`,
		Args: cmdutil.NoArgsOrSubcommand,
		// The daemon reads the config itself and reports a bad one; stop
		// and status must work whatever the file says.
		Annotations: map[string]string{cmdutil.ConfigOptional: "reads its own"},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.RunDaemon = f.RunDaemon
			opts.Globals = f.Globals
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return daemonRun(cmd.Context(), opts)
		},
	}
	cmd.AddCommand(newDaemonCtlCmd(f, nil, "stop", "Stop the daemon and its browsers"))
	cmd.AddCommand(newDaemonCtlCmd(f, nil, "status", "Show whether the daemon runs, and how"))
	cmd.AddCommand(newDaemonCtlCmd(f, nil, "restart", "Stop the daemon (closing every session) and start one with this command's settings"))
	return cmd
}

func daemonRun(ctx context.Context, opts *DaemonRunOptions) error {
	cfg, err := opts.ReadConfig()
	if err != nil {
		return err
	}
	err = opts.RunDaemon(ctx, opts.Globals, cfg)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil // stopped by a signal: the way a foreground daemon ends
	}
	return err
}

// NewCmdDaemonStop builds `waymark daemon stop`; exported for tests of its
// flags through runF.
func NewCmdDaemonStop(f *cmdutil.Factory, runF func(context.Context, *DaemonCtlOptions) error) *cobra.Command {
	return newDaemonCtlCmd(f, runF, "stop", "Stop the daemon and its browsers")
}

// NewCmdDaemonStatus builds `waymark daemon status`.
func NewCmdDaemonStatus(f *cmdutil.Factory, runF func(context.Context, *DaemonCtlOptions) error) *cobra.Command {
	return newDaemonCtlCmd(f, runF, "status", "Show whether the daemon runs, and how")
}

// NewCmdDaemonRestart builds `waymark daemon restart`.
func NewCmdDaemonRestart(f *cmdutil.Factory, runF func(context.Context, *DaemonCtlOptions) error) *cobra.Command {
	return newDaemonCtlCmd(f, runF, "restart", "Stop the daemon and start one with this command's settings")
}

func newDaemonCtlCmd(f *cmdutil.Factory, runF func(context.Context, *DaemonCtlOptions) error, op, short string) *cobra.Command {
	opts := &DaemonCtlOptions{Op: op}
	return &cobra.Command{
		Use:   op,
		Short: short,
		Args:  cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Running = f.RunningCaller
			if op != "restart" {
				opts.Caller = f.RunningCaller
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			switch op {
			case "stop":
				return daemonStopRun(cmd.Context(), opts)
			case "restart":
				return daemonRestartRun(cmd.Context(), opts)
			}
			return daemonStatusRun(cmd.Context(), opts)
		},
	}
}

// daemonStopRun stops the daemon; with none running that is done already,
// and exits 0.
func daemonStopRun(ctx context.Context, opts *DaemonCtlOptions) error {
	err := opts.Daemon().Stop(ctx)
	if err != nil && !errors.Is(err, cmdutil.ErrNoDaemon) {
		return err
	}
	running := err == nil
	return opts.Emit(map[string]any{"stopped": running}, func() error {
		if running {
			opts.Note("daemon stopped")
		} else {
			opts.Note("no daemon running")
		}
		return nil
	})
}

// stopWait bounds how long restart waits for a stopped daemon's socket to
// go quiet.
const stopWait = 10 * time.Second

// daemonRestartRun stops the daemon that runs, if any, waits until its
// socket no longer answers, and starts one with this command's settings
// (its folder's files, its environment, its flags).
func daemonRestartRun(ctx context.Context, opts *DaemonCtlOptions) error {
	running := rpc.Daemon{Caller: cmdutil.DialOnCall{Dial: opts.Running}}
	err := running.Stop(ctx)
	if err != nil && !errors.Is(err, cmdutil.ErrNoDaemon) {
		return err
	}
	stopped := err == nil
	if stopped {
		wctx, cancel := context.WithTimeout(ctx, stopWait)
		defer cancel()
		for {
			_, err := running.Status(wctx)
			if errors.Is(err, cmdutil.ErrNoDaemon) {
				break
			}
			if wctx.Err() != nil {
				return calls.Errorf(calls.ErrUnavailable, "run "+calls.Cmd("daemon status")+" to see its pid, and stop it with kill",
					"the waymark daemon was asked to stop but still answers after %s", stopWait)
			}
			_ = wait.Sleep(wctx, 20*time.Millisecond) // wctx's end is read above
		}
	}
	st, err := opts.Daemon().Status(ctx)
	if err != nil {
		return err
	}
	return opts.Emit(map[string]any{"restarted": stopped, "pid": st.PID, "settings": st.Settings}, func() error {
		if stopped {
			opts.Note("daemon restarted (pid %d)", st.PID)
		} else {
			opts.Note("no daemon was running; started one (pid %d)", st.PID)
		}
		return nil
	})
}

// daemonStatus is the --json data of `daemon status`.
type daemonStatus struct {
	Running bool `json:"running"`
	*rpc.DaemonStatus
}

// daemonStatusRun prints the daemon's status. No daemon is an answer, not
// a failure: it exits 0 with "running": false.
func daemonStatusRun(ctx context.Context, opts *DaemonCtlOptions) error {
	st, err := opts.Daemon().Status(ctx)
	if err != nil && !errors.Is(err, cmdutil.ErrNoDaemon) {
		return err
	}
	if err != nil {
		return opts.Emit(daemonStatus{Running: false}, func() error {
			_, err := fmt.Fprintln(opts.IO.Out, "no daemon running")
			return err
		})
	}
	return opts.Emit(daemonStatus{Running: true, DaemonStatus: st}, func() error {
		browser := st.Browser
		if browser == "" {
			browser = "(not started yet)"
		}
		uptime := (time.Duration(st.UptimeMS) * time.Millisecond).Round(time.Second)
		rows := [][]string{
			{"pid", strconv.Itoa(st.PID)},
			{"version", st.Version},
			{"socket", st.Socket},
			{"uptime", uptime.String()},
			{"browser", browser},
			{"sessions", strconv.Itoa(st.Sessions)},
		}
		for _, k := range slices.Sorted(maps.Keys(st.Settings)) {
			rows = append(rows, []string{"setting", k + " = " + st.Settings[k]})
		}
		for _, r := range rows {
			if _, err := fmt.Fprintf(opts.IO.Out, "%-9s %s\n", r[0]+":", r[1]); err != nil {
				return err
			}
		}
		return nil
	})
}
