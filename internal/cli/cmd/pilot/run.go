package pilot

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
)

// RunOptions are the flags of `waymark run`.
type RunOptions struct {
	pilotflags.PilotOptions
	Task        string
	Record      string // --record FILE: where the routine goes
	MaxSteps    int
	MaxTokens   int
	AllowSubmit bool
	Screenshots bool
	Hand        bool // --hand (default on): a person's pointer paths and typing pace
	// --extract INSTRUCTION --schema FILE: data read once the task is done
	// (a list with its recipe, recorded as the routine's last step).
	Extract    string
	SchemaFile string
	// NewModel builds the model; nil uses the --model flags.
	NewModel func() (pilot.Model, error)
	// Ask hands over to a person; NewCmdRun sets a terminal prompt when
	// stdin is a terminal, and nil makes hand-overs end the run.
	Ask func(ctx context.Context, req pilot.AskRequest) (string, error)
}

// NewCmdRun builds `waymark run TASK`.
func NewCmdRun(f *cmdutil.Factory, runF func(context.Context, *RunOptions) error) *cobra.Command {
	opts := &RunOptions{}
	cmd := &cobra.Command{
		Use:   "run TASK",
		Short: "Let a model do a task, checking every step, and record it as a routine",
		Long: `Let a model do a task on the page, one step at a time. Each step says what the
page will show after it, and waymark checks that on the page; success is never
the model's word alone. The model stops on repeats, unreadable answers, too
many failed checks and its budget (--max-steps). A sign-in or a missing value
is asked of you on the terminal. With --record, the steps are saved as a
routine that "waymark replay" runs with no model: each element is named by a
locator taken from the live page, values by their --input and --secret names.
With --json, each event is a JSON line on stdout; when the routine was saved,
a line {"type":"saved","turn":N,"path":FILE} says where; the last line is the
envelope {"ok":…} every command prints, with the run's summary as its data.`,
		Example: "  waymark run 'sign in and open my orders' --secret password=prompt --record orders.json\n" +
			"  waymark run 'search for %query%' --input query=boots --max-steps 20 --json",
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Task = args[0]
			opts.VarFlag = "--input"
			if opts.MaxSteps < 0 || opts.MaxTokens < 0 {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "--max-steps and --max-tokens must not be negative")
			}
			if opts.Ask == nil && opts.IO.IsStdinTTY() {
				opts.Ask = terminalAsk(opts.IO.In, opts.IO.ErrOut)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Model.Model, "model", "", `the model: "rules" (no key), anthropic:NAME, openai:NAME, or a model name (env WAYMARK_MODEL)`)
	fl.StringVar(&opts.Model.BaseURL, "base-url", "", "an OpenAI-compatible server: Ollama, vLLM, llama.cpp, LM Studio (env OPENAI_BASE_URL)")
	fl.StringArrayVar(&opts.VarArgs, "input", nil, "a declared input with a sample value: name=sample (repeatable); the task types it as %name%, the routine records the name")
	fl.StringArrayVar(&opts.Secrets, "secret", nil, "a declared secret: name=env:VAR, or name (or name=prompt) to type it without echo (repeatable); never shown to the model or recorded")
	fl.StringVar(&opts.Record, "record", "", "save the routine to FILE when the task is done")
	fl.IntVar(&opts.MaxSteps, "max-steps", pilot.DefaultMaxSteps, "the most model turns before the run stops")
	fl.IntVar(&opts.MaxTokens, "max-tokens", 0, "the most model tokens (input and output) before the run stops; 0: no limit")
	fl.BoolVar(&opts.AllowSubmit, "allow-submit", false, "let steps send a form, pay, delete or confirm without asking")
	pilotflags.AddVisionFlag(cmd, &opts.PilotOptions)
	fl.BoolVar(&opts.Screenshots, "screenshots", false, "show the model a screenshot each turn (for models that read pictures)")
	_ = fl.MarkDeprecated("screenshots", "use --vision always")
	fl.BoolVar(&opts.Hand, "hand", true, "act with a person's pointer paths and typing pace (--hand=false: the driver's speed)")
	fl.StringVar(&opts.Extract, "extract", "", "once the task is done, read this data (with --schema); a list is recorded with its recipe, to replay with no model")
	fl.StringVar(&opts.SchemaFile, "schema", "", "with --extract: a JSON Schema file for the data")
	return cmd
}

