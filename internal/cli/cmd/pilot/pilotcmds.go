package pilot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/sheet"
)

// ActCmdOptions are the flags of `waymark act`.
type ActCmdOptions struct {
	pilotflags.PilotOptions
	Instruction string
	AllowSubmit bool
}

// NewCmdAct builds `waymark act INSTRUCTION`.
func NewCmdAct(f *cmdutil.Factory, runF func(context.Context, *ActCmdOptions) error) *cobra.Command {
	opts := &ActCmdOptions{}
	cmd := &cobra.Command{
		Use:   "act INSTRUCTION",
		Short: "Do one step described in words: a model picks the element",
		Long: `Do one step on the page described in words. A model reads the page's outline
and picks the element; waymark takes the element's evidence from the live page
and does the step. With no model key, the rules model understands plain
instructions: click X, fill X with Y, type Y into X, select Y in X, check X,
press Enter, go to URL, scroll down. A step that would send, pay, delete or
confirm needs --allow-submit.`,
		Example: "  waymark act 'click Sign in'\n  waymark act 'fill Email with %email%' --var email=ann@example.com\n  waymark act 'fill Password with %pw%' --secret pw=env:SHOP_PASSWORD",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Instruction = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return actCmdRun(cmd.Context(), opts)
		},
	}
	pilotflags.AddPilotFlags(cmd, &opts.PilotOptions)
	pilotflags.AddVisionFlag(cmd, &opts.PilotOptions)
	cmd.Flags().BoolVar(&opts.AllowSubmit, "allow-submit", false, "let the step send a form, pay, delete or confirm")
	return cmd
}

func actCmdRun(ctx context.Context, opts *ActCmdOptions) error {
	p, desc, vars, err := opts.Pilot(ctx)
	if err != nil {
		return err
	}
	res, err := p.Act(ctx, opts.Instruction, &pilot.ActOptions{Vars: vars, AllowSubmit: opts.AllowSubmit})
	if err != nil {
		if errors.Is(err, calls.ErrNeedsApproval) {
			// The error's own line says what and why; what it sends
			// (the form's fields, where it goes) is said here.
			var a calls.Approval
			if json.Unmarshal(calls.DataOf(err), &a) == nil {
				if d := a.Details(); d != "" {
					opts.Note("%s", d)
				}
			}
		}
		return err
	}
	return opts.Emit(actJSON{Answer: res.Answer, Request: res.Request, Evidence: res.Evidence, Outcome: res.Outcome, Line: res.Line, Usage: res.Usage}, func() error {
		opts.Note("model: %s", desc)
		opts.Said("%s", actLine(res.Answer, res.Line))
		if res.Evidence != nil && res.Evidence.Chosen != "" {
			opts.Said("locator: %s", res.Evidence.Chosen)
		}
		if res.Outcome != nil {
			opts.Said("→ %s", cmdutil.DescribePage(calls.PageInfo{URL: res.Outcome.URL, Title: res.Outcome.Title}))
			if res.Outcome.Closed != "" { // what was in the way, closed without asking, as the act commands say
				opts.Said("before acting, %s", res.Outcome.Closed)
			}
			if n := res.Outcome.NotSent.Note(); n != "" { // the browser's validation stopped the submit
				opts.Said("%s", n)
			}
		}
		return nil
	})
}

// actLine says what act did: the action and the element's outline line,
// or for a step with no element what it went to or pressed ("goto goto"
// and "press press" before).
func actLine(a pilot.ActAnswer, line string) string {
	switch {
	case line != "":
		return a.Action + " " + line
	case a.URL != "":
		return a.Action + " " + a.URL
	case a.Key != "":
		return a.Action + " " + a.Key
	case a.Direction != "":
		return a.Action + " " + a.Direction
	}
	return a.Action
}

// actJSON is the data of `act --json`: pilot.ActResult with the JSON
// names of the output contract (docs/json.md).
type actJSON struct {
	Answer   pilot.ActAnswer  `json:"answer"`
	Request  calls.ActRequest `json:"request"`
	Evidence *calls.Evidence  `json:"evidence,omitempty"`
	Outcome  *calls.Outcome   `json:"outcome,omitempty"`
	Line     string           `json:"line,omitempty"`
	Usage    pilot.Usage      `json:"usage"`
}

