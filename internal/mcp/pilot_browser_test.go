package mcp

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// resultText joins a result's text contents.
func resultText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// browserServer serves the demo site and connects an MCP client to a
// server over a real Chromium, with the pilot tools on the rules model;
// the client asks p (nil: a client that cannot ask).
func browserServer(t *testing.T, session string, p *person) (*sdk.ClientSession, string, func(name string, args map[string]any) *sdk.CallToolResult) {
	t.Helper()
	site := httptest.NewServer(demo.New(nil))
	t.Cleanup(site.Close)
	m := sessions.NewShared(drivertest.Driver(t))
	t.Cleanup(func() { m.Close() })
	caller := m
	newPilot := func(_ context.Context, s string) (*pilot.Pilot, error) {
		return pilot.New(calls.Remote{Caller: caller, Session: s}, rules.New(), nil), nil
	}
	replayer := func(ctx context.Context, s string, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		return replay.Run(ctx, calls.Remote{Caller: caller, Session: s}, r, o)
	}
	var copts *sdk.ClientOptions
	if p != nil {
		copts = p.options()
	}
	cs := connectClient(t, Options{Caller: caller, Session: session,
		Extra: []func(*sdk.Server){PilotTools(newPilot, replayer, PilotOptions{Session: session, ActOnly: true})}}, copts, "")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	call := func(name string, args map[string]any) *sdk.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	return cs, site.URL, call
}

// mustOK fails the test on a tool error and returns the text.
func mustOK(t *testing.T, name string, res *sdk.CallToolResult) string {
	t.Helper()
	text := resultText(res)
	if res.IsError {
		t.Fatalf("%s: tool error:\n%s", name, text)
	}
	return text
}

// TestBrowserPilotAct signs in to the demo site with act and the rules
// model: fill, fill a %name% value, and a click on Sign in that the person
// is asked about (the password masked), then goes ahead.
func TestBrowserPilotAct(t *testing.T) {
	p := &person{answer: "accept"}
	_, site, call := browserServer(t, "mcp-act", p)
	mustOK(t, "navigate", call("navigate", map[string]any{"url": site + "/login"}))

	got := mustOK(t, "act", call("act", map[string]any{"instruction": "fill Email with ann@example.com"}))
	t.Logf("act reply:\n%s", got)
	if !strings.Contains(got, ": done") || !strings.Contains(got, `element: textbox "Email"`) || !strings.Contains(got, "locator: ") {
		t.Errorf("act reply:\n%s", got)
	}
	// Like click, act answers with the changes since the last look (the
	// navigate's outline).
	if !strings.Contains(got, "[changes since your last look]") || !strings.Contains(got, `value="ann@example.com"`) {
		t.Errorf("act reply lacks the page's changes:\n%s", got)
	}
	snap := mustOK(t, "snapshot", call("snapshot", map[string]any{"interactive": true}))
	if !strings.Contains(snap, `textbox "Email"`) || !strings.Contains(snap, `value="ann@example.com"`) {
		t.Fatalf("the field was not filled:\n%s", snap)
	}

	mustOK(t, "act", call("act", map[string]any{"instruction": "fill Password with %pw%", "vars": map[string]any{"pw": demo.DemoPassword}}))
	got = mustOK(t, "act approved", call("act", map[string]any{"instruction": "click the Sign in button"}))
	if len(p.asked) != 1 || !strings.Contains(p.asked[0], "Sign in") || strings.Contains(p.asked[0], demo.DemoPassword) {
		t.Errorf("the person was asked %q", p.asked)
	}
	t.Logf("asked:\n%s", p.asked[0])
	if !strings.Contains(got, "/account") {
		t.Errorf("signed in? reply:\n%s", got)
	}
}

// TestBrowserApprovalCheckout: Place order on the demo checkout is put to
// the person; declined, nothing is pressed; accepted while the form
// changed under it, nothing is pressed; accepted, the order is placed.
// A client that cannot ask presses nothing.
func TestBrowserApprovalCheckout(t *testing.T) {
	p := &person{answer: "decline"}
	cs, site, call := browserServer(t, "mcp-approve", p)
	mustOK(t, "navigate", call("navigate", map[string]any{"url": site + "/checkout"}))
	for _, step := range []struct {
		tool string
		args map[string]any
	}{
		{"fill", map[string]any{"target": "label=Full name", "value": "Ann Example"}},
		{"fill", map[string]any{"target": "label=Email", "value": "ann@example.com"}},
		{"fill", map[string]any{"target": "label=Account password", "value": "correct-horse"}},
		{"select", map[string]any{"target": "label=Country", "values": []string{"Germany"}}},
		{"check", map[string]any{"target": "css=input[value=standard]"}},
		{"check", map[string]any{"target": "css=#terms"}},
	} {
		mustOK(t, step.tool, call(step.tool, step.args))
	}
	place := map[string]any{"target": `role=button[name="Place order"]`}
	res := call("click", place)
	if text := resultText(res); !res.IsError || !strings.Contains(text, "declined") {
		t.Fatalf("declined: isError=%v\n%s", res.IsError, text)
	}
	if len(p.asked) != 1 || !strings.Contains(p.asked[0], "Place order") || !strings.Contains(p.asked[0], "ann@example.com") ||
		strings.Contains(p.asked[0], "correct-horse") {
		t.Errorf("the person was asked %q", p.asked)
	}
	t.Logf("asked:\n%s", p.asked[0])
	if snap := mustOK(t, "snapshot", call("snapshot", nil)); !strings.Contains(snap, "Place order") {
		t.Fatalf("nothing should have been pressed:\n%s", snap)
	}

	// The form changes while the person is asked: their yes was for the
	// form they saw.
	p.answer = "accept"
	var changeErr error
	p.before = func() {
		p.before = nil
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "fill", Arguments: map[string]any{"target": "label=Full name", "value": "Bob Example"}})
		if err == nil && res.IsError {
			err = errors.New(resultText(res))
		}
		changeErr = err
	}
	res = call("click", place)
	if changeErr != nil {
		t.Fatalf("changing the form: %v", changeErr)
	}
	if text := resultText(res); !res.IsError || !strings.Contains(text, "changed since the approval") {
		t.Fatalf("a stale approval: isError=%v\n%s", res.IsError, text)
	}

	got := mustOK(t, "click approved", call("click", place))
	t.Logf("approved reply:\n%s", got)
	if !strings.Contains(got, "/orders/WM-") {
		t.Errorf("the order was not placed:\n%s", got)
	}
}
