package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

var placeOrder = calls.Approval{Action: "click", URL: "https://shop.test/checkout", Control: `button[type=submit] "Place order"`,
	Why: "submits the form", Form: map[string]string{"email": "ann@example.com", "password": "••••"}, Token: "t1"}

// gatedCaller answers like a page whose element actions need approval:
// an act that would submit without an approval fails with placeOrder.
func gatedCaller() *fakeCaller {
	data, _ := json.Marshal(placeOrder)
	return &fakeCaller{reply: func(method string, params any) (any, error) {
		switch method {
		case calls.MethodAct:
			if req := params.(calls.ActRequest); req.Approve == nil && req.Submits == "ask" {
				return nil, &calls.Error{Kind: calls.ErrNeedsApproval, Msg: placeOrder.Line() + ", so it needs approval; nothing was pressed",
					Hint: "review it, then run the command again with --allow-submit (in place of --ask-submit if you passed it)", Data: data}
			}
			return calls.Outcome{URL: "https://shop.test/orders/1", Title: "Thanks", Navigated: true}, nil
		case calls.MethodSnapshot:
			return calls.Snapshot{URL: "https://shop.test/orders/1", Text: "[page] Thanks"}, nil
		}
		return nil, nil
	}}
}

// person is an MCP client's person: it answers each elicitation with
// answer and keeps the messages it was shown.
type person struct {
	answer string // accept, decline, cancel; error: the client answers with an error
	before func() // if set, called before each answer (the page may change meanwhile)
	mu     sync.Mutex
	asked  []string
}

func (p *person) options() *sdk.ClientOptions {
	return &sdk.ClientOptions{ElicitationHandler: func(_ context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		p.mu.Lock()
		p.asked = append(p.asked, r.Params.Message)
		p.mu.Unlock()
		if p.before != nil {
			p.before()
		}
		if p.answer == "error" { // the client could not ask, or gave up waiting
			return nil, errors.New("elicitation timed out")
		}
		res := &sdk.ElicitResult{Action: p.answer}
		if p.answer == "accept" {
			res.Content = map[string]any{}
		}
		return res, nil
	}}
}

// protocols are the two ways a client is asked: on 2026-07-28 the tool
// returns an input request and the client calls again; before, the
// server asks the client while the call waits.
var protocols = []string{"", "2025-06-18"}

// TestApprovalAskedOfPerson: a click or key that would submit is put to
// the person through elicitation; it is pressed with the approval only if
// they accept, and not at all if they decline or dismiss it.
func TestApprovalAskedOfPerson(t *testing.T) {
	for _, version := range protocols {
		for _, answer := range []string{"accept", "decline", "cancel"} {
			for _, tool := range []struct {
				name string
				args map[string]any
			}{
				{"click", map[string]any{"target": "e4"}},
				{"press", map[string]any{"key": "Enter", "target": "e2"}},
			} {
				t.Run(version+"/"+answer+"/"+tool.name, func(t *testing.T) {
					c := gatedCaller()
					p := &person{answer: answer}
					cs := connectClient(t, Options{Caller: c}, p.options(), version)
					got, isErr, _ := callTool(t, cs, tool.name, tool.args)
					if len(p.asked) != 1 || !strings.HasPrefix(p.asked[0], `An agent asks to click button[type=submit] "Place order" on https://shop.test/checkout: it submits the form.`+"\n") ||
						!strings.Contains(p.asked[0], "email: ann@example.com") {
						t.Fatalf("the person was asked %q", p.asked)
					}
					acts := actsSeen(t, c)
					if answer != "accept" {
						if !isErr || !strings.Contains(got, "nothing was pressed") || len(acts) != 1 {
							t.Errorf("%s: isErr=%v acts %d reply:\n%s", answer, isErr, len(acts), got)
						}
						return
					}
					if isErr || len(acts) != 2 {
						t.Fatalf("accepted: isErr=%v acts %+v reply:\n%s", isErr, acts, got)
					}
					if a := acts[1]; a.Submits != "ask" || a.Approve == nil || mustJSON(t, *a.Approve) != mustJSON(t, placeOrder) {
						t.Errorf("approved request %+v", a)
					}
				})
			}
		}
	}
}

