package record

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/routine"

	"github.com/waymark-dev/waymark/secret"
)

func TestRecordFlags(t *testing.T) {
	o, err := clitest.ParseCmd(t, NewCmdRecord, []string{"start", "--name", "checkout"})
	if err != nil || o.Op != "start" || o.Name != "checkout" {
		t.Errorf("start: %+v %v", o, err)
	}
	o, err = clitest.ParseCmd(t, NewCmdRecord, []string{"stop", "out.json"})
	if err != nil || o.Op != "stop" || o.File != "out.json" {
		t.Errorf("stop: %+v %v", o, err)
	}
	var ue *cmdutil.UsageError
	for _, args := range [][]string{{"stop"}, {"start", "extra"}, {"pause"}} {
		if _, err := clitest.ParseCmd(t, NewCmdRecord, args); !errors.As(err, &ue) {
			t.Errorf("%q: err = %v, want usage", args, err)
		}
	}
}

// recordedRoutine is what a daemon sends back from record.stop.
const recordedRoutine = `{"format":"waymark.routine/1","name":"checkout","version":1,
 "variables":[{"name":"full_name"},{"name":"email"},{"name":"password","secret":true}],
 "steps":[
  {"id":"open","kind":"goto","url":"http://shop.test/checkout","landed":{"path":"/checkout","title":"Checkout"}},
  {"id":"full_name","kind":"act","op":"fill","target":{"locator":"role=textbox[name=\"Full name\"]","fingerprint":{"role":"textbox","name":"Full name"}},"value":{"from":"input","slot":"full_name"}},
  {"id":"email","kind":"act","op":"fill","target":{"locator":"role=textbox[name=\"Email\"]","fingerprint":{"role":"textbox","name":"Email"}},"value":{"from":"input","slot":"email"}},
  {"id":"password","kind":"act","op":"fill","target":{"locator":"label=Password","fingerprint":{"role":"textbox","name":"Password","type":"password"}},"value":{"from":"secret","slot":"password"}}
 ]}`

const recordedPassword = "Tr0ub4dor-and-3"

func recordCaller(routineJSON string) *clitest.FakeCaller {
	return &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		switch method {
		case calls.MethodRecordStart:
			return calls.RecordStarted{Session: "s1", Name: params.(calls.RecordStartRequest).Name}, nil
		case calls.MethodRecordStop:
			return calls.RecordStopResult{Routine: json.RawMessage(routineJSON),
				Values: map[string]string{"full_name": "Ann Example", "email": "ann@example.com", "password": recordedPassword},
				Notes:  []string{"after step 2: tab new is not in the routine"}}, nil
		}
		return nil, errors.New("unexpected " + method)
	}}
}

func TestRecordStartRun(t *testing.T) {
	c := recordCaller(recordedRoutine)
	common, _, errOut := clitest.NewCommon(c, false, true)
	o := &RecordOptions{Common: common, Op: "start", Name: "checkout"}
	if err := recordStartRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if got := c.Calls[0]; got.Method != calls.MethodRecordStart || got.Params.(calls.RecordStartRequest).Name != "checkout" || got.Session != "s1" {
		t.Errorf("call = %+v", got)
	}
	if !strings.Contains(errOut.String(), "record stop FILE") {
		t.Errorf("stderr = %q", errOut.String())
	}
}

func TestRecordStopRunWritesRoutine(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // the approvals record stop keeps
	file := filepath.Join(t.TempDir(), "checkout.json")
	c := recordCaller(recordedRoutine)
	common, out, errOut := clitest.NewCommon(c, false, true)
	o := &RecordOptions{Common: common, Op: "stop", File: file}
	if err := recordStopRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if req := c.Calls[0].Params.(calls.RecordStopRequest); req.Name != "checkout" {
		t.Errorf("stop request = %+v, want the file's name", req)
	}
	r, err := routine.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 4 || r.Name != "checkout" {
		t.Errorf("routine = %+v", r)
	}
	if diff := cmp.Diff("full_name=Ann Example\nemail=ann@example.com\npassword=••••\n", out.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	wantReplay := "replay with: waymark replay " + file + " --var 'full_name=Ann Example' --var email=ann@example.com --secret password=env:PASSWORD"
	for _, want := range []string{"recorded 4 steps and 3 variables", "note: after step 2: tab new", wantReplay} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
		}
	}
	b, _ := os.ReadFile(file)
	for where, s := range map[string]string{"file": string(b), "stdout": out.String(), "stderr": errOut.String()} {
		if strings.Contains(s, recordedPassword) {
			t.Errorf("the secret is in the %s", where)
		}
	}
}

