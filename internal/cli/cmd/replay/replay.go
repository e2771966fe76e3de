package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// ReplayOptions are the flags of `waymark replay`.
type ReplayOptions struct {
	pilotflags.PilotOptions
	File      string
	KeepHeals string // always, ask, never
	Submits   string // allow, ask
	NoModel   bool
	Hand      bool // a person's moves and pace; on unless --hand=false
	// NewModel builds the heal and extract model; nil uses the --model
	// flag and the environment. It returns nil for no model.
	NewModel func() (pilot.Model, error)
}

// NewCmdReplay builds `waymark replay FILE`.
func NewCmdReplay(f *cmdutil.Factory, runF func(context.Context, *ReplayOptions) error) *cobra.Command {
	opts := &ReplayOptions{}
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Replay a recorded routine with no model",
		Long: `Replay a routine file step by step through the browser alone. An element that
moved is found again by its fingerprint with no model; a renamed one costs one
model call (purpose heal) when a model is configured (--model, or an API key in
the environment). The replay stops where it cannot be sure, says why, and exits
with the cause's code:

  0 ok · 1 failed · 10 landed-elsewhere · 11 sign-in · 12 verify · 13 replaced
  14 ambiguous · 15 missing · 16 needs-approval · 17 needs-model · 18 popup
  130 canceled

Heals come back as the routine's next version: --keep-heals always writes it
over FILE, ask (the default) writes it beside FILE as NAME.vN.pending.json,
never drops it.

Steps that send, pay, delete or confirm stop as needs-approval unless
--allow-submit, or you pressed them while recording the routine by hand, the
file is as you saved it (after an edit: waymark routine approve FILE) and the
page still matches; at a terminal you are asked instead (y presses it).
Each step acts with a person's pointer paths and typing pace;
--hand=false runs at the browser's speed.`,
		Example: "  waymark replay checkout.json --var email=ann@example.com --secret password=env:SHOP_PASSWORD\n" +
			"  waymark replay orders.json --var 'rows=[{\"sku\":\"A1\"},{\"sku\":\"B2\"}]' --json",
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.File = args[0]
			switch opts.KeepHeals {
			case replay.KeepAlways, replay.KeepAsk, replay.KeepNever:
			default:
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "--keep-heals must be always, ask or never, got %q", opts.KeepHeals)
			}
			if err := cmdutil.CheckSubmits(cmd, opts.Submits); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return replayRun(cmd.Context(), opts)
		},
	}
	pilotflags.AddPilotFlags(cmd, &opts.PilotOptions)
	cmd.Flags().StringVar(&opts.KeepHeals, "keep-heals", replay.KeepAsk, "what to do with a healed routine: always (save over FILE), ask (save beside it, pending), never")
	cmdutil.AddSubmitsFlags(cmd, &opts.Submits,
		"steps that send, pay, delete or confirm: ask (stop with needs-approval and what it would press; the default) or allow",
		"approve the steps that send, pay, delete or confirm (same as --submits allow)")
	cmd.Flags().BoolVar(&opts.NoModel, "no-model", false, "never call a model: a missing element stops the replay")
	cmd.Flags().BoolVar(&opts.Hand, "hand", true, "act with a person's pointer paths and typing pace, as pages with hover menus and debounced fields expect; --hand=false runs at the browser's speed")
	return cmd
}

func replayRun(ctx context.Context, opts *ReplayOptions) error {
	getenv := opts.Env()
	// The approvals the file records are pressed without asking only if
	// the approval authority says a person saved it as it is.
	r, trust, err := approval.Default(getenv).Load(opts.File)
	if err != nil {
		return err
	}
	vars, err := opts.Vars(getenv)
	if err != nil {
		return err
	}
	m, err := opts.pickModel(getenv)
	if err != nil {
		return err
	}
	caller, err := opts.Caller(ctx)
	if err != nil {
		return err
	}
	d := calls.Remote{Caller: caller, Session: opts.Session}
	ro := replay.Options{Vars: vars.Values, Secrets: vars.Secrets, Model: m, KeepHeals: opts.KeepHeals, Submits: opts.Submits, NoHand: !opts.Hand,
		Sheet: pilotflags.SheetAtStep(d), Approvals: trust, Memory: opts.MemoryStore(), SignIn: pilotflags.RoutineSignIn(&opts.Common, opts.File, vars)}
	// A relative file path the routine writes is read beside it; one
	// given with --var, from here (replay.Options.Dir).
	ro.Dir, ro.VarsDir = cmdutil.FileDirs(opts.File)
	if !opts.JSON && opts.IO.IsStdinTTY() && opts.IO.IsStderrTTY() {
		ro.Approve = askOnTerminal(opts.IO) // replay_approve.go
	}
	if opts.NetLogOn() {
		ro.NetLog = cmdutil.NetLogBrief(d)
	}
	// Steps stream as they finish, on a terminal or not (a CI log shows
	// them as they come): a line each on stderr, or a JSON line each on
	// stdout with --json, before the envelope.
	if opts.JSON {
		ro.Progress = func(e replay.StepEvent) {
			_ = cmdutil.WriteJSONLine(opts.IO.Out, replayStepEvent{Type: "step", N: e.N, Of: e.Of, Step: e.Step})
		}
	} else {
		ro.Progress = func(e replay.StepEvent) { fmt.Fprintln(opts.IO.ErrOut, progressLine(e)) }
	}
	res, err := replay.Run(ctx, d, r, ro)
	if err != nil {
		return err
	}
	saved, err := keepHeals(opts.File, res, vars.Secrets)
	if err != nil {
		return err
	}
	if opts.JSON {
		env := cmdutil.Envelope{OK: res.Status == replay.StatusOK, Data: replayJSON{Result: res, File: opts.File, Saved: saved}}
		if res.Status != replay.StatusOK {
			env.Error = &cmdutil.ErrorBody{Code: cmdutil.CauseCode(res.Cause), Message: res.Message, Hint: res.Hint}
		}
		if err := cmdutil.WriteEnvelope(opts.IO.Out, env); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(opts.IO.ErrOut, replaySummary(res, saved))
		if len(res.Data) > 0 { // data goes to stdout
			enc := json.NewEncoder(opts.IO.Out)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(res.Data); err != nil {
				return err
			}
		}
	}
	if code := cmdutil.ReplayExit(res.Cause); code != 0 {
		return &cmdutil.ExitError{Code: code, Msg: fmt.Sprintf("%s: %s", res.Cause, res.Message), Silent: true}
	}
	return nil
}

