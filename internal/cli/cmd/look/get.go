package look

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// GetOptions are the flags of `waymark get …`.
type GetOptions struct {
	cmdutil.Common
	Request calls.GetRequest
}

// getSpec is one `get` subcommand: the thing read and its arguments.
type getSpec struct {
	what, args, short string
	n                 int // number of arguments
}

var getSpecs = []getSpec{
	{"title", "", "the page's title", 0},
	{"url", "", "the page's URL", 0},
	{"text", " TARGET", "the visible text of an element", 1},
	{"value", " TARGET", "the value of a field", 1},
	{"attr", " TARGET NAME", "an attribute of an element", 2},
	{"html", " TARGET", "the outer HTML of an element", 1},
	{"count", " LOCATOR", "how many elements a locator matches", 1},
}

// NewCmdGet builds `waymark get title|url|text|value|attr|html|count`.
func NewCmdGet(f *cmdutil.Factory, runF func(context.Context, *GetOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "get <what>",
		Short: "Read a value from the page",
		Long:  "Read one value from the page and print it on stdout.\n\n" + cmdutil.TargetHelp,
		Example: `  waymark get title
  waymark get text @e12
  waymark get attr @e12 href
  waymark get count 'role=link'`,
		Args: cobra.ArbitraryArgs,
		RunE: cmdutil.GroupRunE,
	}
	for _, s := range getSpecs {
		cmd.AddCommand(newGetCmd(f, runF, s))
	}
	return cmd
}

func newGetCmd(f *cmdutil.Factory, runF func(context.Context, *GetOptions) error, s getSpec) *cobra.Command {
	opts := &GetOptions{}
	return cmdutil.RunsInDaemon(&cobra.Command{
		Use:   s.what + s.args,
		Short: "Print " + s.short,
		Args:  cmdutil.ExactArgs(s.n),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Request = calls.GetRequest{What: s.what}
			if len(args) > 0 {
				opts.Request.Target = args[0]
			}
			if len(args) > 1 {
				opts.Request.Name = args[1]
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return getRun(cmd.Context(), opts)
		},
	})
}

func getRun(ctx context.Context, opts *GetOptions) error {
	res, err := opts.Remote().Get(ctx, opts.Request)
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		switch {
		case opts.Request.What == "count":
			_, err := fmt.Fprintln(opts.IO.Out, res.Count)
			return err
		case opts.Request.What == "attr" && !res.Found:
			// Nothing on stdout, so that "missing" and "empty" differ
			// for a script; the note says which.
			opts.Note("%s has no attribute %q", opts.Request.Target, opts.Request.Name)
			return nil
		case res.Note != "":
			opts.Note("%s", res.Note) // on stderr: stdout stays the value alone
		}
		_, err := fmt.Fprintln(opts.IO.Out, res.Value)
		return err
	})
}
