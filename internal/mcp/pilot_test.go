package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

const signInPage = "- heading \"Sign in\" [level=1]\n- textbox \"Email\" [ref=e1]\n- textbox \"Password\" [ref=e2]\n- button \"Sign in\" [ref=e3]\nWelcome, Ann"

// pageCaller answers like a page that shows signInPage.
func pageCaller() *fakeCaller {
	return &fakeCaller{reply: func(method string, params any) (any, error) {
		switch method {
		case calls.MethodSnapshot:
			return calls.Snapshot{URL: "https://shop.test/login", Title: "Sign in", Text: signInPage}, nil
		case calls.MethodLocate:
			return calls.Evidence{Ref: "e1", Chosen: "label=Email"}, nil
		case calls.MethodAct:
			return calls.Outcome{URL: "https://shop.test/login", Title: "Sign in"}, nil
		}
		return nil, nil
	}}
}

// pilotServer connects a client to a server with the pilot tools over the
// caller and model, and returns it with the replays the replayer saw.
func pilotServer(t *testing.T, c *fakeCaller, m pilot.Model, po PilotOptions, res *replay.Result) (*sdk.ClientSession, *[]replaySeen) {
	t.Helper()
	seen := &[]replaySeen{}
	newPilot := func(_ context.Context, session string) (*pilot.Pilot, error) {
		return pilot.New(calls.Remote{Caller: c, Session: session}, m, nil), nil
	}
	replayer := func(_ context.Context, session string, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		*seen = append(*seen, replaySeen{session, r, o})
		return res, nil
	}
	cs := connect(t, Options{Caller: c, Session: po.Session, Extra: []func(*sdk.Server){PilotTools(newPilot, replayer, po)}})
	return cs, seen
}

type replaySeen struct {
	session string
	r       *routine.Routine
	opts    replay.Options
}