// TestApprovalWithoutElicitation: a client that cannot ask its person gets
// [mcp] submits: "ask" refuses with nothing pressed, and says so without
// offering the agent a way to approve; "allow" lets it through.
func TestApprovalWithoutElicitation(t *testing.T) {
	c := gatedCaller()
	cs := connect(t, Options{Caller: c})
	got, isErr, _ := callTool(t, cs, "click", map[string]any{"target": "e4"})
	if !isErr || !strings.Contains(got, "cannot ask") || !strings.Contains(got, `[mcp] submits = "allow"`) ||
		strings.Contains(got, "approve set") || strings.Contains(got, "allow-submit") || len(actsSeen(t, c)) != 1 ||
		strings.Count(got, placeOrder.Line()) != 1 || !strings.Contains(got, "email: ann@example.com") {
		t.Errorf("isErr=%v acts %d reply:\n%s", isErr, len(actsSeen(t, c)), got)
	}

	c = gatedCaller()
	cs = connect(t, Options{Caller: c, Submits: SubmitsAllow})
	if got, isErr, _ := callTool(t, cs, "click", map[string]any{"target": "e4"}); isErr {
		t.Fatalf("allow: %s", got)
	}
	if acts := actsSeen(t, c); len(acts) != 1 || acts[0].Submits != "allow" || acts[0].Approve != nil {
		t.Errorf("allow: acts %+v", acts)
	}
}