// ObserveOptions are the flags of `waymark observe`.
type ObserveOptions struct {
	pilotflags.PilotOptions
	Question string
}

// NewCmdObserve builds `waymark observe QUESTION`.
func NewCmdObserve(f *cmdutil.Factory, runF func(context.Context, *ObserveOptions) error) *cobra.Command {
	opts := &ObserveOptions{}
	cmd := &cobra.Command{
		Use:     "observe QUESTION",
		Short:   "Ask which elements answer a question, without acting",
		Example: "  waymark observe 'where do I change my password?'",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Question = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return observeRun(cmd.Context(), opts)
		},
	}
	pilotflags.AddPilotFlags(cmd, &opts.PilotOptions)
	return cmd
}

func observeRun(ctx context.Context, opts *ObserveOptions) error {
	p, _, _, err := opts.Pilot(ctx)
	if err != nil {
		return err
	}
	res, err := p.Observe(ctx, opts.Question)
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		for _, o := range res.Observations {
			fmt.Fprintf(opts.IO.Out, "@%s\t%s\t%s\n", o.Ref, o.Line, o.Action)
		}
		if len(res.Dropped) > 0 {
			// Refs the model gave that are not on the page: said, not
			// silently left out.
			opts.Note("left out %s the model named that %s not on the page: %s", cmdutil.Count(len(res.Dropped), "ref"),
				map[bool]string{true: "is", false: "are"}[len(res.Dropped) == 1], strings.Join(res.Dropped, ", "))
		}
		if len(res.Observations) == 0 {
			opts.Note("nothing on the page answers that")
		}
		return nil
	})
}

// ExtractOptions are the flags of `waymark extract`.
type ExtractOptions struct {
	pilotflags.PilotOptions
	Instruction string
	SchemaFile  string
	// RecipeFile reads the list by the recipe in it with no model; when
	// it does not exist yet, or the recipe no longer fits, the model reads
	// the page and the recipe learned is saved there.
	RecipeFile string
	// Over pages: --pages, --scroll, --key, --limit, --until, --seen.
	Pages  int
	Scroll bool
	Key    string
	Limit  int
	Until  string
	// UntilField is the row's field --until compares; empty: a field the
	// schema gives format date or date-time, else the first that reads as
	// a date.
	UntilField string
	SeenFile   string
	// LearnAPI, after the extract, learns the site API call behind the
	// rows from the session's capture and writes its recipe there
	// (extract_api.go).
	LearnAPI string
	// SheetOf, when set, says whether the page is a spreadsheet and how
	// to dump it (nil: it is not); unset, the session is asked.
	SheetOf func(ctx context.Context) (pilot.SheetDump, error)
}