func runRun(ctx context.Context, opts *RunOptions) error {
	getenv := opts.Env()
	vars, err := opts.Vars(getenv)
	if err != nil {
		return err
	}
	var extract *pilot.RunExtract
	if (opts.Extract == "") != (opts.SchemaFile == "") {
		return cmdutil.UsageErrorf("give both: --extract 'every order' --schema orders.json", "--extract and --schema go together")
	}
	if opts.Extract != "" {
		schema, err := os.ReadFile(opts.SchemaFile)
		if err != nil {
			return &calls.Error{Kind: calls.ErrBadInput, Msg: fmt.Sprintf("read the schema: %v", err), Hint: "check the path"}
		}
		extract = &pilot.RunExtract{Instruction: opts.Extract, Schema: schema}
	}
	// The routine is saved when the task is done: a path that cannot take
	// it fails now, not after the task ran.
	if opts.Record != "" {
		if err := routine.CheckSavable(opts.Record, "nothing was run"); err != nil {
			return err
		}
	}
	vision, err := opts.VisionMode()
	if err != nil {
		return err
	}
	if opts.Screenshots { // the deprecated --screenshots
		vision = pilot.VisionAlways
	}
	mk := opts.NewModel
	if mk == nil {
		mk = func() (pilot.Model, error) {
			m, _, err := pilotflags.NewModel(opts.Model, opts.ModelConfig(), getenv, slog.New(slog.DiscardHandler))
			return m, err
		}
	}
	m, err := mk()
	if err != nil {
		return err
	}
	caller, err := opts.Caller(ctx)
	if err != nil {
		return err
	}
	// The pilot adds the run's secrets to its own set (RunOptions.Secrets).
	p := pilot.New(calls.Remote{Caller: caller, Session: opts.Session}, m, &pilot.Options{Vision: vision})
	show := eventPrinter(opts.IO.Out, opts.IO.ErrOut, opts.JSON, opts.IO.IsStderrTTY())
	res, err := p.Run(ctx, opts.Task, pilot.RunOptions{
		Inputs: vars.Values, Secrets: vars.Secrets,
		MaxSteps: opts.MaxSteps, MaxTokens: opts.MaxTokens,
		OnEvent: show, Ask: opts.Ask, AllowSubmit: opts.AllowSubmit,
		Record: opts.Record != "", NoHand: !opts.Hand,
		Extract: extract,
	})
	saved := ""
	if err == nil && opts.Record != "" && res.Routine != nil {
		if err := p.SaveRoutine(opts.Record, res.Routine); err != nil {
			return err
		}
		saved = opts.Record
	}
	if !opts.JSON {
		if res != nil && len(res.Data) > 0 {
			fmt.Fprintln(opts.IO.Out, string(res.Data))
		}
		if res != nil && res.RecipeNote != "" {
			fmt.Fprintln(opts.IO.ErrOut, res.RecipeNote)
		}
		fmt.Fprintln(opts.IO.ErrOut, summaryLine(res, saved, opts.Record))
		return err
	}
	if saved != "" {
		// The done event and its summary came from the loop, before the
		// routine was saved; this line says where it went.
		if abs, aerr := filepath.Abs(saved); aerr == nil {
			saved = abs
		}
		if werr := cmdutil.WriteJSONLine(opts.IO.Out, savedEvent{Type: eventSaved, Turn: res.Turns, Path: saved}); werr != nil {
			return werr
		}
	}
	// The stream ends with the envelope every command prints.
	data := runSummary(res, saved)
	if err != nil {
		return &cmdutil.WithData{Err: err, Data: data}
	}
	return opts.Emit(data, nil)
}

// runSummaryJSON is pilot.RunResult as the output contract has it: the
// duration in milliseconds (pilot's is a time.Duration, nanoseconds in
// JSON), and where the routine was saved.
type runSummaryJSON struct {
	Done       bool             `json:"done"`
	Reason     string           `json:"reason"`
	Steps      int              `json:"steps"`
	Turns      int              `json:"turns"`
	ModelCalls int              `json:"model_calls"`
	Usage      pilot.Usage      `json:"usage"`
	DurationMS int64            `json:"duration_ms"`
	Routine    *routine.Routine `json:"routine,omitempty"`
	Saved      string           `json:"saved,omitempty"`
	Data       json.RawMessage  `json:"data,omitempty"` // --extract
	RecipeNote string           `json:"recipe_note,omitempty"`
}

