package memory

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// MemoryOptions are the flags of `waymark memory show|forget HOST`.
type MemoryOptions struct {
	cmdutil.Common
	Op, Host string
}

// NewCmdMemory builds `waymark memory show|forget HOST`.
func NewCmdMemory(f *cmdutil.Factory, runF func(context.Context, *MemoryOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "memory show|forget HOST",
		Short: "Show or forget the notes kept about a site",
		Long: `With [memory] dir = "…" in waymark.toml, a replay's heal is shown the notes
kept on the page's site, and keeps a lesson when it finds a control again
(what the control is called now). A lesson never holds a value typed in
the run. The notes are one Markdown file per host in that folder.`,
		Example: "  waymark memory show shop.example\n  waymark memory forget shop.example",
		Args:    cobra.ArbitraryArgs,
		RunE:    cmdutil.GroupRunE,
	}
	for _, op := range []struct{ name, short string }{
		{"show", "Print the notes kept about a site"},
		{"forget", "Remove the notes kept about a site"},
	} {
		opts := &MemoryOptions{Op: op.name}
		cmd.AddCommand(&cobra.Command{
			Use:   op.name + " HOST",
			Short: op.short,
			Args:  cmdutil.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				opts.Common = f.Common()
				opts.Host = args[0]
				if runF != nil {
					return runF(cmd.Context(), opts)
				}
				return memoryRun(opts)
			},
		})
	}
	return cmd
}

// memoryData is the data of `memory show|forget --json`.
type memoryData struct {
	Host   string `json:"host"`
	Notes  string `json:"notes,omitempty"`  // show: the file as it is
	Forgot bool   `json:"forgot,omitempty"` // forget: there were notes
}

func memoryRun(opts *MemoryOptions) error {
	d, ok := opts.MemoryDir()
	if !ok {
		return calls.Errorf(calls.ErrBadInput, `set [memory] dir = "~/.local/state/waymark/memory" in waymark.toml to keep notes`, "memory is off: no notes are kept")
	}
	out := memoryData{Host: opts.Host}
	var err error
	if opts.Op == "show" {
		out.Notes, err = d.Show(opts.Host)
	} else {
		out.Forgot, err = d.Forget(opts.Host)
	}
	if err != nil {
		return &calls.Error{Kind: calls.ErrBadInput, Msg: err.Error(), Hint: "give the site's host, such as shop.example"}
	}
	return opts.Emit(out, func() error {
		switch {
		case opts.Op == "show" && out.Notes == "":
			opts.Note("no notes kept about %s", opts.Host)
		case opts.Op == "show":
			fmt.Fprint(opts.IO.Out, out.Notes)
		case out.Forgot:
			opts.Said("forgot the notes about %s", opts.Host)
		default:
			opts.Note("no notes kept about %s", opts.Host)
		}
		return nil
	})
}