// replayJSON is the data of `replay --json`: the result, and where a
// healed version was written.
type replayJSON struct {
	*replay.Result
	File  string `json:"file"`
	Saved string `json:"saved,omitempty"`
}

// replayStepEvent is one line of `replay --json` before the envelope: a
// step done, the n-th of the routine's of top-level steps.
type replayStepEvent struct {
	Type string            `json:"type"` // "step"
	N    int               `json:"n"`
	Of   int               `json:"of"`
	Step replay.StepResult `json:"step"`
}

// model builds the heal and extract model: none with --no-model, and none
// when nothing names one (the rules model cannot heal or read).
func (o *ReplayOptions) pickModel(getenv func(string) string) (pilot.Model, error) {
	if o.NoModel {
		return nil, nil
	}
	if o.NewModel != nil {
		return o.NewModel()
	}
	if o.Model.Model == "" && o.Model.BaseURL == "" && getenv("WAYMARK_MODEL") == "" && getenv("OPENAI_BASE_URL") == "" &&
		getenv("ANTHROPIC_API_KEY") == "" && getenv("OPENAI_API_KEY") == "" {
		return nil, nil
	}
	m, _, err := pilotflags.NewModel(o.Model, o.ModelConfig(), getenv, slog.New(slog.DiscardHandler))
	if err != nil {
		if o.Model.Model == "" && o.Model.BaseURL == "" && getenv("WAYMARK_MODEL") == "" {
			// Only the environment hints at a model (OPENAI_BASE_URL with
			// no model name, say): a replay needs none, so it runs without
			// heals rather than refusing to start.
			return nil, nil
		}
		return nil, err
	}
	if _, isRules := m.(rules.Model); isRules {
		return nil, nil
	}
	return m, nil
}

// keepHeals writes a healed routine: over the file (always) or beside it
// (ask, pending). It returns the path written, or "".
func keepHeals(file string, res *replay.Result, secrets map[string]secret.Value) (string, error) {
	if res.Routine == nil {
		return "", nil
	}
	known := secret.NewSet(slices.Collect(maps.Values(secrets))...)
	path := file
	if res.Routine.Pending {
		path = routine.PendingPath(file, res.Routine.Version)
	}
	if err := routine.Save(path, res.Routine, known); err != nil {
		return "", fmt.Errorf("keep the healed routine: %w", err)
	}
	return path, nil
}

// progressLine is one step's line on a terminal.
func progressLine(e replay.StepEvent) string {
	s := e.Step
	name := s.Path
	if s.ID != "" {
		name = s.ID
	}
	what := s.Kind
	if s.Op != "" {
		what = s.Op
	}
	if s.Row != nil {
		name += fmt.Sprintf(" [row %d]", *s.Row)
	}
	line := fmt.Sprintf("%3d  %-8s %-24s %-7s %5dms", e.N, what, name, s.Status, s.DurMS)
	if s.Heal != nil {
		line += fmt.Sprintf("  %s → %s (%s)", s.Heal.Before, s.Heal.After, s.Heal.How)
	}
	if s.Error != "" {
		line += "  " + s.Error
	} else if s.Detail != "" {
		line += "  " + s.Detail
	}
	if s.Closed != "" {
		line += "\n     popup: " + s.Closed
	}
	if s.NetLog != "" {
		line += "\n     netlog: " + s.NetLog
	}
	return line
}

// replaySummary is the closing lines of a replay on stderr.
func replaySummary(res *replay.Result, saved string) string {
	var b strings.Builder
	switch res.Status {
	case replay.StatusOK:
		fmt.Fprintf(&b, "replayed %s in %dms, %s", cmdutil.Count(len(res.Steps), "step"), res.DurMS, cmdutil.Count(res.ModelCalls, "model call"))
	default:
		fmt.Fprintf(&b, "stopped (%s, exit %d): %s\nhint: %s", res.Cause, cmdutil.ReplayExit(res.Cause), res.Message, res.Hint)
	}
	for _, h := range res.Heals {
		fmt.Fprintf(&b, "\nhealed %s: %s → %s (%s)", h.Step, h.Before, h.After, h.How)
	}
	if saved != "" {
		if res.Routine.Pending {
			fmt.Fprintf(&b, "\nwrote version %d beside it, pending review: %s", res.Routine.Version, saved)
		} else {
			fmt.Fprintf(&b, "\nsaved version %d over %s", res.Routine.Version, saved)
		}
	}
	return b.String()
}
