// Package root is waymark's command tree: the root command with its
// global flags and help groups, built from the commands of
// internal/cli/cmd/<noun>, and [MainWith], which runs it and turns the
// error into the exit status and, with --json, the envelope (both decided
// in internal/cli/cmdutil).
//
// Every command follows the same shape (STYLE rule 17): an XOptions struct,
// NewCmdX(f, runF) that parses flags into it, and xRun(ctx, opts) that makes
// the call and prints. Data goes to stdout, confirmations and errors to
// stderr; --json prints exactly one {"ok":…} object on stdout instead.
//
// The parts that live elsewhere (the daemon client, the daemon, the demo
// site) come in through [Deps]; internal/cli/wiring holds them for the real
// binary.
package root

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/envelope"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/version"

	"github.com/waymark-dev/waymark/calls"
)

// Deps are the parts of waymark the CLI uses but does not hold. Zero fields
// get a placeholder that fails with a clear "not wired" error (Now and
// Getenv get the real clock and environment).
type Deps struct {
	// Dial connects to the daemon for the given global options. With start
	// set it starts the daemon when none runs (passing on the browser
	// flags); without, it must return an error wrapping [ErrNoDaemon] when
	// none answers. cfg is the process's configuration (nil when it could
	// not be read): a running daemon whose settings differ from its daemon
	// settings is reported (see [checkDaemonSettings]). If the Caller also
	// implements io.Closer, it is closed when the command ends.
	Dial func(ctx context.Context, g cmdutil.GlobalOptions, cfg *config.Config, start bool) (cmdutil.Caller, error)
	// RunDaemon runs the daemon in the foreground until ctx is done, with
	// the socket of g and the browser and policy of cfg, the process's
	// configuration.
	RunDaemon func(ctx context.Context, g cmdutil.GlobalOptions, cfg *config.Config) error
	// ServeDemo serves the demo site on addr until ctx is done, calling
	// ready with its base URL once it listens.
	ServeDemo func(ctx context.Context, addr string, ready func(url string)) error
	Version   string              // the binary's version
	Now       func() time.Time    // nil: time.Now
	Getenv    func(string) string // nil: os.Getenv
	// Config merges the configuration files, the environment and flags,
	// the global flags set on the command line, into the process's one
	// configuration; nil reads ./waymark.toml and the user's config file,
	// with Getenv. It is called at most once a process.
	Config func(flags []config.Flag) (*config.Config, error)
	// Only is the name of the top-level command the arguments run, when
	// the caller knows it already (the daemon, running a command for the
	// front, found it to judge whether it may): the tree then holds that
	// command alone, as building the whole tree (some 60 commands and
	// their flags, ~1 ms) costs more than the rest of a short command.
	// What the command does and prints is the same: no command reads its
	// siblings, and what would (help, an unknown command's suggestions)
	// never runs in the daemon.
	Only string
}

// MainWith runs waymark with the given streams and dependencies and returns
// the exit status. Tests call it with fakes.
func MainWith(ctx context.Context, args []string, streams *iostreams.IOStreams, deps Deps) int {
	deps = deps.withDefaults()
	g := &cmdutil.GlobalOptions{}
	loadConfig := sync.OnceValues(func() (*config.Config, error) {
		return deps.Config(g.ConfigFlags())
	})
	// dialConfig is the configuration a dial compares the daemon's
	// settings with: none when it cannot be read (config show, doctor and
	// daemon stop run then, and report it or need none).
	dialConfig := func() *config.Config {
		c, err := loadConfig()
		if err != nil {
			return nil
		}
		return c
	}
	start := &lazyCaller{dial: func(ctx context.Context) (cmdutil.Caller, error) { return deps.Dial(ctx, *g, dialConfig(), true) }}
	running := &lazyCaller{dial: func(ctx context.Context) (cmdutil.Caller, error) { return deps.Dial(ctx, *g, dialConfig(), false) }}
	defer start.close()
	defer running.close()

	f := &cmdutil.Factory{
		IO:            streams,
		Caller:        start.get,
		RunningCaller: running.get,
		RunDaemon:     deps.RunDaemon,
		ServeDemo:     deps.ServeDemo,
		Now:           deps.Now,
		Version:       deps.Version,
		Config:        loadConfig,
		Getenv:        deps.Getenv,
	}
	root := newCmdRoot(f, g, deps.Only)
	root.SetArgs(args)
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)

	_, err := root.ExecuteContextC(ctx)
	if err != nil {
		var re *runError
		var ue *cmdutil.UsageError
		switch {
		case errors.As(err, &re):
			err = re.err
		case errors.As(err, &ue):
		default:
			// Anything cobra itself refused before a command ran (an
			// unknown command or flag, an Args check) is usage.
			err = &cmdutil.UsageError{Err: err, Hint: "run " + calls.Cmd("--help") + " for usage"}
		}
		// A call torn down by Ctrl-C may surface as a broken connection;
		// the user asked to stop, so report that.
		if errors.Is(ctx.Err(), context.Canceled) && !errors.Is(err, context.Canceled) {
			err = context.Canceled
		}
	}
	if err == nil {
		return cmdutil.ExitOK
	}
	// Flags may not have been parsed when the error came; look for --json
	// in the raw arguments so an agent still gets its envelope.
	var rp interface{ Reported() bool }
	if !errors.As(err, &rp) || !rp.Reported() {
		cmdutil.PrintError(streams.Out, streams.ErrOut, g.JSON || envelope.WantsJSON(args), streams.ColorStderr(), err)
	}
	return cmdutil.ExitCode(err)
}

