package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmd/drift"
	"github.com/waymark-dev/waymark/internal/cli/cmd/replay"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/routine"
)

const cliRoutine = `{
  "format": "waymark.routine/1", "name": "checkout", "version": 1,
  "variables": [{"name": "email"}, {"name": "password", "secret": true}],
  "steps": [
    {"id": "open", "kind": "goto", "url": "http://shop.test/checkout"},
    {"id": "email", "kind": "act", "op": "fill", "target": {"locator": "label=Email", "fingerprint": {"role": "textbox", "name": "Email"}}, "value": {"from": "input", "slot": "email"}},
    {"id": "password", "kind": "act", "op": "fill", "target": {"locator": "label=Password", "fingerprint": {"role": "textbox", "name": "Password"}}, "value": {"from": "secret", "slot": "password"}},
    {"id": "place", "kind": "act", "op": "click", "target": {"locator": "role=button[name=\"Place order\"]", "fingerprint": {"role": "button", "name": "Place order"}}}
  ]}`

// shopCaller answers like a daemon whose page holds the checkout; find
// answers per locator from finds (found when absent).
func shopCaller(finds map[string]calls.Resolution) *clitest.FakeCaller {
	return &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
		switch method {
		case calls.MethodOpen:
			return calls.PageInfo{URL: "http://shop.test/checkout", Title: "Checkout"}, nil
		case calls.MethodSnapshot:
			return calls.Snapshot{URL: "http://shop.test/checkout", Text: "- button \"Place order\" [ref=e4]"}, nil
		case calls.MethodFind:
			req := params.(calls.FindRequest)
			if r, ok := finds[req.Locator]; ok {
				return r, nil
			}
			return calls.Resolution{Status: calls.Found, Ref: "e1"}, nil
		case calls.MethodLocate:
			return calls.Evidence{Chosen: "placeholder=Email", Fingerprint: calls.Fingerprint{Role: "textbox", Placeholder: "Email"}}, nil
		case calls.MethodAct:
			return calls.Outcome{URL: "http://shop.test/checkout"}, nil
		case calls.MethodGet: // the replay's last look at the tab
			return calls.GetResult{Value: "http://shop.test/checkout", Found: true}, nil
		}
		return nil, errors.New("unexpected " + method)
	}}
}