func runSummary(res *pilot.RunResult, saved string) *runSummaryJSON {
	if res == nil {
		return nil
	}
	return &runSummaryJSON{Done: res.Done, Reason: res.Reason, Steps: res.Steps, Turns: res.Turns, ModelCalls: res.ModelCalls,
		Usage: res.Usage, DurationMS: res.Duration.Milliseconds(), Routine: res.Routine, Saved: saved, Data: res.Data, RecipeNote: res.RecipeNote}
}

// runEventJSON is a pilot.Event as `run --json` prints it: its summary
// in the contract's shape.
type runEventJSON struct {
	pilot.Event
	Summary *runSummaryJSON `json:"summary,omitempty"`
}

// eventSaved is the type of the line `run --json` prints after the last
// event of the loop when it saved the routine.
const eventSaved pilot.EventType = "saved"

// savedEvent says where `run --json` saved the routine. It has the shape of
// a [pilot.Event] (type, turn) with the routine file's absolute path.
type savedEvent struct {
	Type pilot.EventType `json:"type"`
	Turn int             `json:"turn"`
	Path string          `json:"path"`
}

// summaryLine is the last line of a run for people.
func summaryLine(res *pilot.RunResult, saved, record string) string {
	if res == nil {
		return ""
	}
	s := fmt.Sprintf("%s: %s, %s, %s, %s", res.Reason, cmdutil.Count(res.Steps, "step"), cmdutil.Count(res.ModelCalls, "model call"),
		cmdutil.Count(res.Usage.InputTokens+res.Usage.OutputTokens, "token"), res.Duration.Round(100*time.Millisecond))
	switch {
	case saved != "":
		s += "; routine saved to " + saved
	case record != "":
		s += "; no routine saved: the task was not done"
	}
	return s
}

// eventPrinter shows a run's events: JSON lines on stdout with --json,
// else a line each on stderr. The events arrive already masked.
func eventPrinter(out, errOut io.Writer, jsonOut, tty bool) func(pilot.Event) {
	if jsonOut {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		return func(e pilot.Event) { _ = enc.Encode(runEventJSON{Event: e, Summary: runSummary(e.Summary, "")}) }
	}
	return func(e pilot.Event) {
		if line := eventLine(e, tty); line != "" {
			fmt.Fprintln(errOut, line)
		}
	}
}

// eventLine is one event for people, or "" for events the summary covers;
// with glyphs (✓ ✗) on a terminal.
func eventLine(e pilot.Event, tty bool) string {
	switch e.Type {
	case pilot.EventThought:
		return "thinking: " + e.Text
	case pilot.EventStep:
		ok, failed := "ok", "failed"
		if tty { // glyphs only on a terminal; a log gets words
			ok, failed = "✓", "✗"
		}
		if e.Verdict != nil && !e.Verdict.OK {
			return "step " + failed + " " + e.Text
		}
		return "step " + ok + " " + e.Text
	case pilot.EventRecovering:
		return fmt.Sprintf("recovering (%s): %s", e.Guard, e.Text)
	case pilot.EventAwait:
		return e.Text
	case pilot.EventDone:
		return "done: " + e.Text
	}
	return ""
}

// terminalAsk asks a person on the terminal: the question on stderr, the
// answer a line of stdin, without echo for secrets. A canceled ctx stops
// the wait at once; the read goes on until a line comes or stdin closes.
func terminalAsk(in io.Reader, errOut io.Writer) func(context.Context, pilot.AskRequest) (string, error) {
	var mu sync.Mutex // one question at a time
	lines := bufio.NewReader(in)
	return func(ctx context.Context, req pilot.AskRequest) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		q := req.Prompt
		switch req.Kind {
		case "login", "input":
			q = fmt.Sprintf("%s\n%s for %s: ", req.Prompt, req.Slot, req.Field)
		case "approve":
			q = req.Prompt + " "
		}
		fmt.Fprint(errOut, q)
		type answer struct {
			s   string
			err error
		}
		ch := make(chan answer, 1) // buffered: the reader never blocks on an abandoned question
		go func() {
			if f, ok := in.(*os.File); ok && req.Secret && term.IsTerminal(int(f.Fd())) {
				b, err := term.ReadPassword(int(f.Fd()))
				fmt.Fprintln(errOut)
				ch <- answer{string(b), err}
				return
			}
			s, err := lines.ReadString('\n')
			if err == io.EOF && s != "" {
				err = nil
			}
			ch <- answer{strings.TrimRight(s, "\r\n"), err}
		}()
		select {
		case a := <-ch:
			if a.err != nil {
				return "", fmt.Errorf("read the answer: %w", a.err)
			}
			return a.s, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}