// actsSeen returns the act requests the caller saw.
func actsSeen(t *testing.T, c *fakeCaller) []calls.ActRequest {
	t.Helper()
	var out []calls.ActRequest
	for _, call := range c.seen() {
		if call.Method != calls.MethodAct {
			continue
		}
		var r calls.ActRequest
		if err := json.Unmarshal([]byte(call.Params), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func TestPilotToolsListed(t *testing.T) {
	m := scripted.New()
	names := func(cs *sdk.ClientSession) []string {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tool := range res.Tools {
			if slices.Contains([]string{"act", "observe", "extract", "run", "replay"}, tool.Name) {
				out = append(out, tool.Name)
			}
		}
		return out
	}
	full, _ := pilotServer(t, &fakeCaller{}, m, PilotOptions{}, nil)
	if got := names(full); !slices.Equal(got, []string{"act", "extract", "observe", "replay", "run"}) {
		t.Errorf("with a model: %v", got)
	}
	rules, _ := pilotServer(t, &fakeCaller{}, m, PilotOptions{ActOnly: true}, nil)
	if got := names(rules); !slices.Equal(got, []string{"act", "replay"}) {
		t.Errorf("with the rules model: %v", got)
	}
	none := connect(t, Options{Caller: &fakeCaller{}, Extra: []func(*sdk.Server){PilotTools(nil, nil, PilotOptions{})}})
	if got := names(none); len(got) != 0 {
		t.Errorf("with neither: %v", got)
	}
}

func TestPilotAct(t *testing.T) {
	c := pageCaller()
	m := scripted.New(scripted.Data(pilot.PurposeAct, `{"action":"fill","ref":"e1","value":"%email%"}`))
	defer m.Verify(t)
	cs, _ := pilotServer(t, c, m, PilotOptions{Session: "s1"}, nil)
	got, isErr, _ := callTool(t, cs, "act", map[string]any{"instruction": "fill Email with %email%", "vars": map[string]any{"email": "ann@example.com"}})
	if isErr {
		t.Fatalf("tool error: %s", got)
	}
	for _, want := range []string{"fill @e1: done", `element: textbox "Email" [ref=e1]`, "locator: label=Email"} {
		if !strings.Contains(got, want) {
			t.Errorf("reply lacks %q:\n%s", want, got)
		}
	}
	acts := actsSeen(t, c)
	want := calls.ActRequest{Kind: calls.ActFill, Target: "@e1", Value: "ann@example.com", Submits: "ask", Hand: true}
	if len(acts) != 1 || mustJSON(t, acts[0]) != mustJSON(t, want) {
		t.Errorf("acts %+v, want %+v", acts, want)
	}
	for _, call := range c.seen() {
		if call.Session != "s1" {
			t.Errorf("call %s went to session %q", call.Method, call.Session)
		}
	}
}

func TestPilotObserve(t *testing.T) {
	c := pageCaller()
	m := scripted.New(scripted.Data(pilot.PurposeObserve,
		`{"candidates":[{"ref":"e3","description":"the sign-in button","action":"signs in"},{"ref":"e99","description":"x","action":"y"}]}`))
	defer m.Verify(t)
	cs, _ := pilotServer(t, c, m, PilotOptions{}, nil)
	got, isErr, res := callTool(t, cs, "observe", map[string]any{"question": "how do I sign in?"})
	if isErr || got != `button "Sign in" [ref=e3] — signs in` {
		t.Errorf("isErr=%v reply %q", isErr, got)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct{ Observations []pilot.Observation }
	if json.Unmarshal(b, &out) != nil || len(out.Observations) != 1 || out.Observations[0].Ref != "e3" || out.Observations[0].Action != "signs in" {
		t.Errorf("structuredContent %s", b)
	}
}

func TestPilotExtract(t *testing.T) {
	c := pageCaller()
	m := scripted.New(
		scripted.Data(pilot.PurposeExtract, `{"heading":"Sign in","greeting":"Welcome, Ann"}`),
		scripted.Data(pilot.PurposeExtract, `{"heading":1}`),
		scripted.Data(pilot.PurposeExtract, `{"heading":2}`),
	)
	defer m.Verify(t)
	cs, _ := pilotServer(t, c, m, PilotOptions{}, nil)
	schema := map[string]any{"type": "object", "properties": map[string]any{"heading": map[string]any{"type": "string"}, "greeting": map[string]any{"type": "string"}}}
	got, isErr, _ := callTool(t, cs, "extract", map[string]any{"instruction": "the heading and greeting", "schema": schema})
	var data map[string]string
	if isErr || json.Unmarshal([]byte(got), &data) != nil || data["heading"] != "Sign in" || data["greeting"] != "Welcome, Ann" {
		t.Errorf("isErr=%v reply %q", isErr, got)
	}
	got, isErr, _ = callTool(t, cs, "extract", map[string]any{"instruction": "the heading", "schema": schema})
	if !isErr || !strings.Contains(got, "does not fit the schema") {
		t.Errorf("a misfit: isErr=%v reply %q", isErr, got)
	}
	got, isErr, _ = callTool(t, cs, "extract", map[string]any{"instruction": "x", "schema": map[string]any{"type": 5}})
	if !isErr {
		t.Errorf("a bad schema: reply %q", got)
	}
}

func TestPilotRun(t *testing.T) {
	c := pageCaller()
	m := scripted.New(scripted.Data(pilot.PurposeDecide, `{"thought":"signed in","action":{"type":"done","expect":{"text_appears":"Welcome, Ann"}}}`))
	defer m.Verify(t)
	cs, _ := pilotServer(t, c, m, PilotOptions{}, nil)
	got, isErr, _ := callTool(t, cs, "run", map[string]any{"task": "sign in", "inputs": map[string]any{"email": "ann@example.com"}, "max_steps": 5, "record": true})
	if isErr || !strings.HasPrefix(got, "done (0 steps, 1 turns, 1 model calls") {
		t.Fatalf("isErr=%v reply:\n%s", isErr, got)
	}
	_, js, ok := strings.Cut(got, "\nroutine: ")
	if !ok {
		t.Fatalf("no routine:\n%s", got)
	}
	r, err := routine.Parse([]byte(js))
	if err != nil {
		t.Fatalf("routine: %v\n%s", err, js)
	}
	if r.Task != "sign in" || len(r.Variables) != 1 || r.Variables[0].Name != "email" {
		t.Errorf("routine %+v", r)
	}
}

func TestPilotErrorsAreToolErrors(t *testing.T) {
	c := pageCaller()
	m := scripted.New(
		scripted.Fail(pilot.PurposeAct, pilot.ErrKeyRefused),
		scripted.Fail(pilot.PurposeObserve, pilot.ErrRateLimited),
		scripted.Fail(pilot.PurposeDecide, pilot.ErrKeyRefused),
	)
	defer m.Verify(t)
	cs, _ := pilotServer(t, c, m, PilotOptions{}, nil)
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"act", map[string]any{"instruction": "click Sign in"}, "refused"},
		{"act", map[string]any{"instruction": "fill Email with %email%"}, "no value for %email%"},
		{"observe", map[string]any{"question": "where?"}, "rate limited"},
		{"run", map[string]any{"task": "sign in"}, "not done"},
	} {
		got, isErr, _ := callTool(t, cs, tt.tool, tt.args)
		if !isErr || !strings.Contains(got, tt.want) {
			t.Errorf("%s: isErr=%v reply %q, want an error with %q", tt.tool, isErr, got, tt.want)
		}
	}
	// A factory that fails is a tool error too.
	fail := func(context.Context, string) (*pilot.Pilot, error) {
		return nil, calls.Errorf(calls.ErrUnavailable, "start the browser", "no browser")
	}
	cs = connect(t, Options{Caller: c, Extra: []func(*sdk.Server){PilotTools(fail, nil, PilotOptions{})}})
	if got, isErr, _ := callTool(t, cs, "observe", map[string]any{"question": "x"}); !isErr || !strings.Contains(got, "hint: start the browser") {
		t.Errorf("failing factory: isErr=%v %q", isErr, got)
	}
}

const testRoutine = `{"format":"waymark.routine/1","name":"sign-in","version":1,"task":"sign in",
"variables":[{"name":"email"}],
"steps":[{"id":"s1","kind":"goto","url":"https://shop.test/login"}]}`

func TestPilotReplay(t *testing.T) {
	if _, err := routine.Parse([]byte(testRoutine)); err != nil {
		t.Fatalf("test routine: %v", err)
	}
	dir := t.TempDir()
	t.Chdir(dir) // replay reads files in the working folder only (files.go)
	file := filepath.Join(dir, "sign-in.json")
	if err := os.WriteFile(file, []byte(testRoutine), 0o644); err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(testRoutine), &obj); err != nil {
		t.Fatal(err)
	}
	ok := &replay.Result{Status: replay.StatusOK, Steps: []replay.StepResult{{Path: "steps[0]", Kind: "goto", Status: "ok"}}}
	for _, tt := range []struct {
		name string
		arg  any
	}{{"object", obj}, {"text", testRoutine}, {"file", file}} {
		t.Run(tt.name, func(t *testing.T) {
			cs, seen := pilotServer(t, &fakeCaller{}, scripted.New(), PilotOptions{Session: "s2"}, ok)
			got, isErr, _ := callTool(t, cs, "replay", map[string]any{"routine": tt.arg, "vars": map[string]any{"email": "ann@example.com", "rows": []any{1, 2}}})
			if isErr || !strings.HasPrefix(got, "ok: 1 steps, 0 model calls\nresult: {") {
				t.Fatalf("isErr=%v reply:\n%s", isErr, got)
			}
			if len(*seen) != 1 {
				t.Fatalf("replays %d", len(*seen))
			}
			s := (*seen)[0]
			if s.session != "s2" || s.r.Name != "sign-in" || s.opts.Submits != "ask" || s.opts.KeepHeals != replay.KeepAsk ||
				s.opts.Vars["email"] != "ann@example.com" || s.opts.Vars["rows"] != "[1,2]" {
				t.Errorf("replay %+v", s)
			}
		})
	}

	stopped := &replay.Result{Status: replay.StatusStopped, Cause: replay.CauseNeedsApproval, Message: `place: click "Place order" submits the form`,
		Hint: replay.CauseNeedsApproval.Hint()}
	cs, _ := pilotServer(t, &fakeCaller{}, scripted.New(), PilotOptions{}, stopped)
	got, isErr, res := callTool(t, cs, "replay", map[string]any{"routine": file})
	if !isErr || !strings.Contains(got, "needs-approval") || !strings.Contains(got, "asks the person") || strings.Contains(got, "allow_submit") {
		t.Errorf("stopped: isErr=%v reply:\n%s", isErr, got)
	}
	// The result's hint (in the text's JSON and the structured result)
	// is in the server's words too: no --allow-submit.
	if sc, _ := json.Marshal(res.StructuredContent); strings.Contains(got, "--allow-submit") || strings.Contains(string(sc), "--allow-submit") {
		t.Errorf("stopped: the CLI's flag reached the client:\n%s\n%s", got, sc)
	}
	for _, bad := range []any{"", filepath.Join(t.TempDir(), "none.json"), `{"format":"nope"}`, 5} {
		got, isErr, _ := callTool(t, cs, "replay", map[string]any{"routine": bad})
		if !isErr {
			t.Errorf("routine %v: reply %q", bad, got)
		}
	}
}

// extract with a recipe reads the list with no model call (the script
// answers the eval), and gives the rows as structuredContent.
func TestPilotExtractByARecipe(t *testing.T) {
	c := &fakeCaller{reply: func(method string, params any) (any, error) {
		if method == calls.MethodEval {
			return calls.EvalResult{Value: json.RawMessage(`{"found":true,"lang":"en","rows":[{"name":"Trail Mug","price":"£14.50"}]}`)}, nil
		}
		return nil, fmt.Errorf("unexpected %s", method)
	}}
	m := scripted.New() // no model call expected
	defer m.Verify(t)
	cs, _ := pilotServer(t, c, m, PilotOptions{}, nil)
	schema := map[string]any{"type": "object", "properties": map[string]any{"products": map[string]any{"type": "array", "items": map[string]any{"type": "object",
		"properties": map[string]any{"name": map[string]any{"type": "string"}, "price": map[string]any{"type": "number"}}}}}}
	var rec map[string]any
	json.Unmarshal([]byte(`{"format":"waymark.recipe/1","list":"products","container":"main > ul","row":"li","fields":[{"name":"name","type":"string","by":"role","select":"a"},{"name":"price","type":"number","by":"tag","select":":scope > span"}]}`), &rec)
	got, isErr, res := callTool(t, cs, "extract", map[string]any{"instruction": "every product", "schema": schema, "list": map[string]any{"recipe": rec}})
	if isErr || !strings.HasPrefix(got, `{"products":[{"name":"Trail Mug","price":14.5}]}`) {
		t.Fatalf("isErr=%v reply %q", isErr, got)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Source string
		Rows   int
		Data   struct{ Products []map[string]any }
	}
	if json.Unmarshal(sc, &out) != nil || out.Source != "recipe" || out.Rows != 1 || len(out.Data.Products) != 1 {
		t.Fatalf("structuredContent %s", sc)
	}
}

// TestNeedsModelHintFits: extract and observe with no model (the rules
// model) say, in the MCP's words, what works for them, not act's plain
// instructions.
func TestNeedsModelHintFits(t *testing.T) {
	cs, _ := pilotServer(t, pageCaller(), rules.New(), PilotOptions{}, nil)
	for _, tt := range []struct {
		tool       string
		args       map[string]any
		want, lack []string
	}{
		{"extract", map[string]any{"instruction": "the heading", "schema": map[string]any{"type": "object"}},
			[]string{"the argument list.recipe", "the sheet_read tool", "code: needs_model"}, []string{"fill X with Y", "waymark", "--recipe"}},
		{"observe", map[string]any{"question": "where is the cart?"},
			[]string{"the snapshot tool", "code: needs_model"}, []string{"fill X with Y", "waymark"}},
	} {
		got, isErr, _ := callTool(t, cs, tt.tool, tt.args)
		if !isErr {
			t.Fatalf("%s: no error: %s", tt.tool, got)
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: reply lacks %q:\n%s", tt.tool, w, got)
			}
		}
		for _, w := range tt.lack {
			if strings.Contains(got, w) {
				t.Errorf("%s: reply holds %q:\n%s", tt.tool, w, got)
			}
		}
	}
}
