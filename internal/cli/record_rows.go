package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/recipe"
)

// RecordRowsOptions are the flags of `waymark record rows start|stop`.
type RecordRowsOptions struct {
	Common
	Op          string // "start" or "stop"
	RecipeFile  string // start: the recipe that reads the list
	Instruction string // start: what the list is
}

// newCmdRecordRows builds `waymark record rows start|stop`.
func newCmdRecordRows(f *Factory, runF func(context.Context, *RecordRowsOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rows start|stop",
		Short: "Record a loop over the rows of a list",
		Long: `Record a loop over a list's rows while recording: record rows start
--recipe FILE reads the list on the page by its recipe (learn one with
waymark extract --schema S --recipe FILE) and prints its rows; act in the
first row; record rows stop ends the loop. At replay the list is read by the
recipe with no model, and the steps run once per row: a control pressed in
the first row is pressed at the same place in each row (never healed), and
a value typed that was one of the first row's fields is that field of each
row (%row.field%).`,
		Example: "  waymark record start\n  waymark open shop.example/users\n" +
			"  waymark record rows start --recipe users.recipe.json 'every user'\n" +
			"  waymark click @e12   # Delete, in the first row\n" +
			"  waymark record rows stop\n  waymark record stop purge.json",
		Args: cobra.ArbitraryArgs,
		RunE: groupRunE,
	}
	start := &RecordRowsOptions{Op: "start"}
	startCmd := &cobra.Command{
		Use:   "start [INSTRUCTION]",
		Short: "Start a loop over the rows a recipe reads",
		Args:  argsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			start.Common = f.common()
			if len(args) > 0 {
				start.Instruction = args[0]
			}
			if runF != nil {
				return runF(cmd.Context(), start)
			}
			return recordRowsRun(cmd.Context(), start)
		},
	}
	startCmd.Flags().StringVar(&start.RecipeFile, "recipe", "", "the recipe (waymark.recipe/1) that reads the list")
	stop := &RecordRowsOptions{Op: "stop"}
	stopCmd := &cobra.Command{
		Use:   "stop",
		Short: "End the loop over rows",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			stop.Common = f.common()
			if runF != nil {
				return runF(cmd.Context(), stop)
			}
			return recordRowsRun(cmd.Context(), stop)
		},
	}
	cmd.AddCommand(startCmd, stopCmd)
	return cmd
}

func recordRowsRun(ctx context.Context, opts *RecordRowsOptions) error {
	req := calls.RecordRowsRequest{Op: opts.Op, Instruction: opts.Instruction}
	if opts.Op == "start" {
		if opts.RecipeFile == "" {
			return usageErrorf("learn one with: waymark extract 'every row' --schema rows.json --recipe rows.recipe.json", "record rows start needs --recipe FILE")
		}
		b, err := os.ReadFile(opts.RecipeFile)
		if err != nil {
			return calls.Errorf(calls.ErrBadInput, "check the path, or learn one with waymark extract --schema S --recipe FILE", "read the recipe: %v", err)
		}
		if _, err := recipe.Parse(b); err != nil {
			return calls.Errorf(calls.ErrBadInput, "learn it again with waymark extract --schema S --recipe FILE", "%s: %v", opts.RecipeFile, err)
		}
		req.Recipe = b
	}
	res, err := opts.session().RecordRows(ctx, req)
	if err != nil {
		return err
	}
	return opts.emit(res, func() error {
		if opts.Op == "stop" {
			opts.note("the loop over rows holds %s", count(res.Steps, "step"))
			return nil
		}
		for i, row := range res.Rows {
			fmt.Fprintf(opts.IO.Out, "%d\t%s\n", i+1, rowLine(row))
		}
		opts.note("recording a loop over %s: act in row 1; its fields are %%row.FIELD%%; then waymark record rows stop", count(len(res.Rows), "row"))
		return nil
	})
}

// rowLine is a row's values as JSON, for a person.
func rowLine(row map[string]any) string {
	b, _ := json.Marshal(row)
	return string(b)
}
