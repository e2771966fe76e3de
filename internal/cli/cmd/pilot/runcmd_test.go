package pilot

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
)

func TestRunFlags(t *testing.T) {
	opts, err := clitest.ParseCmd(t, NewCmdRun, []string{"buy boots", "--input", "size=42", "--secret", "pw=env:PW", "--max-steps", "9", "--record", "r.json", "--model", "rules"})
	if err != nil {
		t.Fatal(err)
	}
	if opts.Task != "buy boots" || opts.MaxSteps != 9 || opts.Record != "r.json" || opts.Model.Model != "rules" ||
		len(opts.VarArgs) != 1 || opts.VarArgs[0] != "size=42" || len(opts.Secrets) != 1 || opts.Secrets[0] != "pw=env:PW" {
		t.Errorf("opts %+v", opts)
	}
	if !opts.Hand {
		t.Error("the hand is off by default; issue 7 wants it on for the pilot")
	}
	if o, err := clitest.ParseCmd(t, NewCmdRun, []string{"buy boots", "--hand=false"}); err != nil || o.Hand {
		t.Errorf("--hand=false: %+v, %v", o, err)
	}
	if _, err := clitest.ParseCmd(t, NewCmdRun, []string{}); err == nil {
		t.Error("run with no task was accepted")
	}
}

func TestRunRecordsARoutine(t *testing.T) {
	for _, jsonOut := range []bool{false, true} {
		t.Run(map[bool]string{false: "human", true: "json"}[jsonOut], func(t *testing.T) {
			common, out, errOut := clitest.NewCommon(clitest.PageCaller(), jsonOut, false)
			m := scripted.New(
				scripted.Data(pilot.PurposeDecide, `{"thought":"press Go","action":{"type":"act","op":"click","ref":"e1","expect":{"text_appears":"Done!"}}}`),
				scripted.Data(pilot.PurposeDecide, `{"thought":"it says done","action":{"type":"done"}}`),
			)
			path := filepath.Join(t.TempDir(), "r.json")
			opts := &RunOptions{PilotOptions: pilotflags.PilotOptions{Common: common}, Task: "press go", Record: path,
				NewModel: func() (pilot.Model, error) { return m, nil }}
			if err := runRun(context.Background(), opts); err != nil {
				t.Fatal(err)
			}
			m.Verify(t)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var rt routine.Routine
			if err := json.Unmarshal(b, &rt); err != nil || len(rt.Steps) != 2 || rt.Steps[0].Kind != routine.KindGoto || rt.Steps[1].Target.Locator != `role=button[name="Go"]` {
				t.Fatalf("routine %s (%v)", b, err)
			}
			if jsonOut {
				lines := strings.Split(strings.TrimSpace(out.String()), "\n")
				// The stream ends with the envelope every command prints.
				var env struct {
					OK   bool `json:"ok"`
					Data struct {
						Done  bool   `json:"done"`
						Saved string `json:"saved"`
					} `json:"data"`
				}
				if err := json.Unmarshal([]byte(lines[len(lines)-1]), &env); err != nil || !env.OK || !env.Data.Done || env.Data.Saved != path {
					t.Errorf("last line %q (%v), want the envelope with the saved path", lines[len(lines)-1], err)
				}
				lines = lines[:len(lines)-1]
				var types []string
				for _, l := range lines {
					var e pilot.Event
					if err := json.Unmarshal([]byte(l), &e); err != nil {
						t.Fatalf("not a JSON line: %q", l)
					}
					types = append(types, string(e.Type))
				}
				if strings.Join(types, " ") != "thought step thought done saved" {
					t.Errorf("events %v", types)
				}
				// The last line says where the routine went, as the
				// summary does for people.
				var saved struct {
					Type string
					Turn int
					Path string
				}
				if err := json.Unmarshal([]byte(lines[len(lines)-1]), &saved); err != nil || saved.Path != path || saved.Turn != 2 {
					t.Errorf("saved line %q (%v), want path %s at turn 2", lines[len(lines)-1], err, path)
				}
				if errOut.Len() != 0 {
					t.Errorf("stderr with --json: %q", errOut)
				}
				return
			}
			for _, want := range []string{"thinking: press Go", "step ok click button \"Go\" [ref=e1] — checked", "done: the task is done", "done: 1 step, 2 model calls", "routine saved to " + path} {
				if !strings.Contains(errOut.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			if out.Len() != 0 {
				t.Errorf("stdout: %q", out)
			}
		})
	}
}

// Without a routine to save (no --record, or the task not done) there is
// no saved line.
func TestRunJSONSavesNothingWithoutRecord(t *testing.T) {
	common, out, _ := clitest.NewCommon(clitest.PageCaller(), true, false)
	m := scripted.New(
		scripted.Data(pilot.PurposeDecide, `{"thought":"press Go","action":{"type":"act","op":"click","ref":"e1","expect":{"text_appears":"Done!"}}}`),
		scripted.Data(pilot.PurposeDecide, `{"thought":"it says done","action":{"type":"done"}}`),
	)
	opts := &RunOptions{PilotOptions: pilotflags.PilotOptions{Common: common}, Task: "press go",
		NewModel: func() (pilot.Model, error) { return m, nil }}
	if err := runRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), `"saved"`) {
		t.Errorf("a saved line with no --record:\n%s", out)
	}
}