// NewCmdExtract builds `waymark extract INSTRUCTION --schema FILE`.
func NewCmdExtract(f *cmdutil.Factory, runF func(context.Context, *ExtractOptions) error) *cobra.Command {
	opts := &ExtractOptions{}
	cmd := &cobra.Command{
		Use:   "extract INSTRUCTION --schema FILE",
		Short: "Read data from the whole page into JSON that fits a schema",
		Long: `Read data from the page into JSON checked against a JSON Schema. Long pages
are read in parts. A value the page does not show is null. Prints the JSON;
exits 1 when it still does not fit the schema after one retry.

With --recipe FILE and a list schema (an array of objects, or an object
holding one), the model's rows are found in the page and the way to read
them is saved to FILE (waymark.recipe/1); the next extract with --recipe
FILE reads the list with no model. When the page changed so the recipe no
longer fits, it says so and, with a model, learns it again (a heal).

On a spreadsheet a list is read from the sheet's tables: each field from
the column its header names, a model only for fields no header names (it
answers with column letters); --recipe FILE then holds a grid recipe
(waymark.grid/1) that finds the table again by its header row.`,
		Example: "  waymark extract 'every product with its price' --schema products.json\n  waymark extract 'every product' --schema products.json --recipe products.recipe.json",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Instruction = args[0]
			if opts.SchemaFile == "" {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "extract needs --schema FILE")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return extractRun(cmd.Context(), opts)
		},
	}
	pilotflags.AddPilotFlags(cmd, &opts.PilotOptions)
	pilotflags.AddVisionFlag(cmd, &opts.PilotOptions)
	cmd.Flags().StringVar(&opts.SchemaFile, "schema", "", "a JSON Schema file for the answer")
	cmd.Flags().StringVar(&opts.RecipeFile, "recipe", "", "read the list by this recipe with no model; learn it into this file when it is missing or no longer fits")
	cmd.Flags().IntVar(&opts.Pages, "pages", 0, "read up to N pages, following the next-page control")
	cmd.Flags().BoolVar(&opts.Scroll, "scroll", false, "with --pages: scroll a page that grows instead")
	cmd.Flags().StringVar(&opts.Key, "key", "", "the field naming a row: rows repeated across pages are merged")
	cmd.Flags().IntVar(&opts.Limit, "limit", 0, "stop at N rows")
	cmd.Flags().StringVar(&opts.Until, "until", "", `stop at the first row older than this date ("2026-11-01", "3 days ago")`)
	cmd.Flags().StringVar(&opts.UntilField, "until-field", "", "with --until: the field holding each row's date (default: the schema's date field, else the first that reads as a date)")
	cmd.Flags().StringVar(&opts.SeenFile, "seen", "", "with --key: leave out rows whose keys are in FILE, and add this run's keys to it")
	cmd.Flags().StringVar(&opts.LearnAPI, "learn-api", "", "then learn the site's API call behind the rows from the session's capture (waymark capture start first) and write its recipe (waymark.api/1) to FILE")
	return cmd
}

func extractRun(ctx context.Context, opts *ExtractOptions) error {
	schema, err := os.ReadFile(opts.SchemaFile)
	if err != nil {
		return &calls.Error{Kind: calls.ErrBadInput, Msg: fmt.Sprintf("read the schema: %v", err), Hint: "check the path"}
	}
	xo, err := opts.extractOptions()
	if err != nil {
		return err
	}
	if opts.LearnAPI != "" {
		if _, err := opts.readCapture(ctx); err != nil {
			return err
		}
	}
	if xo.List, err = opts.listOptions(); err != nil {
		return err
	}
	// A page recipe says the page is no sheet: it is read with no look.
	if xo.Recipe == nil {
		if xo.Sheet, err = opts.sheetOf(ctx); err != nil {
			return err
		}
	}
	// The rules model reads no lists nor sheets: a misfit says a model
	// is needed, and a sheet's unplaced fields stay null.
	opts.NoRules = xo.Recipe != nil || xo.Sheet != nil
	p, _, _, err := opts.Pilot(ctx)
	if err != nil {
		return err
	}
	res, err := p.ExtractWith(ctx, opts.Instruction, schema, xo)
	if err != nil {
		return err
	}
	if err := opts.saveRecipe(res, xo.Recipe); err != nil {
		return err
	}
	if err := opts.saveGrid(res, xo.Grid); err != nil {
		return err
	}
	if res.OK {
		opts.record(ctx, schema, res.Recipe, res.Grid)
	}
	if err := opts.saveSeen(xo.List.Seen, res.Keys); err != nil {
		return err
	}
	if opts.LearnAPI != "" && res.OK {
		if err := opts.learnAPIRun(ctx, res.Data, opts.LearnAPI); err != nil {
			// The rows were read: they are printed, and the failure to
			// learn the API is the command's error.
			if !opts.JSON {
				fmt.Fprintln(opts.IO.Out, string(res.Data))
			}
			return &cmdutil.WithData{Err: err, Data: extractJSON{Value: res.Data, Fits: true, Rows: res.Rows, Source: res.Source}}
		}
		opts.Note("the API behind the rows: %s", opts.LearnAPI)
	}
	if res.Ended != "" {
		opts.Note("%d pages, %d rows, %d duplicates; ended: %s", res.Pages, res.Rows, res.Duplicates, res.Ended)
	}
	if res.Table != "" {
		opts.Note("read from the sheet's table %s", res.Table)
	}
	data := extractJSON{Table: res.Table, Grid: res.Grid, Value: res.Data, Fits: res.OK, Problems: res.Problems, Dropped: res.Dropped, Chunks: res.Chunks, Parts: res.Parts, Note: res.Note, Usage: res.Usage,
		Source: res.Source, Rows: res.Rows, Recipe: res.Recipe, RecipeNote: res.RecipeNote, Heal: res.Heal, Pages: res.Pages, Duplicates: res.Duplicates, Ended: res.Ended, Keys: res.Keys}
	if !res.OK {
		// One envelope: ok false, the error, and what was read as its data.
		if !opts.JSON {
			fmt.Fprintln(opts.IO.Out, string(res.Data))
		}
		return &cmdutil.WithData{Err: &calls.Error{Kind: calls.ErrNoMatch, Msg: fmt.Sprintf("the data does not fit the schema: %s", strings.Join(res.Problems, "; ")),
			Hint: "loosen the schema, or make the instruction more specific"}, Data: data}
	}
	return opts.Emit(data, func() error {
		_, err := fmt.Fprintln(opts.IO.Out, string(res.Data))
		if res.Note != "" {
			opts.Note("note: %s", res.Note)
		}
		return err
	})
}

