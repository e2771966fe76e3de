package wiring

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/root"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/daemon"
	"github.com/waymark-dev/waymark/internal/daemon/client"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/internal/version"
	"github.com/waymark-dev/waymark/secret"
)

// DefaultDeps returns the dependencies [Main] runs with: the daemon client,
// the daemon itself and the demo site.
func DefaultDeps() root.Deps {
	v := version.Self()
	return root.Deps{
		Dial: func(ctx context.Context, g cmdutil.GlobalOptions, cfg *config.Config, start bool) (cmdutil.Caller, error) {
			return dialDaemon(g, cfg, start, v)
		},
		RunDaemon: runDaemon(v),
		ServeDemo: serveDemo,
		Version:   v,
	}
}

func dialDaemon(g cmdutil.GlobalOptions, cfg *config.Config, start bool, v string) (cmdutil.Caller, error) {
	c := client.New(client.Options{Socket: g.Socket, AutoStart: start, Args: g.DaemonArgs(), Version: v, Stderr: os.Stderr,
		CheckHello: checkDaemonSettings(cfg, os.Stderr, start)})
	if start {
		return c, nil
	}
	return noStartCaller{c}, nil
}

// noStartCaller reports "no daemon" for a daemon that does not answer,
// for the commands that only make sense with one running. One of another
// version answers: its error is said as it is.
type noStartCaller struct{ c *client.Client }

func (n noStartCaller) Call(ctx context.Context, session, method string, params, result any) error {
	err := n.c.Call(ctx, session, method, params, result)
	var ve *client.VersionError
	if err != nil && errors.Is(err, calls.ErrUnavailable) && !errors.As(err, &ve) {
		return fmt.Errorf("%w: %v", cmdutil.ErrNoDaemon, err)
	}
	return err
}

func (n noStartCaller) Close() error { return n.c.Close() }

// runDaemon runs the daemon in the foreground: the socket first, the
// browser on the first page call.
func runDaemon(v string) func(ctx context.Context, g cmdutil.GlobalOptions, cfg *config.Config) error {
	return func(ctx context.Context, g cmdutil.GlobalOptions, cfg *config.Config) error {
		// Redacted, as every logger is: the driver and the daemon log
		// errors, which may quote what a page or a caller sent.
		log := slog.New(secret.NewHandler(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}), nil))
		opts, err := daemonDriverOptions(ctx, cfg)
		if err != nil {
			return err
		}
		opts.Logger = log
		if opts.NetLog, err = daemonNetLog(g.Socket, cfg); err != nil {
			return err
		}
		m := sessions.New(opts)
		h := batchHandler(ctx, g, cfg, m, opts, log)
		return daemon.Main(ctx, daemon.Options{Socket: g.Socket, Handler: h, Logger: log, Version: v, Settings: cfg.DaemonSettings(), IdleTimeout: cfg.Daemon.Idle,
			Unqueued: map[string]daemon.UnqueuedFunc{rpc.MethodCLIRun: frontRunner(v)}})
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
