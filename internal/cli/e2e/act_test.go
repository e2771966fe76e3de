package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// TestActRefusals: the rules model's refusals reach the agent with their
// own codes and hints, through the CLI's JSON envelope and its exit code;
// a key press is said as the key ("press ArrowDown", not "press press").
func TestActRefusals(t *testing.T) {
	page := calls.Snapshot{URL: "https://shop.test/login", Text: "- link \"Sign in\" [ref=e1]\n- button \"Sign in\" [ref=e2]\n- textbox \"Email\" [ref=e3]"}
	tests := []struct {
		args       []string
		code, hint string
	}{
		{[]string{"act", "click Sign in"}, "ambiguous", "(click e1)"},
		{[]string{"act", "click Sign up"}, "not_found", "snapshot -i"},
		{[]string{"act", "summarise the page"}, "needs_model", "model key"},
		{[]string{"observe", "where is the cart?"}, "needs_model", "model key"},
	}
	for _, tt := range tests {
		fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodSnapshot: page}}
		code, stdout, _, _ := runMain(t, context.Background(), fc, nil, append(tt.args, "--json", "--model", "rules")...)
		var env struct {
			Error struct{ Code, Message, Hint string }
			Data  struct{ Candidates []string }
		}
		if err := json.Unmarshal([]byte(stdout), &env); err != nil {
			t.Fatalf("%v: %v in %q", tt.args, err, stdout)
		}
		wantExit := cmdutil.ExitFailed // what failed on the page
		if tt.code == "needs_model" {
			wantExit = cmdutil.ExitUsage // what the user gave: no model for the words
		}
		if code != wantExit || env.Error.Code != tt.code || !strings.Contains(env.Error.Hint, tt.hint) {
			t.Errorf("%v: exit %d, error %+v; want %s with a hint holding %q", tt.args, code, env.Error, tt.code, tt.hint)
		}
		if tt.code == "ambiguous" && len(env.Data.Candidates) != 2 {
			t.Errorf("%v: candidates %q, want the two Sign in", tt.args, env.Data.Candidates)
		}
	}

	fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodSnapshot: page, calls.MethodAct: calls.Outcome{URL: page.URL}}}
	// What act did goes to stdout, where a harness reads it; which model
	// chose it is a diagnostic, on stderr.
	code, stdout, stderr, _ := runMain(t, context.Background(), fc, nil, "act", "press ArrowDown", "--model", "rules")
	if code != cmdutil.ExitOK || !strings.Contains(stdout, "press ArrowDown") || strings.Contains(stdout, "press press") ||
		!strings.Contains(stderr, "model: rules") || strings.Contains(stderr, "ArrowDown") {
		t.Errorf("press: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	// What waymark closed on the way is said in plain output too, as the
	// element commands say it (it was only in --json).
	closed := "closed the cookie banner by \"Reject non-essential\""
	fc = &clitest.FakeCaller{Results: map[string]any{calls.MethodSnapshot: page, calls.MethodAct: calls.Outcome{URL: page.URL, Closed: closed}}}
	code, stdout, _, _ = runMain(t, context.Background(), fc, nil, "act", "press ArrowDown", "--model", "rules")
	if code != cmdutil.ExitOK || !strings.Contains(stdout, "before acting, "+closed) {
		t.Errorf("act after closing a banner: exit %d, stdout %q", code, stdout)
	}

	// A submit the browser's validation stopped is said too.
	notSent := &calls.NotSent{Invalid: []calls.InvalidField{{Role: "textbox", Name: "Email", Message: "Please fill out this field."}}}
	fc = &clitest.FakeCaller{Results: map[string]any{calls.MethodSnapshot: page, calls.MethodAct: calls.Outcome{URL: page.URL, NotSent: notSent}}}
	code, stdout, _, _ = runMain(t, context.Background(), fc, nil, "act", "press ArrowDown", "--model", "rules")
	if code != cmdutil.ExitOK || !strings.Contains(stdout, "the form was not sent: 1 field is invalid: textbox \"Email\"") {
		t.Errorf("act whose submit was stopped: exit %d, stdout %q", code, stdout)
	}
}

// TestNeedsModelHintFits: with no model, what extract, observe and act
// answer says what works for that command: act's plain instructions are
// act's, extract's are a recipe, a sheet or one value at a time, and
// observe's a look at the page (they all listed act's instructions).
func TestNeedsModelHintFits(t *testing.T) {
	page := calls.Snapshot{URL: "https://shop.test/", Text: "- heading \"Mugs\" [level=1]\n- link \"Cart\" [ref=e1]"}
	schema := filepath.Join(t.TempDir(), "schema.json")
	if err := os.WriteFile(schema, []byte(`{"type":"object","properties":{"name":{"type":"string"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args       []string
		want, lack []string
	}{
		{[]string{"extract", "the products", "--schema", schema}, []string{"--recipe FILE", "`waymark sheet read RANGE`", "`waymark get text TARGET`"}, []string{"fill X with Y"}},
		{[]string{"observe", "where is the cart?"}, []string{"`waymark snapshot -i`", "ref"}, []string{"fill X with Y"}},
		{[]string{"act", "summarise the page"}, []string{"fill X with Y"}, nil},
	} {
		fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodSnapshot: page}}
		code, stdout, _, _ := runMain(t, context.Background(), fc, nil, append(tt.args, "--json", "--model", "rules")...)
		var env struct{ Error struct{ Code, Hint string } }
		if err := json.Unmarshal([]byte(stdout), &env); err != nil {
			t.Fatalf("%v: %v in %q", tt.args, err, stdout)
		}
		if code != cmdutil.ExitUsage || env.Error.Code != "needs_model" {
			t.Errorf("%v: exit %d, error %+v", tt.args, code, env.Error)
		}
		for _, w := range tt.want {
			if !strings.Contains(env.Error.Hint, w) {
				t.Errorf("%v: hint %q lacks %q", tt.args, env.Error.Hint, w)
			}
		}
		for _, w := range tt.lack {
			if strings.Contains(env.Error.Hint, w) {
				t.Errorf("%v: hint %q holds %q, which is act's", tt.args, env.Error.Hint, w)
			}
		}
	}
}