// extractJSON is the data of `extract --json`: the value read, and how it
// was read. (pilot.ExtractResult has ok and data of its own, which inside
// the envelope read as a second envelope.)
type extractJSON struct {
	Value    json.RawMessage `json:"value"`
	Fits     bool            `json:"fits"`               // the value fits the schema
	Problems []string        `json:"problems,omitempty"` // why it does not, each with its JSON pointer
	Dropped  []string        `json:"dropped,omitempty"`  // pointers of strings the page does not show, set to null
	Chunks   int             `json:"chunks"`
	Parts    int             `json:"parts"`          // the page's parts; more than chunks when the budget stopped the reading
	Note     string          `json:"note,omitempty"` // what the budget left unread
	Usage    pilot.Usage     `json:"usage"`

	// How a list was read (pilot.ExtractResult's fields of the same names).
	Source     string            `json:"source,omitempty"`
	Rows       int               `json:"rows,omitempty"`
	Recipe     *recipe.Recipe    `json:"recipe,omitempty"`
	RecipeNote string            `json:"recipe_note,omitempty"`
	Heal       *pilot.RecipeHeal `json:"heal,omitempty"`
	Pages      int               `json:"pages,omitempty"`
	Duplicates int               `json:"duplicates,omitempty"`
	Ended      string            `json:"ended,omitempty"`
	Keys       []string          `json:"keys,omitempty"`
	// From a sheet: the table read, and its grid recipe.
	Table string        `json:"table,omitempty"`
	Grid  *sheet.Recipe `json:"grid,omitempty"`
}

// extractOptions reads --recipe: a recipe to read by, or a file to learn
// one into.
func (o *ExtractOptions) extractOptions() (pilot.ExtractOptions, error) {
	if o.RecipeFile == "" {
		return pilot.ExtractOptions{}, nil
	}
	if g, ok, err := gridRecipeFile(o.RecipeFile); ok || err != nil {
		return pilot.ExtractOptions{Grid: g}, err
	}
	b, err := os.ReadFile(o.RecipeFile)
	if errors.Is(err, os.ErrNotExist) {
		return pilot.ExtractOptions{Learn: true}, nil
	}
	if err != nil {
		return pilot.ExtractOptions{}, &calls.Error{Kind: calls.ErrBadInput, Msg: fmt.Sprintf("read the recipe: %v", err), Hint: "check the path"}
	}
	r, err := recipe.Parse(b)
	if err != nil {
		return pilot.ExtractOptions{}, &calls.Error{Kind: calls.ErrBadInput, Msg: fmt.Sprintf("%s: %v", o.RecipeFile, err), Hint: "remove the file to learn the recipe again"}
	}
	return pilot.ExtractOptions{Recipe: r}, nil
}