// TestRecordStopSaysApproved: record stop names the submits the person
// pressed, which a replay presses without asking while the page matches.
func TestRecordStopSaysApproved(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // the approvals record stop keeps
	approved := strings.Replace(recordedRoutine, `"value":{"from":"secret","slot":"password"}}`,
		`"value":{"from":"secret","slot":"password"}},
  {"id":"place_order","kind":"act","op":"click","target":{"locator":"role=button[name=\"Place order\"]","fingerprint":{"role":"button","name":"Place order"}},
   "approved":{"action":"click","path":"/checkout","control":"button[type=submit] \"Place order\"","why":"submits the form","fields":["email","name"]}}`, 1)
	for _, asJSON := range []bool{false, true} {
		file := filepath.Join(t.TempDir(), "checkout.json")
		common, out, errOut := clitest.NewCommon(recordCaller(approved), asJSON, !asJSON)
		if err := recordStopRun(context.Background(), &RecordOptions{Common: common, Op: "stop", File: file}); err != nil {
			t.Fatal(err)
		}
		if !asJSON {
			if want := `approved: step 5, click button[type=submit] "Place order" on /checkout: you pressed this submit, so a replay presses it without asking while ` + file + " is as saved"; !strings.Contains(errOut.String(), want) {
				t.Errorf("stderr lacks %q:\n%s", want, errOut.String())
			}
			// The approval authority keeps the person's approval of the
			// file as written.
			r, trust, err := approval.Default(nil).Load(file)
			if err != nil || !trust.Holds(r) {
				t.Errorf("the saved file's approvals are not a person's: %v %s", err, trust.Why(r))
			}
			continue
		}
		var env struct {
			Data recordStopJSON `json:"data"`
		}
		if err := json.Unmarshal(out.Bytes(), &env); err != nil {
			t.Fatal(err)
		}
		want := []approvedStep{{Step: 5, ID: "place_order", Action: "click", Control: `button[type=submit] "Place order"`, Path: "/checkout"}}
		if d := cmp.Diff(want, env.Data.Approved); d != "" {
			t.Errorf("approved (-want +got):\n%s", d)
		}
	}
}

func TestRecordStopRunJSON(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // the approvals record stop keeps
	file := filepath.Join(t.TempDir(), "checkout.json")
	common, out, errOut := clitest.NewCommon(recordCaller(recordedRoutine), true, false)
	if err := recordStopRun(context.Background(), &RecordOptions{Common: common, Op: "stop", File: file}); err != nil {
		t.Fatal(err)
	}
	var env struct {
		OK   bool           `json:"ok"`
		Data recordStopJSON `json:"data"`
	}
	if err := json.Unmarshal(out.Bytes(), &env); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	want := []recordedVar{{Name: "full_name", Value: "Ann Example"}, {Name: "email", Value: "ann@example.com"}, {Name: "password", Secret: true, Value: secret.Masked}}
	if diff := cmp.Diff(want, env.Data.Variables); diff != "" || !env.OK || env.Data.Steps != 4 || !strings.Contains(env.Data.Replay, "--secret password=env:PASSWORD") {
		t.Errorf("envelope %s\nvariables (-want +got):\n%s", out.String(), diff)
	}
	if strings.Contains(out.String(), recordedPassword) || errOut.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", out.String(), errOut.String())
	}
}