func (d Deps) withDefaults() Deps {
	if d.Dial == nil {
		d.Dial = func(context.Context, cmdutil.GlobalOptions, *config.Config, bool) (cmdutil.Caller, error) {
			return nil, errNotWired("the daemon client (Deps.Dial)")
		}
	}
	if d.RunDaemon == nil {
		d.RunDaemon = func(context.Context, cmdutil.GlobalOptions, *config.Config) error {
			return errNotWired("the daemon (Deps.RunDaemon)")
		}
	}
	if d.ServeDemo == nil {
		d.ServeDemo = func(context.Context, string, func(string)) error {
			return errNotWired("the demo site (Deps.ServeDemo)")
		}
	}
	if d.Version == "" {
		d.Version = version.Self()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Getenv == nil {
		d.Getenv = os.Getenv
	}
	if d.Config == nil {
		getenv := d.Getenv
		d.Config = func(flags []config.Flag) (*config.Config, error) {
			wd, _ := os.Getwd()         // no working dir: no project file
			ud, _ := os.UserConfigDir() // no $HOME: no user file
			return config.Load(config.LoadOptions{Getenv: getenv, Dir: wd, UserDir: ud, Flags: flags})
		}
	}
	return d
}

// errNotWired is what a part of [Deps] left zero says when a command needs
// it: the caller of MainWith did not wire it (the real binary's parts are
// internal/cli/wiring's DefaultDeps).
func errNotWired(what string) error {
	return fmt.Errorf("%s is not wired in this process", what)
}

// runError marks an error returned by a command's own RunE, so that MainWith
// can tell it from cobra's parsing errors, which are all usage errors.
type runError struct{ err error }

func (e *runError) Error() string { return e.err.Error() }
func (e *runError) Unwrap() error { return e.err }

// markRunErrors wraps the RunE of cmd and its descendants.
func markRunErrors(cmd *cobra.Command) {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(c *cobra.Command, args []string) error {
			if err := run(c, args); err != nil {
				return &runError{err: err}
			}
			return nil
		}
	}
	for _, c := range cmd.Commands() {
		markRunErrors(c)
	}
}

// lazyCaller dials on first use and keeps the Caller for the rest of the
// process; a failed dial is not kept, so a later call may try again.
type lazyCaller struct {
	dial func(ctx context.Context) (cmdutil.Caller, error)

	mu     sync.Mutex // guards caller
	caller cmdutil.Caller
}

func (l *lazyCaller) get(ctx context.Context) (cmdutil.Caller, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.caller != nil {
		return l.caller, nil
	}
	c, err := l.dial(ctx)
	if err != nil {
		return nil, err
	}
	l.caller = c
	return c, nil
}

func (l *lazyCaller) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c, ok := l.caller.(io.Closer); ok {
		_ = c.Close()
	}
	l.caller = nil
}

// NewCmdRoot builds the waymark command and its subcommands. Global flags
// land in g. They have no defaults from the environment: the environment
// and the config files are merged under them by config.Load, once, in
// f.Config.
func NewCmdRoot(f *cmdutil.Factory, g *cmdutil.GlobalOptions) *cobra.Command {
	return newCmdRoot(f, g, "")
}

