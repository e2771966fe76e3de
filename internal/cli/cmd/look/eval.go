package look

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// EvalOptions are the flags of `waymark eval`.
type EvalOptions struct {
	cmdutil.Common
	Request calls.EvalRequest
}

// NewCmdEval builds `waymark eval JS`.
func NewCmdEval(f *cmdutil.Factory, runF func(context.Context, *EvalOptions) error) *cobra.Command {
	opts := &EvalOptions{}
	cmd := &cobra.Command{
		Use:   "eval JS",
		Short: "Run a JavaScript expression and print its JSON value",
		Long: `Run a JavaScript expression in the page and print its value as JSON. It runs
in an isolated world that sees the DOM but not the page's own scripts;
--main-world runs it beside them. Give - to read the expression from stdin.`,
		Example: "  waymark eval 'document.title'\n  waymark eval '[...document.links].length'\n  waymark eval - < script.js",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			expr := args[0]
			if expr == "-" {
				b, err := io.ReadAll(opts.IO.In)
				if err != nil {
					return fmt.Errorf("read the expression from stdin: %w", err)
				}
				expr = string(b)
			}
			if strings.TrimSpace(expr) == "" {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "eval needs an expression")
			}
			opts.Request.Expression = expr
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return evalRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Request.MainWorld, "main-world", false, "run in the page's own world, beside its scripts")
	return cmd
}

func evalRun(ctx context.Context, opts *EvalOptions) error {
	res, err := opts.Remote().Eval(ctx, opts.Request)
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		v := strings.TrimSpace(string(res.Value))
		if v == "" {
			v = "null"
		}
		_, err := fmt.Fprintln(opts.IO.Out, v)
		return err
	})
}
