package look

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// SnapshotOptions are the flags of `waymark snapshot`.
type SnapshotOptions struct {
	cmdutil.Common
	Request calls.SnapshotRequest
}

// NewCmdSnapshot builds `waymark snapshot`.
func NewCmdSnapshot(f *cmdutil.Factory, runF func(context.Context, *SnapshotOptions) error) *cobra.Command {
	opts := &SnapshotOptions{}
	cmd := &cobra.Command{
		Use:     "snapshot",
		Aliases: []string{"look"},
		Short:   "Print the page as an outline with refs",
		Long: `Print the page as an outline, one element a line. Elements you can act on
carry a ref ([ref=e12]) that other commands take as a target (@e12 or e12).
What is on screen comes first in full; the rest is summed up (--full for all).
With --json, data holds the outline text and the tree.`,
		Example: "  waymark snapshot -i\n  waymark snapshot --scope @e40 --depth 3",
		Args:    cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			if opts.Request.Depth < 0 {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "--depth must not be negative, got %d", opts.Request.Depth)
			}
			// The tree is only for machines; the text is all a person reads.
			opts.Request.Tree = opts.JSON
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return snapshotRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVarP(&opts.Request.Interactive, "interactive", "i", false, "only elements with refs, and the structure that holds them")
	fl.BoolVar(&opts.Request.URLs, "urls", false, `links show where they go: url="…" (resolved, secrets masked)`)
	fl.BoolVar(&opts.Request.Changes, "changes", false, "when the page is the one of your last look, print only the lines that changed since (+ added, - removed, ~ changed: the element of that ref now reads so); on a new page of the same origin, a region that reads as on the last page is one line, \"- banner: (unchanged)\", and keeps the refs you read there; the first look after open is whole")
	fl.BoolVarP(&opts.Request.Compact, "compact", "c", false, "leave out empty structural lines")
	fl.StringVar(&opts.Request.Scope, "scope", "", "only the subtree of a ref or CSS selector")
	fl.IntVar(&opts.Request.Depth, "depth", 0, "at most this many levels (0: no limit)")
	fl.BoolVar(&opts.Request.Full, "full", false, "the whole page, not only what is on screen")
	return cmdutil.RunsInDaemon(cmd)
}

func snapshotRun(ctx context.Context, opts *SnapshotOptions) error {
	snap, err := opts.Remote().Snapshot(ctx, opts.Request)
	if err != nil {
		return err
	}
	return opts.Emit(snap, func() error {
		_, err := fmt.Fprint(opts.IO.Out, cmdutil.WithNewline(snap.Text))
		return err
	})
}
