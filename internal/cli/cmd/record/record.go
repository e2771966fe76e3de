package record

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/lazyre"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// RecordOptions are the flags of `waymark record start|stop`.
type RecordOptions struct {
	cmdutil.Common
	Op   string // "start" or "stop"
	Name string // start: the routine's name
	File string // stop: where the routine goes
}

// NewCmdRecord builds `waymark record start|stop`.
func NewCmdRecord(f *cmdutil.Factory, runF func(context.Context, *RecordOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "record start|stop",
		Short: "Record what you do in a session as a routine",
		Long: `Record a routine by hand: after waymark record start, every open, click,
dblclick, fill, type, select, check, uncheck, press, hover, scroll and upload
of the session becomes a step, with the element's locator, evidence and
fingerprint taken from the live page as it was pressed. Actions that fail are
not recorded. waymark record stop FILE writes the routine.

Typed and chosen values become variables named after their fields (email,
full_name); their values are printed beside and never written to the file.
A value that looks like a credential, or went into a password field, is a
secret variable, given at replay with --secret NAME=env:VAR.

A submit you press while recording (a click or key that sends, pays, deletes
or confirms) is yours to approve: its step is marked approved, with the page
it was pressed on, and a replay presses it without asking while its element
is found where it was and the page (its path, the control, the form's fields)
still matches; a step that moved, was healed or whose form changed asks
again. record stop names the approved steps.`,
		Example: "  waymark record start --name checkout\n" +
			"  waymark open shop.example/checkout && waymark fill @e5 ann@example.com && waymark click @e9\n" +
			"  waymark record stop checkout.json\n" +
			"  waymark replay checkout.json --var email=bo@example.com --secret password=env:SHOP_PASSWORD",
		Args: cobra.ArbitraryArgs,
		RunE: cmdutil.GroupRunE,
	}
	start, stop := &RecordOptions{Op: "start"}, &RecordOptions{Op: "stop"}
	startCmd, stopCmd := cmdutil.StartStopCommands(f, runF, cmdutil.StartStop[RecordOptions]{
		StartShort: "Start recording the session's actions",
		StopShort:  "Stop recording and write the routine to FILE",
		Start:      start,
		Stop:       stop,
		Common:     func(o *RecordOptions) *cmdutil.Common { return &o.Common },
		File:       func(o *RecordOptions) *string { return &o.File },
		RunStart:   recordStartRun,
		RunStop:    recordStopRun,
	})
	startCmd.Flags().StringVar(&start.Name, "name", "", "the routine's name (default: FILE's name at stop)")
	cmd.AddCommand(startCmd, stopCmd, newCmdRecordRows(f, nil))
	return cmd
}

func recordStartRun(ctx context.Context, opts *RecordOptions) error {
	res, err := opts.Remote().RecordStart(ctx, calls.RecordStartRequest{Name: opts.Name})
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		opts.Note("recording session %q: its opens and element actions become steps until waymark record stop FILE", opts.Session)
		if res.From != "" {
			opts.Note("recording from %s (the first step opens it)", res.From)
		} else {
			opts.Note("the tab is on no page yet: open the page the routine starts on first (waymark open URL), so a replay opens it too")
		}
		return nil
	})
}

// recordedVar is one proposed variable as stop shows it; a secret's value
// is masked.
type recordedVar struct {
	Name   string `json:"name"`
	Secret bool   `json:"secret,omitempty"`
	Value  string `json:"value"`
}

// recordStopJSON is the data of `record stop --json`.
type recordStopJSON struct {
	File      string        `json:"file"`
	Name      string        `json:"name"`
	Steps     int           `json:"steps"`
	Variables []recordedVar `json:"variables"`
	Notes     []string      `json:"notes,omitempty"`
	// Approved are the submits the person pressed while recording: a
	// replay presses them without asking while the page matches.
	Approved []approvedStep `json:"approved,omitempty"`
	Replay   string         `json:"replay"`
}

// approvedStep is a step of `record stop --json`'s approved.
type approvedStep struct {
	Step    int    `json:"step"` // 1-based, top level
	ID      string `json:"id,omitempty"`
	Action  string `json:"action"`
	Control string `json:"control"`
	Path    string `json:"path"`
}

// approvedSteps lists the routine's submits a person approved.
func approvedSteps(r *routine.Routine) []approvedStep {
	var out []approvedStep
	for i, s := range r.Steps {
		if a := s.Approved; a != nil {
			out = append(out, approvedStep{Step: i + 1, ID: s.ID, Action: a.Action, Control: a.Control, Path: a.Path})
		}
	}
	return out
}

