package cli

import (
	"context"
	"log/slog"
	"os"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/batchd"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// batchHandler is the daemon's handler with its batch service: the
// sessions' calls, and batch.* (issue 21). Batches the store holds are
// resumed at once.
func batchHandler(ctx context.Context, g cmdutil.GlobalOptions, cfg *config.Config, m *sessions.Manager, opts driver.Options, log *slog.Logger) batchd.Handler {
	svc := batchd.New(batchd.Options{
		Dir:    batchd.DefaultDir(g.Socket, os.Getenv),
		Batch:  cfg.Batch,
		Pool:   cfg.Pool,
		Local:  m,
		Remote: remoteEndpoint(opts),
		Logger: log,
	})
	go svc.Resume(ctx) // exits once the batches left are resumed
	return batchd.Handler{Sessions: m, Batches: svc}
}

// remoteEndpoint makes a session manager for a CDP endpoint of [pool]:
// the daemon's options, attached to that browser.
func remoteEndpoint(opts driver.Options) func(endpoint string) (calls.Caller, func() error) {
	return func(endpoint string) (calls.Caller, func() error) {
		o := opts
		o.CDP = endpoint
		m := sessions.New(o)
		return m, m.Close
	}
}
