package nav

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// TabOptions are the flags of `waymark tab …`.
type TabOptions struct {
	cmdutil.Common
	Request calls.TabRequest
}

// NewCmdTab builds `waymark tab [list|new|switch|close]`; bare `tab` lists.
func NewCmdTab(f *cmdutil.Factory, runF func(context.Context, *TabOptions) error) *cobra.Command {
	listOpts := &TabOptions{}
	run := func(cmd *cobra.Command, opts *TabOptions) error {
		opts.Common = f.Common()
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return tabRun(cmd.Context(), opts)
	}
	cmd := &cobra.Command{
		Use:     "tab [list|new [URL]|switch N|close [N]]",
		Aliases: []string{"tabs"},
		Short:   "List, open, switch and close tabs",
		Long:    "Manage the session's tabs. Tabs are numbered from 0 in the order \"tab list\" shows; with no subcommand, list them.",
		Example: "  waymark tab\n  waymark tab new https://example.com\n  waymark tab switch 1\n  waymark tab close",
		Args:    cmdutil.NoArgsOrSubcommand,
		RunE: func(cmd *cobra.Command, args []string) error {
			listOpts.Request = calls.TabRequest{Op: "list"}
			return run(cmd, listOpts)
		},
	}

	list := &cobra.Command{
		Use:   "list",
		Short: "List the tabs",
		Args:  cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			listOpts.Request = calls.TabRequest{Op: "list"}
			return run(cmd, listOpts)
		},
	}
	newOpts := &TabOptions{}
	newTab := &cobra.Command{
		Use:   "new [URL]",
		Short: "Open a tab (blank, or at URL) and switch to it",
		Args:  cmdutil.ArgsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			newOpts.Request = calls.TabRequest{Op: "new"}
			if len(args) == 1 {
				newOpts.Request.URL = args[0]
			}
			return run(cmd, newOpts)
		},
	}
	switchOpts := &TabOptions{}
	switchTab := &cobra.Command{
		Use:   "switch N",
		Short: "Make tab N the current tab",
		Args:  cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := tabIndex(cmd, args[0])
			if err != nil {
				return err
			}
			switchOpts.Request = calls.TabRequest{Op: "switch", Index: n}
			return run(cmd, switchOpts)
		},
	}
	closeOpts := &TabOptions{}
	closeTab := &cobra.Command{
		Use:   "close [N]",
		Short: "Close tab N, or the current tab",
		Args:  cmdutil.ArgsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			closeOpts.Request = calls.TabRequest{Op: "close", Index: -1}
			if len(args) == 1 {
				n, err := tabIndex(cmd, args[0])
				if err != nil {
					return err
				}
				closeOpts.Request.Index = n
			}
			return run(cmd, closeOpts)
		},
	}
	// Every form is one call on the session's tabs.
	for _, c := range []*cobra.Command{cmd, list, newTab, switchTab, closeTab} {
		cmdutil.RunsInDaemon(c)
	}
	cmd.AddCommand(list, newTab, switchTab, closeTab)
	return cmd
}

func tabIndex(cmd *cobra.Command, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, cmdutil.UsageErrorf("tabs are numbered from 0; see "+calls.Cmd("tab list"), "%s: bad tab number %q", cmd.CommandPath(), s)
	}
	return n, nil
}

func tabRun(ctx context.Context, opts *TabOptions) error {
	tabs, err := opts.Remote().Tab(ctx, opts.Request)
	if err != nil {
		return err
	}
	return opts.Emit(tabs, func() error {
		switch opts.Request.Op {
		case "list":
			return printTabs(&opts.Common, tabs.Tabs)
		case "new":
			opts.Note("opened tab %s", describeCurrentTab(*tabs))
		case "switch":
			opts.Note("switched to tab %s", describeCurrentTab(*tabs))
		case "close":
			opts.Note("closed the tab; now on tab %s", describeCurrentTab(*tabs))
		}
		return nil
	})
}

func describeCurrentTab(tabs calls.TabList) string {
	for _, t := range tabs.Tabs {
		if t.Current {
			return fmt.Sprintf("%d: %s", t.Index, cmdutil.DescribePage(calls.PageInfo{URL: t.URL, Title: t.Title}))
		}
	}
	return "(none open)"
}

func printTabs(c *cmdutil.Common, tabs []calls.TabInfo) error {
	rows := make([][]string, 0, len(tabs))
	for _, t := range tabs {
		cur := ""
		if t.Current {
			cur = "*"
		}
		rows = append(rows, []string{strconv.Itoa(t.Index), cur, t.URL, t.Title})
	}
	return cmdutil.PrintTable(c.IO.Out, c.IO.IsStdoutTTY(), []string{"TAB", "", "URL", "TITLE"}, rows)
}