// newCmdRoot is NewCmdRoot; with only set (a top-level command's name), the
// root holds that command alone (see [Deps.Only]), or all of them when no
// command has that name.
func newCmdRoot(f *cmdutil.Factory, g *cmdutil.GlobalOptions, only string) *cobra.Command {
	onlyAt, found := [2]int{}, false
	if only != "" {
		onlyAt, found = commandAt()[only]
	}
	if !found {
		only = ""
	}
	root := &cobra.Command{
		Use:   "waymark <command> [flags]",
		Short: "A browser for AI agents",
		Long: `waymark drives Chromium for agents: open a page, look at it as an outline
with refs, act on the refs. A resident daemon keeps the browser between
commands; it starts on the first command.

  waymark open https://example.com
  waymark snapshot -i
  waymark click @e3

Try "waymark demo" for a tour.`,
		Version:       f.Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return cmdutil.UnknownSubcommand(cmd, args)
		},
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			g.NoteSet(cmd.Flags().Changed)
			if err := configSession(cmd, f, g); err != nil {
				return err
			}
			if g.Socket == "" {
				g.Socket = f.Env()("WAYMARK_SOCKET") // not a config key: where the daemon is, not how it works
			}
			if err := g.Check(); err != nil {
				return err
			}
			f.Session, f.JSON, f.Globals = g.Session, g.JSON, *g
			return nil
		},
	}
	root.SetFlagErrorFunc(cmdutil.FlagError)
	root.SetCompletionCommandGroupID("more") // waymark completion bash|zsh|fish|powershell, listed under More

	pf := root.PersistentFlags()
	pf.BoolVar(&g.JSON, "json", false, `print one JSON object: {"ok":true,"data":…} or {"ok":false,"error":…}`)
	g.AddConfigFlags(pf)
	pf.StringVar(&g.Socket, "socket", "", "the daemon's socket (env WAYMARK_SOCKET)")
	_ = pf.MarkHidden("socket")

	for gi, g := range groups {
		root.AddGroup(&cobra.Group{ID: g.id, Title: g.title})
		for i, mk := range g.cmds {
			if only != "" && onlyAt != [2]int{gi, i} {
				continue
			}
			c := mk(f)
			c.GroupID = g.id
			root.AddCommand(c)
		}
	}
	root.SetHelpCommandGroupID("more")
	markRunErrors(root)
	return root
}

// configSession sets the session from the configuration: --session, else
// WAYMARK_SESSION, else [session] name of a config file, else "default".
// A config file that cannot be read fails the command here, before
// anything is done with the wrong session or without the settings the
// file holds, unless the command is marked [configOptional] (it then
// takes --session, else "default").
func configSession(cmd *cobra.Command, f *cmdutil.Factory, g *cmdutil.GlobalOptions) error {
	cfg, err := f.ReadConfig()
	if err != nil {
		if isConfigOptional(cmd) {
			if g.Session == "" {
				g.Session = "default"
			}
			return nil
		}
		return &runError{err: err} // the file's error says what to fix; no usage hint
	}
	if cdp := cfg.Browser.CDP; cdp != "" && !g.IsSet("cdp") && !cmdutil.ValidCDP(cdp) { // --cdp: checked with the other flags
		return cmdutil.UsageErrorf("give a port (9222) or a URL (ws://127.0.0.1:9222/devtools/browser/…, http://127.0.0.1:9222)", "bad cdp %q (from %s)", cdp, cfg.Sources()["browser.cdp"])
	}
	if cmd.Flags().Changed("session") {
		return nil
	}
	g.Session = cfg.Session.Name
	src := cfg.Sources()["session.name"]
	if src == config.SourceDefault || strings.HasPrefix(src, "env ") {
		return nil
	}
	// A file named it: a person did not name it for this command.
	if !cmdutil.SessionName.MatchString(g.Session) {
		return cmdutil.UsageErrorf("use letters, digits, '.', '_' or '-' (up to 64)", "%s: bad session name %q in [session] name", src, g.Session)
	}
	f.SessionFromConfig = g.Session != "default"
	return nil
}

// isConfigOptional reports whether cmd or a command above it is marked
// [configOptional]; the root and cobra's help need no config either.
func isConfigOptional(cmd *cobra.Command) bool {
	if !cmd.HasParent() || cmd.Name() == "help" {
		return true
	}
	for c := cmd; c != nil; c = c.Parent() {
		if c.Annotations[cmdutil.ConfigOptional] != "" {
			return true
		}
	}
	return false
}