// saveRecipe writes a recipe learned or relearned, and says what happened
// to it.
func (o *ExtractOptions) saveRecipe(res *pilot.ExtractResult, used *recipe.Recipe) error {
	if o.RecipeFile == "" {
		return nil
	}
	if res.Heal != nil {
		o.Note("the recipe no longer fitted: %s", res.Heal.Misfit)
	}
	if res.Recipe == nil {
		if res.RecipeNote != "" {
			o.Note("%s", res.RecipeNote)
		}
		return nil
	}
	if res.Recipe == used {
		return nil // read by it, unchanged
	}
	b, err := res.Recipe.Marshal()
	if err == nil {
		err = os.WriteFile(o.RecipeFile, b, 0o644)
	}
	if err != nil {
		return fmt.Errorf("save the recipe: %w", err)
	}
	if res.Heal != nil {
		o.Note("recipe learned again (a heal) and saved to %s", o.RecipeFile)
	} else {
		o.Note("recipe saved to %s: the next extract --recipe %s reads with no model", o.RecipeFile, o.RecipeFile)
	}
	return nil
}

// record adds the extract to the session's recording, when it records:
// a list with its recipe, so the routine reads it with no model.
func (o *ExtractOptions) record(ctx context.Context, schema []byte, r *recipe.Recipe, g *sheet.Recipe) {
	req := calls.RecordExtractRequest{Instruction: o.Instruction, Schema: schema}
	if g != nil {
		req.Grid, _ = json.Marshal(g)
	}
	if r != nil {
		b, err := r.Marshal()
		if err != nil {
			o.Note("the extract is not in the recording: %v", err)
			return
		}
		req.Recipe = b
		if l := (routine.ListRead{Pages: o.Pages, Scroll: o.Scroll, Key: o.Key, Limit: o.Limit, Until: o.Until, UntilField: o.UntilField}); l != (routine.ListRead{}) {
			req.List, _ = json.Marshal(l)
		}
	}
	if _, err := o.Remote().RecordExtract(ctx, req); err != nil {
		o.Note("the extract is not in the recording: %v", err)
	}
}

// listOptions reads --pages, --scroll, --key, --limit, --until and --seen.
func (o *ExtractOptions) listOptions() (pilot.ListOptions, error) {
	lo := pilot.ListOptions{Pages: o.Pages, Scroll: o.Scroll, Key: o.Key, Limit: o.Limit, UntilField: o.UntilField, Now: time.Now()}
	if o.UntilField != "" && o.Until == "" {
		return lo, cmdutil.UsageErrorf("add --until DATE", "--until-field needs --until")
	}
	if o.Scroll && lo.Pages < 2 {
		lo.Pages = 10
	}
	if o.Until != "" {
		d, ok := recipe.ParseDate(o.Until, lo.Now)
		if !ok {
			return lo, cmdutil.UsageErrorf(`write --until 2026-11-01, "1 Nov 2026" or "3 days ago"`, "--until %q is not a date", o.Until)
		}
		lo.Until = d
	}
	if o.SeenFile != "" {
		if o.Key == "" {
			return lo, cmdutil.UsageErrorf("add --key FIELD: the seen file holds rows' keys", "--seen needs --key")
		}
		b, err := os.ReadFile(o.SeenFile)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return lo, &calls.Error{Kind: calls.ErrBadInput, Msg: fmt.Sprintf("read the seen file: %v", err), Hint: "check the path"}
		}
		for _, k := range strings.Split(string(b), "\n") {
			if k = strings.TrimSpace(k); k != "" {
				lo.Seen = append(lo.Seen, k)
			}
		}
	}
	return lo, nil
}

// saveSeen adds this run's keys to --seen FILE.
func (o *ExtractOptions) saveSeen(old, keys []string) error {
	if o.SeenFile == "" || len(keys) == 0 {
		return nil
	}
	all := append(append([]string{}, old...), keys...)
	if err := os.WriteFile(o.SeenFile, []byte(strings.Join(all, "\n")+"\n"), 0o644); err != nil {
		return fmt.Errorf("save the seen keys: %w", err)
	}
	return nil
}
