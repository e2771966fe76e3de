package batch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/batch"
	"github.com/waymark-dev/waymark/internal/batchd"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/secret"
)

// WorkerOptions are the flags of `waymark worker`.
type WorkerOptions struct {
	cmdutil.Common
	NATS     string
	Parallel int
	CDP      []string
	Name     string
}

// NewCmdWorker builds `waymark worker --nats URL`.
func NewCmdWorker(f *cmdutil.Factory, runF func(context.Context, *WorkerOptions) error) *cobra.Command {
	opts := &WorkerOptions{}
	cmd := &cobra.Command{
		Use:   "worker --nats URL",
		Short: "Run batch rows from a NATS cluster on this machine",
		Long: `Take rows of batches from the NATS JetStream at --nats (or [batch] nats, with
its creds and TLS files) and run them, --parallel at a time, in this machine's
browser or in the browsers at --cdp (each with --parallel sessions at most).
Secrets the rows name (env:VAR, file:PATH) are read here. Stop it with Ctrl-C:
it takes no more rows, gives the rows under way 10 s to finish, and gives the
rest back to the stream.`,
		Example: "  waymark worker --nats nats://10.0.0.2:4222 --parallel 4\n  waymark worker --nats nats://10.0.0.2:4222 --cdp ws://127.0.0.1:9222/devtools/browser/abc",
		Args:    cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			if opts.Parallel < 1 || opts.Parallel > 64 {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "--parallel must be from 1 to 64, got %d", opts.Parallel)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return workerRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.NATS, "nats", "", "the NATS URL (nats://host:4222); default: [batch] nats")
	cmd.Flags().IntVar(&opts.Parallel, "parallel", 4, "rows at a time")
	cmd.Flags().StringArrayVar(&opts.CDP, "cdp", nil, "a browser to run rows in (a CDP endpoint); repeat for several; default: a local Chromium")
	cmd.Flags().StringVar(&opts.Name, "name", "", "the worker's name in results and leases; default: worker-HOST-PID")
	return cmd
}

func workerRun(ctx context.Context, opts *WorkerOptions) error {
	cfg, err := opts.ReadConfig()
	if err != nil {
		return err
	}
	b := cfg.Batch
	if opts.NATS != "" {
		b.NATS = opts.NATS
	}
	if b.NATS == "" {
		return cmdutil.UsageErrorf("pass --nats nats://host:4222 or set [batch] nats", "no NATS to take rows from")
	}
	if !strings.HasPrefix(b.NATS, "nats://") && !strings.HasPrefix(b.NATS, "tls://") {
		return cmdutil.UsageErrorf("write nats://host:4222", "--nats %q is not a nats:// URL", b.NATS)
	}
	name := opts.Name
	if name == "" {
		host, _ := os.Hostname()
		name = fmt.Sprintf("worker-%s-%d", strings.ReplaceAll(host, ".", "-"), os.Getpid())
	}
	log := slog.New(secret.NewHandler(slog.NewJSONHandler(opts.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelInfo}), nil))
	nc, err := batchd.Connect(b, name)
	if err != nil {
		return err
	}
	defer nc.Close()
	e, err := batch.Open(ctx, nc, batch.EngineOptions{})
	if err != nil {
		return err
	}
	dopts, err := cmdutil.DriverOptions(cfg)
	if err != nil {
		return err
	}
	dopts.Logger = log
	var eps []batch.Endpoint
	var closers []func() error
	if len(opts.CDP) == 0 {
		dopts.CDP = ""
		m := sessions.New(dopts)
		closers = append(closers, m.Close)
		host, _ := os.Hostname()
		eps = append(eps, batch.Endpoint{Name: "local:" + host + ":" + name, Caller: m, Max: opts.Parallel})
	}
	for _, ep := range opts.CDP {
		c, closeIt := cmdutil.RemoteEndpoint(dopts)(ep)
		closers = append(closers, closeIt)
		eps = append(eps, batch.Endpoint{Name: ep, Caller: c, Max: opts.Parallel})
	}
	defer func() {
		for _, c := range closers {
			_ = c()
		}
	}()
	pool, err := e.NewPool(name, eps)
	if err != nil {
		return err
	}
	defer pool.Close(context.WithoutCancel(ctx))
	opts.Note("worker %s: taking rows from %s, %d at a time", name, b.NATS, opts.Parallel)
	err = e.Work(ctx, batch.WorkerOptions{Name: name, Parallel: opts.Parallel * len(eps), Pool: pool, Getenv: opts.Env(), Logger: log, Grace: 10 * time.Second})
	if err == nil || errors.Is(err, context.Canceled) {
		return opts.Emit(map[string]string{"worker": name, "stopped": "canceled"}, nil)
	}
	return err
}