// TestAgentCannotApprove: the agent has no argument to approve with, and
// a request state it makes up (or one already used) presses nothing.
func TestAgentCannotApprove(t *testing.T) {
	c := gatedCaller()
	cs := connect(t, Options{Caller: c})
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "click", Arguments: map[string]any{"target": "e4", "approve": placeOrder}})
	if err == nil && !res.IsError {
		t.Errorf("click with an approve argument was accepted")
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		if strings.Contains(string(b), `"approve"`) || strings.Contains(string(b), `"allow_submit"`) {
			t.Errorf("tool %s takes an approval from the agent: %s", tool.Name, b)
		}
	}
	// A made-up request state with an "accept" beside it.
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "click", Arguments: map[string]any{"target": "e4"},
		RequestState: "0123456789abcdef", InputResponses: sdk.InputResponseMap{approvalInput: &sdk.ElicitResult{Action: "accept", Content: map[string]any{}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(res); !res.IsError || !strings.Contains(got, "unknown, used or expired") {
		t.Errorf("forged answer: isErr=%v %s", res.IsError, got)
	}
	for _, a := range actsSeen(t, c) {
		if a.Approve != nil || a.Submits != "ask" {
			t.Errorf("pressed with %+v", a)
		}
	}
}

// TestPilotActAsksPerson: act's submit goes to the person too.
func TestPilotActAsksPerson(t *testing.T) {
	c := gatedCaller()
	inner := c.reply
	c.reply = func(method string, params any) (any, error) {
		if method == calls.MethodSnapshot {
			return calls.Snapshot{URL: "https://shop.test/checkout", Text: `- button "Place order" [ref=e3]`}, nil
		}
		if method == calls.MethodLocate {
			return calls.Evidence{Ref: "e3", Chosen: `role=button[name="Place order"]`}, nil
		}
		return inner(method, params)
	}
	m := scripted.New(
		scripted.Data(pilot.PurposeAct, `{"action":"click","ref":"e3"}`),
		scripted.Data(pilot.PurposeAct, `{"action":"click","ref":"e3"}`),
	)
	p := &person{answer: "accept"}
	newPilot := func(_ context.Context, session string) (*pilot.Pilot, error) {
		return pilot.New(calls.Remote{Caller: c, Session: session}, m, nil), nil
	}
	cs := connectClient(t, Options{Caller: c, Extra: []func(*sdk.Server){PilotTools(newPilot, nil, PilotOptions{})}}, p.options(), "")
	got, isErr, _ := callTool(t, cs, "act", map[string]any{"instruction": "click Place order"})
	if isErr || len(p.asked) != 1 {
		t.Fatalf("isErr=%v asked %q reply:\n%s", isErr, p.asked, got)
	}
	acts := actsSeen(t, c)
	if len(acts) != 2 || acts[0].Approve != nil || acts[1].Approve == nil || acts[1].Approve.Token != placeOrder.Token {
		t.Errorf("acts %+v", acts)
	}
}

// TestReplayAsksPersonMidway: a replay's submit is put to the person as
// the replay reaches it, where the client can be asked mid-call (before
// the 2026-07-28 protocol); on that protocol the replay goes by
// [Options.Submits].
func TestReplayAsksPersonMidway(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // replay reads files in the working folder only (files.go)
	file := filepath.Join(dir, "r.json")
	if err := os.WriteFile(file, []byte(`{"format":"waymark.routine/1","name":"r","version":1,"steps":[{"kind":"goto","url":"http://shop.test/"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		version string
		answer  string
		want    string // what the replay's Approve said: yes, no, or none (not set)
	}{
		{"2025-06-18", "accept", "yes"},
		{"2025-06-18", "decline", "no"},
		{"", "accept", "none"},
	} {
		t.Run(tt.version+"/"+tt.answer, func(t *testing.T) {
			got := ""
			replayer := func(ctx context.Context, _ string, _ *routine.Routine, o replay.Options) (*replay.Result, error) {
				got = "none"
				if o.Approve != nil {
					yes, err := o.Approve(ctx, "place", placeOrder)
					if err != nil {
						return nil, err
					}
					got = map[bool]string{true: "yes", false: "no"}[yes]
				}
				return &replay.Result{Status: replay.StatusOK}, nil
			}
			p := &person{answer: tt.answer}
			cs := connectClient(t, Options{Caller: &fakeCaller{}, Extra: []func(*sdk.Server){PilotTools(nil, replayer, PilotOptions{})}}, p.options(), tt.version)
			if res, isErr, _ := callTool(t, cs, "replay", map[string]any{"routine": file}); isErr {
				t.Fatalf("replay: %s", res)
			}
			if got != tt.want {
				t.Errorf("Approve said %q, want %q", got, tt.want)
			}
			if tt.want != "none" && (len(p.asked) != 1 || !strings.Contains(p.asked[0], "A replay asks to click") || !strings.Contains(p.asked[0], "step place")) {
				t.Errorf("asked %q", p.asked)
			}
		})
	}
}

// TestRunAsksPersonMidway: a submit the agent loop would press is put to
// the person as it comes (a client that can be asked mid-call), and
// pressed with the page's approval when they accept.
func TestRunAsksPersonMidway(t *testing.T) {
	data, _ := json.Marshal(placeOrder)
	c := pageCaller()
	page := c.reply
	c.reply = func(method string, params any) (any, error) {
		if req, ok := params.(calls.ActRequest); ok && method == calls.MethodAct && req.Approve == nil && req.Submits == "ask" {
			return nil, &calls.Error{Kind: calls.ErrNeedsApproval, Msg: "it needs approval; nothing was pressed", Data: data}
		}
		return page(method, params)
	}
	m := scripted.New(
		scripted.Data(pilot.PurposeDecide, `{"thought":"sign in","action":{"type":"click","ref":"e3","expect":{"text_appears":"Welcome, Ann"}}}`),
		scripted.Data(pilot.PurposeDecide, `{"thought":"signed in","action":{"type":"done","expect":{"text_appears":"Welcome, Ann"}}}`),
	)
	defer m.Verify(t)
	p := &person{answer: "accept"}
	newPilot := func(_ context.Context, session string) (*pilot.Pilot, error) {
		return pilot.New(calls.Remote{Caller: c, Session: session}, m, nil), nil
	}
	cs := connectClient(t, Options{Caller: c, Extra: []func(*sdk.Server){PilotTools(newPilot, nil, PilotOptions{})}}, p.options(), "2025-06-18")
	got, isErr, _ := callTool(t, cs, "run", map[string]any{"task": "sign in"})
	if isErr || !strings.HasPrefix(got, "done") {
		t.Fatalf("isErr=%v reply:\n%s", isErr, got)
	}
	// The run's question is the one every front asks: the step, the page,
	// why ("…: it submits the form", not "…: submits the form") and the form.
	if len(p.asked) != 1 || p.asked[0] != "An agent's run asks to "+placeOrder.Describe()+"\nGo ahead? (y/N)" ||
		!strings.HasPrefix(p.asked[0], `An agent's run asks to click button[type=submit] "Place order" on https://shop.test/checkout: it submits the form.`) {
		t.Errorf("asked %q", p.asked)
	}
	acts := actsSeen(t, c)
	if len(acts) != 2 || acts[1].Approve == nil || acts[1].Approve.Token != placeOrder.Token {
		t.Errorf("acts %+v", acts)
	}
}

// TestApprovalQuestionFails: a client that can elicit but answers the
// approval question with an error (its person could not be asked, or it
// gave up waiting) gets what a client without elicitation gets: a tool
// error with code needs_approval, nothing pressed, not a JSON-RPC error.
// On the 2026-07-28 protocol the client asks; one that calls again
// without the person's answer gets the same.
func TestApprovalQuestionFails(t *testing.T) {
	check := func(t *testing.T, c *fakeCaller, got string, isErr bool) {
		t.Helper()
		if !isErr || !strings.Contains(got, "code: needs_approval") || !strings.Contains(got, "nothing was pressed") ||
			!strings.Contains(got, "could not answer") || strings.Count(got, placeOrder.Line()) != 1 {
			t.Errorf("isErr=%v reply:\n%s", isErr, got)
		}
		for _, a := range actsSeen(t, c) {
			if a.Approve != nil || a.Submits != SubmitsAsk {
				t.Errorf("pressed with %+v", a)
			}
		}
	}
	for _, tool := range []struct {
		name string
		args map[string]any
	}{
		{"click", map[string]any{"target": "e4"}},
		{"press", map[string]any{"key": "Enter", "target": "e2"}},
	} {
		t.Run("2025-06-18/"+tool.name, func(t *testing.T) {
			c := gatedCaller()
			p := &person{answer: "error"}
			cs := connectClient(t, Options{Caller: c}, p.options(), "2025-06-18")
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool.name, Arguments: tool.args})
			if err != nil {
				t.Fatalf("a JSON-RPC error, not a tool result: %v", err)
			}
			check(t, c, resultText(res), res.IsError)
			if len(p.asked) != 1 {
				t.Errorf("asked %q", p.asked)
			}
		})
	}
	t.Run("no answer", func(t *testing.T) {
		c := gatedCaller()
		cs := connectClient(t, Options{Caller: c}, &sdk.ClientOptions{MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true},
			ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
				return nil, errors.New("not asked")
			}}, "")
		args := map[string]any{"target": "e4"}
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "click", Arguments: args})
		if err != nil || res.RequestState == "" {
			t.Fatalf("no question: %v %+v", err, res)
		}
		res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "click", Arguments: args, RequestState: res.RequestState})
		if err != nil {
			t.Fatal(err)
		}
		check(t, c, resultText(res), res.IsError)
	})
}

