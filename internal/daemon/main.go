package daemon

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

// Main runs a daemon for the "waymark daemon" command: it ignores SIGHUP,
// so that closing the terminal that started it does not stop it, stops
// gracefully on SIGINT or SIGTERM, and logs JSON to stderr when
// opts.Logger is nil (a daemon started by package client has its stderr in
// its log file). It returns what [Server.Run] returns.
func Main(ctx context.Context, opts Options) error {
	signal.Ignore(syscall.SIGHUP)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil)) // New redacts it
	}
	return New(opts).Run(ctx)
}
