package look

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// ConsoleOptions are the flags of `waymark console`.
type ConsoleOptions struct {
	cmdutil.Common
	Request calls.ConsoleRequest
}

// NewCmdConsole builds `waymark console`.
func NewCmdConsole(f *cmdutil.Factory, runF func(context.Context, *ConsoleOptions) error) *cobra.Command {
	opts := &ConsoleOptions{}
	cmd := &cobra.Command{
		Use:   "console",
		Short: "Read what the session's pages logged to the console",
		Long: `Read the console messages of the session's pages, oldest first: what
the page logged (console.log, warn, error, assert), uncaught exceptions,
and the browser's own errors (a resource that failed to load, a refused
script). The session keeps the last 500 from the moment its tabs open,
with nothing added to the page to read them. Known secrets and what looks
like one (a token, a key) are masked.

Each line: the level, where it came from, the text and the script line.`,
		Example: "  waymark console\n  waymark console --errors\n  waymark console --last 20 --clear\n  waymark console --json",
		Args:    cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Caller = f.RunningCaller // no daemon, no pages: nothing to start for
			if opts.Request.Last < 0 {
				return cmdutil.UsageErrorf("leave it out to read every message kept", "--last must be 0 or more")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return consoleRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Request.Errors, "errors", false, "only errors: console.error, failed asserts, uncaught exceptions, the browser's errors")
	cmd.Flags().IntVar(&opts.Request.Last, "last", 0, "only the last N messages (0: all kept)")
	cmd.Flags().BoolVar(&opts.Request.Clear, "clear", false, "forget the messages after reading them")
	return cmd
}

func consoleRun(ctx context.Context, opts *ConsoleOptions) error {
	log, err := opts.Remote().Console(ctx, opts.Request)
	if errors.Is(err, cmdutil.ErrNoDaemon) {
		log, err = &calls.ConsoleLog{Messages: []calls.ConsoleMessage{}}, nil
	}
	if err != nil {
		return err
	}
	return opts.Emit(log, func() error {
		if len(log.Messages) == 0 {
			opts.Note("no console messages in session %q", opts.Session)
			return nil
		}
		rows := make([][]string, 0, len(log.Messages))
		for _, m := range log.Messages {
			rows = append(rows, []string{m.Level, m.Source, m.Text, where(m.URL, m.Line)})
		}
		if err := cmdutil.PrintTable(opts.IO.Out, opts.IO.IsStdoutTTY(), []string{"LEVEL", "SOURCE", "TEXT", "WHERE"}, rows); err != nil {
			return err
		}
		if log.Dropped > 0 {
			opts.Note("(%d older messages were let go)", log.Dropped)
		}
		return nil
	})
}

// where is url:line, or url, or "".
func where(url string, line int) string {
	if url == "" || line == 0 {
		return url
	}
	return url + ":" + strconv.Itoa(line)
}

// NetworkOptions are the flags of `waymark network`.
type NetworkOptions struct {
	cmdutil.Common
	Request calls.NetworkRequest
}

// NewCmdNetwork builds `waymark network`.
func NewCmdNetwork(f *cmdutil.Factory, runF func(context.Context, *NetworkOptions) error) *cobra.Command {
	opts := &NetworkOptions{}
	cmd := &cobra.Command{
		Use:   "network",
		Short: "List the requests the session's pages made",
		Long: `List the requests of the session's pages, oldest first: the status (or
why no answer came: net::ERR_…, canceled, blocked), the method, the
resource type, the time it took and the URL. A redirect is a request of
its own. The session keeps the last 1000 from the moment its tabs open,
with nothing added to the page to read them. What looks like a secret in
a URL (a token, a key) and known secrets are masked.`,
		Example: "  waymark network\n  waymark network --failed\n  waymark network --type fetch --last 10\n  waymark network --json",
		Args:    cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Caller = f.RunningCaller // no daemon, no pages: nothing to start for
			if opts.Request.Last < 0 {
				return cmdutil.UsageErrorf("leave it out to list every request kept", "--last must be 0 or more")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return networkRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Request.Failed, "failed", false, "only requests that failed or answered 400 and above")
	cmd.Flags().StringVar(&opts.Request.Type, "type", "", "only one resource type: document, fetch, xhr, script, stylesheet, image, font, media, other")
	cmd.Flags().IntVar(&opts.Request.Last, "last", 0, "only the last N requests (0: all kept)")
	cmd.Flags().BoolVar(&opts.Request.Clear, "clear", false, "forget the requests after reading them")
	return cmd
}

func networkRun(ctx context.Context, opts *NetworkOptions) error {
	log, err := opts.Remote().Network(ctx, opts.Request)
	if errors.Is(err, cmdutil.ErrNoDaemon) {
		log, err = &calls.NetworkLog{Requests: []calls.Request{}}, nil
	}
	if err != nil {
		return err
	}
	return opts.Emit(log, func() error {
		if len(log.Requests) == 0 {
			opts.Note("no requests in session %q", opts.Session)
			return nil
		}
		rows := make([][]string, 0, len(log.Requests))
		for _, r := range log.Requests {
			rows = append(rows, []string{requestOutcome(r), r.Method, r.Type, durationCell(r), r.URL})
		}
		if err := cmdutil.PrintTable(opts.IO.Out, opts.IO.IsStdoutTTY(), []string{"STATUS", "METHOD", "TYPE", "TIME", "URL"}, rows); err != nil {
			return err
		}
		if log.Dropped > 0 {
			opts.Note("(%d older requests were let go)", log.Dropped)
		}
		return nil
	})
}

// requestOutcome is the status, why it failed, or "pending".
func requestOutcome(r calls.Request) string {
	switch {
	case r.Status > 0:
		return strconv.Itoa(r.Status)
	case r.Failed != "":
		return r.Failed
	case r.Pending:
		return "pending"
	}
	return "-"
}

func durationCell(r calls.Request) string {
	if r.Pending {
		return ""
	}
	return fmt.Sprintf("%d ms", r.DurationMS)
}