func writeRoutine(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "checkout.json")
	if err := os.WriteFile(p, []byte(cliRoutine), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func replayOpts(c cmdutil.Caller, jsonOut, tty bool, file string) (*replay.ReplayOptions, *bytes.Buffer, *bytes.Buffer) {
	common, out, errOut := clitest.NewCommon(c, jsonOut, tty)
	o := &replay.ReplayOptions{File: file, KeepHeals: "ask", Submits: "allow"}
	o.Common = common
	o.VarArgs = []string{"email=ann@example.com"}
	o.Secrets = []string{"password=env:SHOP_PW"}
	o.Common.Getenv = func(k string) string {
		if k == "SHOP_PW" {
			return "s3cret-Pass-w0rd"
		}
		return ""
	}
	return o, out, errOut
}

func TestReplayFlags(t *testing.T) {
	o, err := clitest.ParseCmd(t, replay.NewCmdReplay, []string{"r.json", "--var", "a=b", "--secret", "pw=env:X", "--keep-heals", "always"})
	if err != nil {
		t.Fatal(err)
	}
	if o.File != "r.json" || o.KeepHeals != "always" || o.Submits != "ask" || !o.Hand || o.VarArgs[0] != "a=b" || o.Secrets[0] != "pw=env:X" {
		t.Errorf("opts = %+v", o)
	}
	o, err = clitest.ParseCmd(t, replay.NewCmdReplay, []string{"r.json", "--hand=false", "--allow-submit"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Hand || o.Submits != "allow" {
		t.Errorf("--hand=false --allow-submit: hand %v, submits %q", o.Hand, o.Submits)
	}
	_, err = clitest.ParseCmd(t, replay.NewCmdReplay, []string{"r.json", "--keep-heals", "maybe"})
	var ue *cmdutil.UsageError
	if !errors.As(err, &ue) {
		t.Errorf("err = %v, want usage", err)
	}
	if _, err := clitest.ParseCmd(t, drift.NewCmdDrift, []string{"r.json"}); err != nil {
		t.Error(err)
	}
}

func TestReplayRunOK(t *testing.T) {
	file := writeRoutine(t)
	c := shopCaller(nil)
	o, out, errOut := replayOpts(c, false, true, file)
	o.Hand = true // the flag's default
	if err := replay.ReplayRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	acts := 0
	for _, call := range c.Calls {
		if req, ok := call.Params.(calls.ActRequest); ok {
			acts++
			if !req.Hand || req.Submits != "allow" {
				t.Errorf("act %s: hand %v, submits %q; want a hand and allow", req.Target, req.Hand, req.Submits)
			}
		}
	}
	if acts != 3 {
		t.Errorf("%d acts, want 3", acts)
	}
	if !strings.Contains(errOut.String(), "replayed 4 steps") || !strings.Contains(errOut.String(), "  4  click    place") {
		t.Errorf("stderr = %q", errOut.String())
	}
	if out.Len() != 0 {
		t.Errorf("stdout = %q", out.String())
	}
	if strings.Contains(errOut.String(), "s3cret") {
		t.Error("the secret was printed")
	}
}

func TestReplayRunStopsWithExitCode(t *testing.T) {
	file := writeRoutine(t)
	o, out, _ := replayOpts(shopCaller(map[string]calls.Resolution{`role=button[name="Place order"]`: {Status: calls.Missing}}), true, false, file)
	o.NoModel = true
	err := replay.ReplayRun(context.Background(), o)
	var ee *cmdutil.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 15 || !ee.Reported() {
		t.Fatalf("err = %v", err)
	}
	var env struct {
		OK    bool `json:"ok"`
		Data  struct{ Status, Cause string }
		Error struct{ Code, Hint string }
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &env); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if env.OK || env.Data.Status != "stopped" || env.Data.Cause != "missing" || env.Error.Code != "missing" || env.Error.Hint == "" {
		t.Errorf("envelope = %s", out.String())
	}
	if strings.Contains(out.String(), "s3cret") {
		t.Error("the secret was printed")
	}
}

func TestReplayRunKeepsHeals(t *testing.T) {
	for _, keep := range []string{"ask", "always", "never"} {
		t.Run(keep, func(t *testing.T) {
			file := writeRoutine(t)
			o, _, _ := replayOpts(shopCaller(map[string]calls.Resolution{"label=Email": {Status: calls.Moved, Ref: "e9", Locator: "placeholder=Email"}}), false, false, file)
			o.KeepHeals = keep
			if err := replay.ReplayRun(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			orig, _ := routine.Load(file)
			pending := routine.PendingPath(file, 2)
			_, perr := os.Stat(pending)
			switch keep {
			case "ask":
				p, err := routine.Load(pending)
				if err != nil || !p.Pending || p.Version != 2 || orig.Version != 1 {
					t.Errorf("pending = %+v, %v", p, err)
				}
			case "always":
				if orig.Version != 2 || orig.Pending || orig.Steps[1].Target.Locator != "placeholder=Email" || perr == nil {
					t.Errorf("saved = %+v", orig)
				}
			case "never":
				if orig.Version != 1 || perr == nil {
					t.Errorf("something was written")
				}
			}
		})
	}
}

func TestDriftRun(t *testing.T) {
	file := writeRoutine(t)
	// Something moved: 20, apart from the codes of a failed command.
	common, so, se := clitest.NewCommon(shopCaller(map[string]calls.Resolution{"label=Email": {Status: calls.Moved, Ref: "e9", Locator: "placeholder=Email"}}), false, false)
	err := drift.DriftRun(context.Background(), &drift.DriftOptions{Common: common, File: file})
	var ee *cmdutil.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 20 || cmdutil.ExitCode(err) != 20 {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(so.String(), "email\tmoved\tlabel=Email\tnow placeholder=Email\n") || !strings.Contains(se.String(), "1 moved") {
		t.Errorf("stdout %q stderr %q", so.String(), se.String())
	}
}

// A replay needs no model: OPENAI_BASE_URL set without a model name must
// not stop it before step 1 (it did: "no model named for the server").
func TestReplayModelFromEnvironmentOnly(t *testing.T) {
	o := &replay.ReplayOptions{}
	env := map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
	m, err := o.PickModel(func(k string) string { return env[k] })
	if err != nil || m != nil {
		t.Errorf("model = %v, %v; want none and no error", m, err)
	}
	// Asked for by name, a model that cannot be built is an error.
	o.Model.BaseURL = "http://127.0.0.1:9/v1"
	if _, err := o.PickModel(func(k string) string { return env[k] }); err == nil {
		t.Error("--base-url with no model name: no error")
	}
}

// TestReplayAsksOnTerminal: at a terminal, a submit the replay may not
// press by itself is put to the person: y presses it with the page's
// approval, n stops the replay with exit 16 and nothing pressed.
func TestReplayAsksOnTerminal(t *testing.T) {
	for _, answer := range []string{"y\n", "n\n"} {
		file := writeRoutine(t)
		c := shopCaller(nil)
		page := c.Reply
		c.Reply = func(method string, params any) (any, error) {
			if req, ok := params.(calls.ActRequest); ok && req.Kind == calls.ActClick && req.Approve == nil {
				return nil, &calls.Error{Kind: calls.ErrNeedsApproval, Msg: "it needs approval; nothing was pressed",
					Data: []byte(`{"action":"click","url":"http://shop.test/checkout","control":"button \"Place order\"","why":"submits the form","token":"t9"}`)}
			}
			return page(method, params)
		}
		o, _, errOut := replayOpts(c, false, true, file)
		o.Submits = "ask"
		o.IO.In = strings.NewReader(answer)
		o.IO.SetStdinTTY(true)
		err := replay.ReplayRun(context.Background(), o)
		if !strings.Contains(errOut.String(), `place: click button "Place order" on http://shop.test/checkout: it submits the form. Press it? [y/N]`) {
			t.Errorf("%q: stderr lacks the question:\n%s", answer, errOut.String())
		}
		pressed := false
		for _, call := range c.Calls {
			if req, ok := call.Params.(calls.ActRequest); ok && req.Kind == calls.ActClick && req.Approve != nil && req.Approve.Token == "t9" {
				pressed = true
			}
		}
		var ee *cmdutil.ExitError
		switch answer {
		case "y\n":
			if err != nil || !pressed {
				t.Errorf("yes: err %v, pressed %v", err, pressed)
			}
		default:
			if !errors.As(err, &ee) || ee.ExitCode() != 16 || pressed {
				t.Errorf("no: err %v, pressed %v", err, pressed)
			}
		}
	}
}
