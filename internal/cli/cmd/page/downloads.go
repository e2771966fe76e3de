package page

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// DownloadsOptions are the flags of `waymark downloads`.
type DownloadsOptions struct {
	cmdutil.Common
}

// NewCmdDownloads builds `waymark downloads`. It dials with
// Factory.RunningCaller: with no daemon there are no downloads, and
// starting one (and a browser) only to say so is waste.
func NewCmdDownloads(f *cmdutil.Factory, runF func(context.Context, *DownloadsOptions) error) *cobra.Command {
	opts := &DownloadsOptions{}
	return &cobra.Command{
		Use:   "downloads",
		Short: "List the session's downloads",
		Long: `List every download of the session in the order they began: its state
(completed, canceled, refused, in-progress), name, size, and where it landed
or why it was stopped. An action prints the downloads it started; this also
lists the ones a page began by itself, which the next snapshot tells of once.`,
		Example: "  waymark downloads\n  waymark downloads --json",
		Args:    cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Caller = f.RunningCaller
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return downloadsRun(cmd.Context(), opts)
		},
	}
}

func downloadsRun(ctx context.Context, opts *DownloadsOptions) error {
	list, err := opts.Remote().Downloads(ctx)
	if err != nil && !errors.Is(err, cmdutil.ErrNoDaemon) {
		return err
	}
	if list == nil {
		list = &calls.DownloadList{}
	}
	if list.Downloads == nil {
		list.Downloads = []calls.Download{}
	}
	return opts.Emit(list, func() error {
		if len(list.Downloads) == 0 {
			opts.Note("no downloads in session %q", opts.Session)
			return nil
		}
		return printDownloads(&opts.Common, list.Downloads)
	})
}

// printDownloads writes one line a download: state, name, bytes, and the
// path or the reason it was stopped.
func printDownloads(c *cmdutil.Common, list []calls.Download) error {
	rows := make([][]string, 0, len(list))
	for _, d := range list {
		where := d.Path
		if where == "" {
			where = d.Reason
		}
		rows = append(rows, []string{d.State, d.Name, strconv.FormatInt(d.Bytes, 10), where})
	}
	if !c.IO.IsStdoutTTY() {
		return cmdutil.PrintTable(c.IO.Out, false, nil, rows)
	}
	// Not printTable on a terminal: it shortens long cells, and a path cut
	// short is of no use. The last column is free to run long.
	tw := tabwriter.NewWriter(c.IO.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STATE\tNAME\tBYTES\tPATH OR REASON")
	for _, r := range rows {
		for i, v := range r {
			r[i] = cmdutil.FieldSpaces.Replace(v)
		}
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}
