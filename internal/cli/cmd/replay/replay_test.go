package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/routine"
)

func replayOpts(c cmdutil.Caller, jsonOut, tty bool, file string) (*ReplayOptions, *bytes.Buffer, *bytes.Buffer) {
	common, out, errOut := clitest.NewCommon(c, jsonOut, tty)
	o := &ReplayOptions{File: file, KeepHeals: "ask", Submits: "allow"}
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
	o, err := clitest.ParseCmd(t, NewCmdReplay, []string{"r.json", "--var", "a=b", "--secret", "pw=env:X", "--keep-heals", "always"})
	if err != nil {
		t.Fatal(err)
	}
	if o.File != "r.json" || o.KeepHeals != "always" || o.Submits != "ask" || !o.Hand || o.VarArgs[0] != "a=b" || o.Secrets[0] != "pw=env:X" {
		t.Errorf("opts = %+v", o)
	}
	o, err = clitest.ParseCmd(t, NewCmdReplay, []string{"r.json", "--hand=false", "--allow-submit"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Hand || o.Submits != "allow" {
		t.Errorf("--hand=false --allow-submit: hand %v, submits %q", o.Hand, o.Submits)
	}
	_, err = clitest.ParseCmd(t, NewCmdReplay, []string{"r.json", "--keep-heals", "maybe"})
	var ue *cmdutil.UsageError
	if !errors.As(err, &ue) {
		t.Errorf("err = %v, want usage", err)
	}
}

func TestReplayRunOK(t *testing.T) {
	file := clitest.WriteRoutine(t)
	c := clitest.ShopCaller(nil)
	o, out, errOut := replayOpts(c, false, true, file)
	o.Hand = true // the flag's default
	if err := replayRun(context.Background(), o); err != nil {
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
	file := clitest.WriteRoutine(t)
	o, out, _ := replayOpts(clitest.ShopCaller(map[string]calls.Resolution{`role=button[name="Place order"]`: {Status: calls.Missing}}), true, false, file)
	o.NoModel = true
	err := replayRun(context.Background(), o)
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
			file := clitest.WriteRoutine(t)
			o, _, _ := replayOpts(clitest.ShopCaller(map[string]calls.Resolution{"label=Email": {Status: calls.Moved, Ref: "e9", Locator: "placeholder=Email"}}), false, false, file)
			o.KeepHeals = keep
			if err := replayRun(context.Background(), o); err != nil {
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

// A replay needs no model: OPENAI_BASE_URL set without a model name must
// not stop it before step 1 (it did: "no model named for the server").
func TestReplayModelFromEnvironmentOnly(t *testing.T) {
	o := &ReplayOptions{}
	env := map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
	m, err := o.pickModel(func(k string) string { return env[k] })
	if err != nil || m != nil {
		t.Errorf("model = %v, %v; want none and no error", m, err)
	}
	// Asked for by name, a model that cannot be built is an error.
	o.Model.BaseURL = "http://127.0.0.1:9/v1"
	if _, err := o.pickModel(func(k string) string { return env[k] }); err == nil {
		t.Error("--base-url with no model name: no error")
	}
}

// TestReplayAsksOnTerminal: at a terminal, a submit the replay may not
// press by itself is put to the person: y presses it with the page's
// approval, n stops the replay with exit 16 and nothing pressed.
func TestReplayAsksOnTerminal(t *testing.T) {
	for _, answer := range []string{"y\n", "n\n"} {
		file := clitest.WriteRoutine(t)
		c := clitest.ShopCaller(nil)
		page := c.Reply
		c.Reply = func(method string, params any) (any, error) {
			if req, ok := params.(calls.ActRequest); ok && req.Kind == calls.ActClick && req.Approve == nil {
				return nil, &calls.Error{Kind: calls.ErrNeedsApproval, Msg: "it needs approval; nothing was pressed",
					Data: []byte(`{"action":"click","url":"http://shop.test/checkout","control":"button \"Place order\"","why":"submits the form",
						"target":"POST http://shop.test/order","form":{"email":"ann@example.com"},"token":"t9"}`)}
			}
			return page(method, params)
		}
		o, _, errOut := replayOpts(c, false, true, file)
		o.Submits = "ask"
		o.IO.In = strings.NewReader(answer)
		o.IO.SetStdinTTY(true)
		err := replayRun(context.Background(), o)
		if !strings.Contains(errOut.String(), `place: click button "Place order" on http://shop.test/checkout: it submits the form.`+
			"\nThe form goes to POST http://shop.test/order.\nThe form:\n  email: ann@example.com\nAllow it? [y/N] ") {
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
