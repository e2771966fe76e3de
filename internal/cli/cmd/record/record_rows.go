package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/recipe"
)

// RecordRowsOptions are the flags of `waymark record rows start|stop`.
type RecordRowsOptions struct {
	pilotflags.PilotOptions        // start --schema: the model that reads the list once
	Op                      string // "start" or "stop"
	RecipeFile              string // start: the recipe that reads the list; learned into it when it is missing and --schema is given
	SchemaFile              string // start: the list's schema, to learn the recipe with a model
	Instruction             string // start: what the list is
}

// newCmdRecordRows builds `waymark record rows start|stop`.
func newCmdRecordRows(f *cmdutil.Factory, runF func(context.Context, *RecordRowsOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rows start|stop",
		Short: "Record a loop over the rows of a list",
		Long: `Record a loop over a list's rows while recording: record rows start
--recipe FILE reads the list on the page by its recipe and prints its rows
(with --schema S and no FILE yet, the model reads the list once and the
recipe learned is saved to FILE); act in the first row; record rows stop
ends the loop. At replay the list is read by the
recipe with no model, and the steps run once per row: a control pressed in
the first row is pressed at the same place in each row (never healed), and
a value typed that was one of the first row's fields is that field of each
row (%row.field%).`,
		Example: "  waymark record start\n  waymark open shop.example/users\n" +
			"  waymark record rows start --recipe users.recipe.json 'every user'\n" +
			"  waymark click @e12   # Delete, in the first row\n" +
			"  waymark record rows stop\n  waymark record stop purge.json",
		Args: cobra.ArbitraryArgs,
		RunE: cmdutil.GroupRunE,
	}
	start := &RecordRowsOptions{Op: "start"}
	startCmd := &cobra.Command{
		Use:   "start [INSTRUCTION]",
		Short: "Start a loop over the rows a recipe reads",
		Args:  cmdutil.ArgsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			start.Common = f.Common()
			if len(args) > 0 {
				start.Instruction = args[0]
			}
			if runF != nil {
				return runF(cmd.Context(), start)
			}
			return recordRowsRun(cmd.Context(), start)
		},
	}
	startCmd.Flags().StringVar(&start.RecipeFile, "recipe", "", "the recipe (waymark.recipe/1) that reads the list; with --schema, learned into FILE when it does not exist")
	startCmd.Flags().StringVar(&start.SchemaFile, "schema", "", "the list's JSON Schema: the model reads the list once to learn its recipe")
	startCmd.Flags().StringVar(&start.Model.Model, "model", "", `with --schema: the model (anthropic:NAME, openai:NAME, or a name; env WAYMARK_MODEL)`)
	startCmd.Flags().StringVar(&start.Model.BaseURL, "base-url", "", "with --schema: an OpenAI-compatible server (env OPENAI_BASE_URL)")
	stop := &RecordRowsOptions{Op: "stop"}
	stopCmd := &cobra.Command{
		Use:   "stop",
		Short: "End the loop over rows",
		Args:  cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			stop.Common = f.Common()
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
		b, err := opts.recipe(ctx)
		if err != nil {
			return err
		}
		req.Recipe = b
	}
	res, err := opts.Remote().RecordRows(ctx, req)
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		if opts.Op == "stop" {
			opts.Note("the loop over rows holds %s", cmdutil.Count(res.Steps, "step"))
			return nil
		}
		for i, row := range res.Rows {
			fmt.Fprintf(opts.IO.Out, "%d\t%s\n", i+1, rowLine(row))
		}
		opts.Note("recording a loop over %s: act in row 1; its fields are %%row.FIELD%%; then waymark record rows stop", cmdutil.Count(len(res.Rows), "row"))
		return nil
	})
}

// rowLine is a row's values as JSON, for a person.
func rowLine(row map[string]any) string {
	b, _ := json.Marshal(row)
	return string(b)
}

// recipe is the loop's recipe as JSON: read from --recipe FILE, or, with
// --schema and no FILE yet, learned from the model's reading of the list
// (and saved to FILE when one is named).
func (opts *RecordRowsOptions) recipe(ctx context.Context) ([]byte, error) {
	var learnHint = "give --recipe FILE (learned by " + calls.Cmd("extract --schema S --recipe FILE") + "), or --schema S to learn it now with a model"
	if opts.RecipeFile != "" {
		b, err := os.ReadFile(opts.RecipeFile)
		switch {
		case err == nil:
			if _, err := recipe.Parse(b); err != nil {
				return nil, calls.Errorf(calls.ErrBadInput, "remove the file to learn it again with --schema S", "%s: %v", opts.RecipeFile, err)
			}
			return b, nil
		case !errors.Is(err, os.ErrNotExist) || opts.SchemaFile == "":
			return nil, calls.Errorf(calls.ErrBadInput, learnHint, "read the recipe: %v", err)
		}
	}
	if opts.SchemaFile == "" {
		return nil, cmdutil.UsageErrorf(learnHint, "record rows start needs --recipe FILE or --schema FILE")
	}
	schema, err := os.ReadFile(opts.SchemaFile)
	if err != nil {
		return nil, calls.Errorf(calls.ErrBadInput, "check the path", "read the schema: %v", err)
	}
	instruction := opts.Instruction
	if instruction == "" {
		instruction = "every row of the list"
	}
	p, _, _, err := opts.Pilot(ctx)
	if err != nil {
		return nil, err
	}
	res, err := p.ExtractWith(ctx, instruction, schema, pilot.ExtractOptions{Learn: true})
	if err != nil {
		return nil, err
	}
	if res.Recipe == nil {
		return nil, calls.Errorf(calls.ErrNoMatch, "say what the list is more precisely, or check the schema against the page",
			"the model read the list, but no recipe reads it again: %s", res.RecipeNote)
	}
	b, err := res.Recipe.Marshal()
	if err != nil {
		return nil, err
	}
	if opts.RecipeFile != "" {
		if err := os.WriteFile(opts.RecipeFile, b, 0o644); err != nil {
			return nil, fmt.Errorf("save the recipe: %w", err)
		}
		opts.Note("recipe learned and saved to %s", opts.RecipeFile)
	}
	return b, nil
}
