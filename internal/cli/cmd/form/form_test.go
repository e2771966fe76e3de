package form

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

func TestFormFillRequest(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.json")
	if err := os.WriteFile(file, []byte("\xef\xbb\xbf"+`{"email": "ann@example.com", "remote": true, "years": 7, "note": null}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CARD": "4242424242424242"}
	c, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	c.Getenv = func(k string) string { return env[k] }
	o := &FormOptions{Common: c, File: file, Secrets: []string{"card_number=env:CARD"}}
	req, err := o.fillRequest()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"email": "ann@example.com", "remote": "true", "years": "7", "note": ""}
	for k, v := range want {
		if req.Answers[k] != v {
			t.Errorf("answer %s = %q, want %q", k, req.Answers[k], v)
		}
	}
	if req.Secrets["card_number"] != "4242424242424242" || req.Answers["card_number"] != "" {
		t.Errorf("the secret is not kept apart: %+v", req)
	}
	// A file answer's relative path is the answers file's, wherever the
	// command runs: the daemon reads from no folder of the user's.
	if req.Dir != dir {
		t.Errorf("dir = %q, want the answers file's folder %s", req.Dir, dir)
	}
	for _, bad := range []string{`[1, 2]`, `{"a": [1]}`, `{`} {
		if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		var ue *cmdutil.UsageError
		if _, err := o.fillRequest(); !errors.As(err, &ue) {
			t.Errorf("%s: want a usage error, got %v", bad, err)
		}
	}
	o.Secrets = []string{"card_number=4242"}
	if err := os.WriteFile(file, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := o.fillRequest(); err == nil || strings.Contains(err.Error(), "4242") {
		t.Errorf("a secret on the command line: %v", err)
	}
}

func TestFormFillRun(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.json")
	if err := os.WriteFile(file, []byte(`{"email": "ann@example.com"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodFormFill: calls.FormFillResult{
		URL: "http://shop.test/", Rounds: 1,
		Fields: []calls.FilledField{
			{Key: "email", Kind: "text", After: "ann@example.com", Answered: true, ReadBack: true},
			{Key: "card_number", Kind: "text", After: "••••", Answered: true, ReadBack: true},
			{Key: "name", Kind: "text"},
		},
		Stopped:     []string{"POST http://shop.test/apply (a form submission)"},
		NeedsPerson: []string{"name: required and empty"},
	}}}
	c, out, _ := clitest.NewCommon(fc, false, false)
	c.Getenv = func(string) string { return "4242424242424242" }
	err := formRun(context.Background(), &FormOptions{Common: c, Op: "fill", File: file, Secrets: []string{"card_number=env:CARD"}})
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, w := range []string{`- email text: "" → "ann@example.com" ok`, "[stopped] the page tried to send: POST", "[needs a person] name: required and empty"} {
		if !strings.Contains(got, w) {
			t.Errorf("output lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "4242") || strings.Contains(got, "- name") {
		t.Errorf("output:\n%s", got)
	}
	req := fc.Calls[0].Params.(calls.FormFillRequest)
	if req.Secrets["card_number"] == "" {
		t.Errorf("the secret did not reach the call: %+v", req)
	}
}

// A fill whose answers did not all find a field fails with not_found
// (exit 1), after telling what it filled; --json carries the result.
func TestFormFillUnplacedExits(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.json")
	if err := os.WriteFile(file, []byte(`{"email": "ann@example.com", "Shoe size": "38"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res := calls.FormFillResult{
		URL: "http://shop.test/", Rounds: 1,
		Fields:      []calls.FilledField{{Key: "email", Kind: "text", After: "ann@example.com", Answered: true, ReadBack: true}},
		Unmatched:   []string{"Shoe size"},
		NeedsPerson: []string{"Shoe size: no field takes this answer"},
	}
	for _, jsonOut := range []bool{false, true} {
		fc := &clitest.FakeCaller{Results: map[string]any{calls.MethodFormFill: res}}
		c, out, errOut := clitest.NewCommon(fc, jsonOut, false)
		err := formRun(context.Background(), &FormOptions{Common: c, Op: "fill", File: file})
		if !errors.Is(err, calls.ErrNoMatch) || cmdutil.ExitCode(err) != 1 || !strings.Contains(err.Error(), "Shoe size") {
			t.Fatalf("json=%v: err %v (exit %d)", jsonOut, err, cmdutil.ExitCode(err))
		}
		if !jsonOut {
			if got := out.String(); !strings.Contains(got, `- email text: "" → "ann@example.com" ok`) || !strings.Contains(got, "[needs a person] Shoe size") {
				t.Errorf("text:\n%s", got)
			}
			continue
		}
		out.Reset()
		cmdutil.PrintError(out, errOut, true, false, err)
		var env struct {
			OK    bool
			Data  calls.FormFillResult
			Error struct{ Code, Message string }
		}
		if jerr := json.Unmarshal(out.Bytes(), &env); jerr != nil || env.OK || env.Error.Code != "not_found" || len(env.Data.Unmatched) != 1 || len(env.Data.Fields) != 1 {
			t.Errorf("json: %s (%v)", out, jerr)
		}
	}
}

// TestFormFillSecretPromptNoTerminal: --secret card_number alone asks for
// the value at the terminal (the flag's help says so); with no terminal it
// is a usage error that says how to give it instead. It used to panic: the
// PilotOptions the fill read its secrets with had no IOStreams to prompt on.
func TestFormFillSecretPromptNoTerminal(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a.json")
	if err := os.WriteFile(file, []byte(`{"email": "ann@example.com"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	o := &FormOptions{Common: c, File: file, Secrets: []string{"card_number"}}
	var ue *cmdutil.UsageError
	if _, err := o.fillRequest(); !errors.As(err, &ue) || !strings.Contains(err.Error(), "needs a terminal") {
		t.Errorf("want a usage error that asks for a terminal, got %v", err)
	}
}

// TestFormFillRequestStdin: fill - reads the answers from stdin.
func TestFormFillRequestStdin(t *testing.T) {
	c, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	o := &FormOptions{Common: c, File: "-", Stdin: strings.NewReader(`{"email": "ann@example.com"}`)}
	req, err := o.fillRequest()
	if err != nil || req.Answers["email"] != "ann@example.com" {
		t.Errorf("fill -: %+v, %v", req, err)
	}
	if wd, _ := os.Getwd(); req.Dir != wd {
		t.Errorf("fill -: dir = %q, want the working folder %s", req.Dir, wd)
	}
}
