package wiring

import (
	"context"
	"log/slog"
	"os"

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
		Remote: cmdutil.RemoteEndpoint(opts),
		Logger: log,
	})
	go svc.Resume(ctx) // exits once the batches left are resumed
	return batchd.Handler{Sessions: m, Batches: svc}
}
