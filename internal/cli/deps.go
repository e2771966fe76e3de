package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/daemon"
	"github.com/waymark-dev/waymark/internal/daemon/client"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/policy"
)

// version is set at build time (see the Makefile); a plain go build leaves
// it empty and [buildVersion] makes one from the executable.
var version string

// DefaultDeps returns the dependencies [Main] runs with: the daemon client,
// the daemon itself and the demo site.
func DefaultDeps() Deps {
	v := buildVersion()
	return Deps{
		Dial: func(ctx context.Context, g GlobalOptions, start bool) (Caller, error) {
			return dialDaemon(g, start, v)
		},
		RunDaemon: runDaemon(v),
		ServeDemo: serveDemo,
		Version:   v,
	}
}

func dialDaemon(g GlobalOptions, start bool, v string) (Caller, error) {
	var args []string
	if g.ExecutablePath != "" {
		args = append(args, "--executable-path", g.ExecutablePath)
	}
	if g.Headed {
		args = append(args, "--headed")
	}
	if g.CDP != "" {
		args = append(args, "--cdp", g.CDP)
	}
	for _, a := range g.BrowserArgs {
		args = append(args, "--browser-arg", a)
	}
	if g.PrivateNetwork != "" {
		args = append(args, "--private-network", g.PrivateNetwork)
	}
	c := client.New(client.Options{Socket: g.Socket, AutoStart: start, Args: args, Version: v, Stderr: os.Stderr})
	if start {
		return c, nil
	}
	return noStartCaller{c}, nil
}

// noStartCaller reports "no daemon" for a daemon that does not answer,
// for the commands that only make sense with one running.
type noStartCaller struct{ c *client.Client }

func (n noStartCaller) Call(ctx context.Context, session, method string, params, result any) error {
	err := n.c.Call(ctx, session, method, params, result)
	if err != nil && errors.Is(err, calls.ErrUnavailable) {
		return fmt.Errorf("%w: %v", ErrNoDaemon, err)
	}
	return err
}

func (n noStartCaller) Close() error { return n.c.Close() }

// runDaemon runs the daemon in the foreground: the socket first, the
// browser on the first page call.
func runDaemon(v string) func(ctx context.Context, o DaemonOptions) error {
	return func(ctx context.Context, o DaemonOptions) error {
		socket := o.Socket
		if socket == "" {
			socket = os.Getenv("WAYMARK_SOCKET")
		}
		log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
		opts, err := daemonDriverOptions(ctx, o)
		if err != nil {
			return err
		}
		opts.Logger = log
		m := sessions.New(opts)
		return daemon.Main(ctx, daemon.Options{Socket: socket, Handler: m, Logger: log, Version: v})
	}
}

// serveDemo serves the demo site on addr until ctx ends.
func serveDemo(ctx context.Context, addr string, ready func(url string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("demo site: %w", err)
	}
	srv := &http.Server{Handler: demo.New(nil), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }() // ends when Shutdown closes ln
	ready("http://" + ln.Addr().String())
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return nil
	}
}

// buildVersion is the version stamped at build time, or, for a development
// build, one made from the executable's size and time, so that a rebuilt
// binary replaces a daemon started by the old one.
func buildVersion() string {
	if version != "" {
		return version
	}
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			v += fmt.Sprintf("+%x.%x", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return v
}

// daemonDriverOptions merges the config files (./waymark.toml, the user's
// config) and the environment under the flags the daemon was started with,
// and resolves the engine: a CDP endpoint when one is configured and
// answers, else a local Chromium (or an error when fallback is off).
func daemonDriverOptions(ctx context.Context, o DaemonOptions) (driver.Options, error) {
	dir, _ := os.Getwd()
	userDir, _ := os.UserConfigDir()
	var flags []config.Flag
	if o.ExecutablePath != "" {
		flags = append(flags, config.Flag{Name: "--executable-path", Key: "browser.executable", Value: o.ExecutablePath})
	}
	if o.CDP != "" {
		flags = append(flags, config.Flag{Name: "--cdp", Key: "browser.cdp", Value: o.CDP})
	}
	if o.Headed {
		flags = append(flags, config.Flag{Name: "--headed", Key: "browser.headless", Value: "false"})
	}
	if o.PrivateNetwork != "" {
		flags = append(flags, config.Flag{Name: "--private-network", Key: "policy.private_network", Value: o.PrivateNetwork})
	}
	cfg, err := config.Load(config.LoadOptions{Getenv: os.Getenv, Dir: dir, UserDir: userDir, Flags: flags})
	if err != nil {
		return driver.Options{}, err
	}
	access, err := policy.ParseAccess(cfg.Policy.PrivateNetwork)
	if err != nil {
		return driver.Options{}, err
	}
	pol, err := policy.New(policy.Options{Allow: cfg.Policy.Allow, Block: cfg.Policy.Block, PrivateNetwork: access})
	if err != nil {
		return driver.Options{}, err
	}
	opts := driver.Options{ExecPath: cfg.Browser.Executable, Headed: !cfg.Browser.Headless,
		Args: append(append([]string(nil), cfg.Browser.Args...), o.BrowserArgs...), Policy: pol}
	engine, err := config.ResolveEngine(ctx, cfg, config.ProbeCDP)
	if err != nil {
		return driver.Options{}, err
	}
	if engine == config.EngineCDP {
		opts.CDP = cfg.Browser.CDP
	}
	return opts, nil
}