func TestRecordStopRunRefuses(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // the approvals record stop keeps
	dir := t.TempDir()
	// A routine whose step holds the secret's value must not be written.
	leaky := strings.Replace(recordedRoutine, `"title":"Checkout"`, `"title":"Checkout `+recordedPassword+`"`, 1)
	tests := []struct {
		name    string
		file    string
		routine string
		want    string
		called  bool
	}{
		{"no folder", filepath.Join(dir, "nope", "r.json"), recordedRoutine, "does not exist", false},
		{"a folder", dir, recordedRoutine, "is a folder", false},
		{"nothing recorded", filepath.Join(dir, "empty.json"), `{"format":"waymark.routine/1","name":"x","version":1,"steps":[]}`, "nothing was recorded", true},
		{"a secret in a step", filepath.Join(dir, "leaky.json"), leaky, "secret", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := recordCaller(tt.routine)
			common, out, _ := clitest.NewCommon(c, false, false)
			err := recordStopRun(context.Background(), &RecordOptions{Common: common, Op: "stop", File: tt.file})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if called := len(c.Methods()) > 0; called != tt.called {
				t.Errorf("record.stop called = %v", called)
			}
			if _, err := os.Stat(tt.file); tt.file != dir && err == nil {
				t.Error("a file was written")
			}
			if out.Len() != 0 {
				t.Errorf("stdout = %q", out.String())
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"email=ann@example.com": "email=ann@example.com",
		"full_name=Ann Example": "'full_name=Ann Example'",
		"note=it's":             `'note=it'\''s'`,
		"x=":                    "x=",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestRecordStopUnwritableKeepsRecording: a path that cannot be written
// (here a folder of /proc, which exists but takes no file) fails record
// stop with bad_input and the session still records: a second stop to a
// good path writes the routine. It used to end the recording first and
// lose it.
func TestRecordStopUnwritableKeepsRecording(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // the approvals record stop keeps
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("needs /proc for a folder that takes no file")
	}
	recording := true
	c := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		if method != calls.MethodRecordStop {
			return nil, errors.New("unexpected " + method)
		}
		if !recording {
			return nil, calls.Errorf(calls.ErrBadInput, "", "session %q is not recording", "s1")
		}
		if !params.(calls.RecordStopRequest).Keep {
			recording = false
		}
		return calls.RecordStopResult{Routine: json.RawMessage(recordedRoutine),
			Values: map[string]string{"full_name": "Ann Example", "email": "ann@example.com", "password": recordedPassword}}, nil
	}}
	common, _, _ := clitest.NewCommon(c, false, false)
	err := recordStopRun(context.Background(), &RecordOptions{Common: common, Op: "stop", File: "/proc/r.json"})
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(calls.Hint(err), "still recording") {
		t.Fatalf("stop to /proc/r.json: %v (hint %q), want bad_input saying the session still records", err, calls.Hint(err))
	}
	if !recording {
		t.Fatal("the recording ended although its file could not be written")
	}
	good := filepath.Join(t.TempDir(), "r.json")
	if err := recordStopRun(context.Background(), &RecordOptions{Common: common, Op: "stop", File: good}); err != nil {
		t.Fatalf("stop to a good path after the failure: %v", err)
	}
	if _, err := routine.Load(good); err != nil {
		t.Fatalf("the routine written: %v", err)
	}
	if recording {
		t.Error("the recording goes on after it was written")
	}
}

// record rows start needs a recipe to read the list by: from --recipe
// FILE, or learned with --schema; a FILE that is not there with no schema
// to learn it says so.
func TestRecordRowsStartNeedsARecipe(t *testing.T) {
	common, _, _ := clitest.NewCommon(clitest.PageCaller(), false, false)
	missing := filepath.Join(t.TempDir(), "none.recipe.json")
	for _, opts := range []*RecordRowsOptions{
		{PilotOptions: pilotflags.PilotOptions{Common: common}, Op: "start"},
		{PilotOptions: pilotflags.PilotOptions{Common: common}, Op: "start", RecipeFile: missing},
	} {
		err := recordRowsRun(context.Background(), opts)
		var ue *cmdutil.UsageError
		hint := calls.Hint(err)
		if errors.As(err, &ue) {
			hint = ue.Hint
		}
		if cmdutil.ExitCode(err) != 2 || hint == "" || !strings.Contains(err.Error(), "recipe") {
			t.Errorf("record rows start %q: %v, want an error about the recipe with a hint", opts.RecipeFile, err)
		}
	}
}
