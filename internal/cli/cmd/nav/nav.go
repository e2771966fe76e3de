package nav

import (
	"context"
	"time"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// OpenOptions are the flags of `waymark open`.
type OpenOptions struct {
	cmdutil.Common
	Request calls.OpenRequest
}

// NewCmdOpen builds `waymark open URL`.
func NewCmdOpen(f *cmdutil.Factory, runF func(context.Context, *OpenOptions) error) *cobra.Command {
	opts := &OpenOptions{}
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:     "open URL",
		Aliases: []string{"goto"},
		Short:   "Go to a URL in the current tab",
		Long:    "Go to a URL in the current tab and wait for it to load. A URL with no scheme gets https://.",
		Example: "  waymark open example.com\n  waymark open http://localhost:3000/login --timeout 60s",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Request.URL = args[0]
			ms, err := f.CommandTimeout(cmd, timeout)
			if err != nil {
				return err
			}
			opts.Request.TimeoutMS = ms
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return openRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddTimeoutFlag(cmd, &timeout, "the page to load")
	return cmdutil.RunsInDaemon(cmd)
}

func openRun(ctx context.Context, opts *OpenOptions) error {
	page, err := opts.Remote().Open(ctx, opts.Request)
	if err != nil {
		return err
	}
	return opts.Emit(page, func() error {
		opts.Said("opened %s", cmdutil.DescribePage(*page))
		return nil
	})
}

// HistoryOptions are the flags of `waymark back`, `forward` and `reload`.
type HistoryOptions struct {
	cmdutil.Common
	Method string // calls.MethodBack, MethodForward or MethodReload
}

// NewCmdBack builds `waymark back`.
func NewCmdBack(f *cmdutil.Factory, runF func(context.Context, *HistoryOptions) error) *cobra.Command {
	return newHistoryCmd(f, runF, calls.MethodBack, "back", "Go back one page in the tab's history")
}

// NewCmdForward builds `waymark forward`.
func NewCmdForward(f *cmdutil.Factory, runF func(context.Context, *HistoryOptions) error) *cobra.Command {
	return newHistoryCmd(f, runF, calls.MethodForward, "forward", "Go forward one page in the tab's history")
}

// NewCmdReload builds `waymark reload`.
func NewCmdReload(f *cmdutil.Factory, runF func(context.Context, *HistoryOptions) error) *cobra.Command {
	return newHistoryCmd(f, runF, calls.MethodReload, "reload", "Reload the current page")
}

func newHistoryCmd(f *cmdutil.Factory, runF func(context.Context, *HistoryOptions) error, method, use, short string) *cobra.Command {
	opts := &HistoryOptions{Method: method}
	return cmdutil.RunsInDaemon(&cobra.Command{
		Use:   use,
		Short: short,
		Args:  cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return historyRun(cmd.Context(), opts)
		},
	})
}

var historyVerbs = map[string]string{
	calls.MethodBack:    "went back",
	calls.MethodForward: "went forward",
	calls.MethodReload:  "reloaded",
}

var historyCalls = map[string]func(calls.Session, context.Context) (*calls.PageInfo, error){
	calls.MethodBack:    calls.Session.Back,
	calls.MethodForward: calls.Session.Forward,
	calls.MethodReload:  calls.Session.Reload,
}

func historyRun(ctx context.Context, opts *HistoryOptions) error {
	page, err := historyCalls[opts.Method](opts.Remote(), ctx)
	if err != nil {
		return err
	}
	return opts.Emit(page, func() error {
		if page.URL == "" {
			opts.Said("%s", historyVerbs[opts.Method])
			return nil
		}
		opts.Said("%s → %s", historyVerbs[opts.Method], cmdutil.DescribePage(*page))
		return nil
	})
}