func recordStopRun(ctx context.Context, opts *RecordOptions) error {
	path, err := filepath.Abs(opts.File)
	if err != nil {
		return err
	}
	if err := routine.CheckSavable(path, "the session is still recording"); err != nil {
		return err
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	// The routine so far, with the session still recording: it is written
	// first and the recording ends only then, so a file that cannot be
	// written loses nothing.
	res, err := opts.Remote().RecordStop(ctx, calls.RecordStopRequest{Name: name, Keep: true})
	if err != nil {
		return err
	}
	r, known, vars, err := readRecording(res)
	if err == nil && len(r.Steps) == 0 {
		err = calls.Errorf(calls.ErrBadInput, "start again with "+calls.Cmd("record start")+", then open a page and act on it with "+calls.Cmd("click")+", fill, …",
			"nothing was recorded between record start and record stop; %s was not written", opts.File)
	}
	if err == nil {
		_, err = routine.Marshal(&r, known)
	}
	if err != nil {
		// The recording itself cannot be saved: it ends, as it is of no use.
		_, _ = opts.Remote().RecordStop(ctx, calls.RecordStopRequest{Name: name})
		return err
	}
	if err := routine.Save(path, &r, known); err != nil {
		return calls.Errorf(calls.ErrBadInput, "give a path you can write; the session is still recording: "+calls.Cmd("record stop OTHER.json"),
			"cannot write %s: %v", opts.File, err)
	}
	final, err := opts.Remote().RecordStop(ctx, calls.RecordStopRequest{Name: name})
	if err != nil {
		return err
	}
	// A call recorded between the two: write what the recording ended with.
	if string(final.Routine) != string(res.Routine) {
		if r, known, vars, err = readRecording(final); err != nil {
			return err
		}
		res = final
		if err := routine.Save(path, &r, known); err != nil {
			return fmt.Errorf("write the routine (the recording is over; record it again): %w", err)
		}
	}
	data := recordStopJSON{File: opts.File, Name: r.Name, Steps: len(r.Steps), Variables: vars, Notes: res.Notes,
		Approved: approvedSteps(&r), Replay: replayCommand(opts.File, r.Variables, res.Values)}
	// The person saved what they pressed: the approval authority binds
	// their approvals (top-level or inside a loop) to the file as written,
	// for replays to trust.
	if err := approval.Default(opts.Env()).Grant(path, "record stop"); err != nil {
		data.Notes = append(data.Notes, fmt.Sprintf("your approvals were not kept (%v): a replay will ask; approve the file with waymark routine approve %s", err, opts.File))
	}
	return opts.Emit(data, func() error {
		for _, v := range vars {
			fmt.Fprintf(opts.IO.Out, "%s=%s\n", v.Name, v.Value)
		}
		opts.Note("recorded %s and %s to %s", cmdutil.Count(len(r.Steps), "step"), cmdutil.Count(len(vars), "variable"), opts.File)
		for _, n := range res.Notes {
			if strings.HasPrefix(n, "warning: ") {
				opts.Note("%s", n)
				continue
			}
			opts.Note("note: %s", n)
		}
		for _, a := range data.Approved {
			opts.Note("approved: step %d, %s %s on %s: you pressed this submit, so a replay presses it without asking while %s is as saved, it is found where it was and the page matches; it asks again if the file is edited (approve it again with waymark routine approve %s), the step moved or was healed, or the page or form changed",
				a.Step, a.Action, calls.ShownControl(a.Control), a.Path, opts.File, opts.File)
		}
		opts.Note("replay with: %s", data.Replay)
		return nil
	})
}

// readRecording decodes what record.stop sent: the routine, the secrets it
// holds the values of, and its variables as stop shows them.
func readRecording(res *calls.RecordStopResult) (routine.Routine, *secret.Set, []recordedVar, error) {
	var r routine.Routine
	if err := json.Unmarshal(res.Routine, &r); err != nil {
		return r, nil, nil, fmt.Errorf("the daemon sent a routine that does not read: %w", err)
	}
	known := new(secret.Set)
	vars := make([]recordedVar, 0, len(r.Variables))
	for _, v := range r.Variables {
		val := res.Values[v.Name]
		if v.Secret {
			known.Add(v.Name, val)
			val = secret.Masked
		}
		vars = append(vars, recordedVar{Name: v.Name, Secret: v.Secret, Value: val})
	}
	return r, known, vars, nil
}

// replayCommand is the command that replays the routine with the values
// recorded; secrets come from the environment, never the command line.
func replayCommand(file string, vars []routine.Variable, values map[string]string) string {
	parts := []string{"waymark", "replay", shellQuote(file)}
	for _, v := range vars {
		if v.Secret {
			parts = append(parts, "--secret", v.Name+"=env:"+envName(v.Name))
		} else {
			parts = append(parts, "--var", shellQuote(v.Name+"="+values[v.Name]))
		}
	}
	return strings.Join(parts, " ")
}

// envName is the environment variable a secret is read from: its name in
// upper case.
func envName(name string) string {
	return strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(name))
}

var shellSafe = lazyre.New(`^[A-Za-z0-9@%+=:,./_-]+$`)

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