// TestMidwayQuestionFails: a run's or a replay's question that the client
// answers with an error stops with needs_approval, nothing pressed, and
// says the person could not answer; the client's error is not the run's.
func TestMidwayQuestionFails(t *testing.T) {
	t.Run("run", func(t *testing.T) {
		data, _ := json.Marshal(placeOrder)
		c := pageCaller()
		page := c.reply
		c.reply = func(method string, params any) (any, error) {
			if req, ok := params.(calls.ActRequest); ok && method == calls.MethodAct && req.Approve == nil && req.Submits == "ask" {
				return nil, &calls.Error{Kind: calls.ErrNeedsApproval, Msg: "it needs approval; nothing was pressed", Data: data}
			}
			return page(method, params)
		}
		m := scripted.New(
			scripted.Data(pilot.PurposeDecide, `{"thought":"sign in","action":{"type":"click","ref":"e3","expect":{"text_appears":"Welcome, Ann"}}}`),
		)
		p := &person{answer: "error"}
		newPilot := func(_ context.Context, session string) (*pilot.Pilot, error) {
			return pilot.New(calls.Remote{Caller: c, Session: session}, m, nil), nil
		}
		cs := connectClient(t, Options{Caller: c, Extra: []func(*sdk.Server){PilotTools(newPilot, nil, PilotOptions{})}}, p.options(), "2025-06-18")
		got, isErr, _ := callTool(t, cs, "run", map[string]any{"task": "sign in"})
		if !isErr || len(p.asked) != 1 || !strings.Contains(got, "could not answer") || !strings.Contains(got, "code: needs_approval") {
			t.Errorf("isErr=%v asked %d reply:\n%s", isErr, len(p.asked), got)
		}
		for _, a := range actsSeen(t, c) {
			if a.Approve != nil {
				t.Errorf("pressed with %+v", a)
			}
		}
	})
	t.Run("replay", func(t *testing.T) {
		var aerr error
		replayer := func(ctx context.Context, _ string, _ *routine.Routine, o replay.Options) (*replay.Result, error) {
			_, aerr = o.Approve(ctx, "place", placeOrder)
			return &replay.Result{Status: replay.StatusOK}, nil
		}
		cs := connectClient(t, Options{Caller: &fakeCaller{}, Extra: []func(*sdk.Server){PilotTools(nil, replayer, PilotOptions{})}},
			(&person{answer: "error"}).options(), "2025-06-18")
		if res, isErr, _ := callTool(t, cs, "replay", map[string]any{"routine": routineFile(t)}); isErr {
			t.Fatalf("replay: %s", res)
		}
		if !errors.Is(aerr, calls.ErrNeedsApproval) || !strings.Contains(aerr.Error(), "could not answer") {
			t.Errorf("Approve's error: %v", aerr)
		}
	})
}
