package test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/internal/lazyre"
	"github.com/waymark-dev/waymark/internal/testplan"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/secret"
)

// TestOptions are the flags of `waymark test`.
type TestOptions struct {
	cmdutil.Common
	File string
	Out  string // --out; empty: <Folder>/<plan>-<timestamp>
	// Folder holds a folder per run when --out is not given: [evidence]
	// folder of the config file; empty means ./waymark-evidence.
	Folder  string
	JUnit   string // --junit; empty: junit.xml in the evidence folder
	BaseURL string // --base-url: replaces the plan's base_url
	Model   pilotflags.ModelFlags
	Now     func() time.Time
}

// NewCmdTest builds `waymark test PLAN.yaml`.
func NewCmdTest(f *cmdutil.Factory, runF func(context.Context, *TestOptions) error) *cobra.Command {
	opts := &TestOptions{}
	cmd := &cobra.Command{
		Use:   "test PLAN.yaml",
		Short: "Run an end-to-end test plan and write its evidence",
		Long: `Run a test plan: scenarios of steps in waymark's own words (open, click,
fill, type, press, select, check, uncheck, wait, expect, screenshot, and act or
extract with a model). Each scenario runs in a fresh session of its own, closed
at its end; a failed step fails its scenario and skips the rest of it.

Evidence goes to one folder per run (--out, else a new folder in [evidence]
folder of the config file, else in ./waymark-evidence): screenshots at each screenshot step, before
each step that acts on an element (outlined in red) and at each failure, the
page's outline at each failure, report.html (one self-contained file with
every screenshot, for people), report.md (its images inside it, to paste into
a pull request or $GITHUB_STEP_SUMMARY), report.json and junit.xml. Values of ${NAME} variables listed
under secrets: are masked in every text file; screenshots black out the
fields a step typed a secret into, but not a secret the page shows elsewhere.

Exit status: 0 when every scenario passed, 1 when one failed, 2 when the plan
is malformed (the error names the line), 3 when no browser is available.
See examples/plans/README.md for the plan syntax.`,
		Example: "  waymark test examples/plans/basic.yaml\n" +
			"  waymark test signin.yaml --base-url http://127.0.0.1:8080 --junit build/junit.xml\n" +
			"  DEMO_EMAIL=ann@example.com DEMO_PASSWORD=… waymark test signin.yaml --out evidence/",
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.File = args[0]
			opts.Now = f.Now
			cfg, err := f.ReadConfig()
			if err != nil {
				return err
			}
			opts.Folder = cfg.Evidence.Folder
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runTest(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Out, "out", "", "the evidence folder (default FOLDER/PLAN-TIMESTAMP, FOLDER being [evidence] folder of the config file, else ./waymark-evidence)")
	fl.StringVar(&opts.JUnit, "junit", "", "where to write the JUnit XML (default junit.xml in the evidence folder)")
	fl.StringVar(&opts.BaseURL, "base-url", "", "the URL relative opens join, in place of the plan's base_url")
	fl.StringVar(&opts.Model.Model, "model", "", `the model for act and extract steps: "rules" (no key), anthropic:NAME, openai:NAME (env WAYMARK_MODEL)`)
	return cmd
}

var evidenceSlug = lazyre.New(`[^A-Za-z0-9._-]+`)

// defaultEvidenceFolder holds the runs' evidence folders when neither
// --out nor [evidence] folder says where.
const defaultEvidenceFolder = "waymark-evidence"

func runTest(ctx context.Context, opts *TestOptions) error {
	getenv := opts.Env()
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	plan, err := testplan.Load(opts.File)
	if err != nil {
		return planUsage(err)
	}
	if opts.BaseURL != "" && !validBaseURL(opts.BaseURL) {
		return cmdutil.UsageErrorf("give an absolute URL such as http://127.0.0.1:8080", "bad --base-url %q", opts.BaseURL)
	}
	out := opts.Out
	if out == "" {
		name := strings.Trim(evidenceSlug.ReplaceAllString(plan.Name, "-"), "-")
		out = filepath.Join(cmp.Or(opts.Folder, defaultEvidenceFolder), name+"-"+now().Format("20060102-150405"))
	}
	caller, err := opts.Caller(ctx)
	if err != nil {
		return err
	}
	model, modelCfg := opts.Model, opts.ModelConfig()
	vision, _ := pilot.ParseVision(modelCfg.Vision) // [model] vision, checked by the loader
	newAgent := func(session string, secrets *secret.Set) (testplan.Agent, error) {
		m, _, err := pilotflags.NewModel(model, modelCfg, getenv, slog.New(slog.DiscardHandler))
		if err != nil {
			return nil, err
		}
		return pilot.New(calls.Remote{Caller: caller, Session: session}, m, &pilot.Options{Secrets: secrets, Vision: vision}), nil
	}
	runOpts := testplan.Options{
		Caller:    caller,
		OutDir:    out,
		JUnitFile: opts.JUnit,
		BaseURL:   opts.BaseURL,
		Getenv:    getenv,
		NewAgent:  newAgent,
		Now:       now,
	}
	if opts.NetLogOn() {
		runOpts.NetLog = func(ctx context.Context, session string, since, until time.Time) (string, string, error) {
			res, err := calls.Remote{Caller: caller, Session: session}.NetLog(ctx, calls.NetLogRequest{SinceUnixMS: since.UnixMilli(), UntilUnixMS: until.UnixMilli()})
			if err != nil {
				return "", "", err
			}
			return res.Brief, res.Markdown, nil
		}
	}
	if opts.JSON {
		// Each step a JSON line as it ends, then the envelope.
		runOpts.OnStep = func(scenario string, st testplan.StepResult) {
			_ = cmdutil.WriteJSONLine(opts.IO.Out, testStepEvent{Type: "step", Scenario: scenario, Step: st})
		}
	} else {
		runOpts.Progress = opts.IO.ErrOut
	}
	rep, err := testplan.Run(ctx, plan, runOpts)
	if rep == nil {
		return planUsage(err)
	}
	if err != nil {
		// Canceled or no browser: the evidence so far is written; say where.
		opts.Note("evidence so far: %s", filepath.Join(out, "report.md"))
		return err
	}
	summary := fmt.Sprintf("%d of %d scenario(s) passed", rep.Counts.Passed, rep.Counts.Scenarios)
	if opts.JSON {
		env := cmdutil.Envelope{OK: rep.Passed, Data: rep}
		if !rep.Passed {
			env.Error = &cmdutil.ErrorBody{Code: cmdutil.CodeTestFailed, Message: summary, Hint: "read " + filepath.Join(out, "report.md")}
		}
		if err := cmdutil.WriteEnvelope(opts.IO.Out, env); err != nil {
			return err
		}
	} else {
		for _, s := range rep.Scenarios {
			fmt.Fprintf(opts.IO.Out, "%s\t%s\t%s\n", s.Status, s.Name, time.Duration(s.DurationMS)*time.Millisecond)
		}
		// The report people open (every screenshot in one file), then the
		// Markdown one, last as it always was for scripts that read it.
		fmt.Fprintln(opts.IO.Out, filepath.Join(out, "report.html"))
		fmt.Fprintln(opts.IO.Out, filepath.Join(out, "report.md"))
		opts.Note("%s; evidence in %s; open report.html in a browser", summary, out)
	}
	if !rep.Passed {
		return &cmdutil.ExitError{Code: cmdutil.ExitFailed, Msg: summary + "; see " + filepath.Join(out, "report.md"), Silent: true}
	}
	return nil
}

// testStepEvent is one line of `test --json` before the envelope.
type testStepEvent struct {
	Type     string              `json:"type"` // "step"
	Scenario string              `json:"scenario"`
	Step     testplan.StepResult `json:"step"`
}

// planUsage makes a malformed plan a usage error (exit 2).
func planUsage(err error) error {
	var pe *testplan.PlanError
	if errors.As(err, &pe) {
		return &cmdutil.UsageError{Err: err, Hint: "see examples/plans/README.md for the plan syntax"}
	}
	return err
}

func validBaseURL(s string) bool {
	return (strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")) && len(s) > len("https://")
}