func TestRunCanceledExits130(t *testing.T) {
	common, _, _ := clitest.NewCommon(clitest.PageCaller(), false, false)
	hold := make(chan struct{})
	defer close(hold)
	m := scripted.New(scripted.Step{Purpose: pilot.PurposeDecide, Hold: hold})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	err := runRun(ctx, &RunOptions{PilotOptions: pilotflags.PilotOptions{Common: common}, Task: "press go",
		NewModel: func() (pilot.Model, error) { return m, nil }})
	if code := cmdutil.ExitCode(err); code != cmdutil.ExitCanceled {
		t.Fatalf("exit %d for %v", code, err)
	}
}

func TestTerminalAsk(t *testing.T) {
	ask := terminalAsk(strings.NewReader("ann@example.com\nyes\n"), &strings.Builder{})
	got, err := ask(context.Background(), pilot.AskRequest{Kind: "input", Slot: "email"})
	if err != nil || got != "ann@example.com" {
		t.Fatalf("got %q, %v", got, err)
	}
	got, err = ask(context.Background(), pilot.AskRequest{Kind: "approve"})
	if err != nil || got != "yes" {
		t.Fatalf("got %q, %v", got, err)
	}
}

// TestRunRecordToBadPathRunsNothing: a --record path that cannot take the
// routine fails before the task runs: no model call, nothing done on the
// page. It used to run the whole task and fail at the save.
func TestRunRecordToBadPathRunsNothing(t *testing.T) {
	dir := t.TempDir()
	for name, path := range map[string]string{
		"no folder": filepath.Join(dir, "nope", "r.json"),
		"a folder":  dir,
		"/proc":     "/proc/r.json",
	} {
		t.Run(name, func(t *testing.T) {
			if strings.HasPrefix(path, "/proc") {
				if _, err := os.Stat("/proc/self"); err != nil {
					t.Skip("no /proc")
				}
			}
			c := clitest.PageCaller()
			common, _, _ := clitest.NewCommon(c, false, false)
			m := scripted.New() // any model call fails the test
			err := runRun(context.Background(), &RunOptions{PilotOptions: pilotflags.PilotOptions{Common: common}, Task: "press go", Record: path,
				NewModel: func() (pilot.Model, error) { return m, nil }})
			if !errors.Is(err, calls.ErrBadInput) || calls.Hint(err) == "" {
				t.Fatalf("run --record %s: %v, want bad_input with a hint", path, err)
			}
			m.Verify(t)
			if got := c.Methods(); len(got) != 0 {
				t.Errorf("calls made before the refusal: %v", got)
			}
		})
	}
}

// run --extract reads the data once the task is done and prints it on
// stdout; the schema is a value (not a list: the fake page runs no
// recipe), read with one more model call.
func TestRunExtractPrintsTheData(t *testing.T) {
	common, out, _ := clitest.NewCommon(clitest.PageCaller(), false, false)
	m := scripted.New(
		scripted.Data(pilot.PurposeDecide, `{"thought":"press Go","action":{"type":"act","op":"click","ref":"e1","expect":{"text_appears":"Done!"}}}`),
		scripted.Data(pilot.PurposeDecide, `{"thought":"it says done","action":{"type":"done"}}`),
		scripted.Data(pilot.PurposeExtract, `"Done!"`),
	)
	schema := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(schema, []byte(`{"type":"string"}`), 0o644)
	opts := &RunOptions{PilotOptions: pilotflags.PilotOptions{Common: common}, Task: "look", Extract: "what the page says", SchemaFile: schema,
		NewModel: func() (pilot.Model, error) { return m, nil }}
	if err := runRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	m.Verify(t)
	if strings.TrimSpace(out.String()) != `"Done!"` {
		t.Errorf("stdout %q", out)
	}
	opts.SchemaFile = ""
	if err := runRun(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "--schema") {
		t.Errorf("--extract with no --schema: %v", err)
	}
}
