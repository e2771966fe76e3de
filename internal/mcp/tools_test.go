package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/rpc"
)

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestToolsMapToCalls(t *testing.T) {
	tests := []struct {
		tool   string
		args   map[string]any
		method string
		params any
	}{
		{"navigate", map[string]any{"url": "https://shop.test/"}, calls.MethodOpen, calls.OpenRequest{URL: "https://shop.test/"}},
		{"back", map[string]any{}, calls.MethodBack, struct{}{}},
		{"forward", map[string]any{}, calls.MethodForward, struct{}{}},
		{"reload", map[string]any{}, calls.MethodReload, struct{}{}},
		{"close", map[string]any{}, rpc.MethodSessionClose, struct{}{}}, // as waymark close
		{"snapshot", map[string]any{"interactive": true, "scope": "e4", "full": true, "depth": 2}, calls.MethodSnapshot,
			calls.SnapshotRequest{Interactive: true, Scope: "e4", Full: true, Depth: 2}},
		{"click", map[string]any{"target": "e3", "button": "right", "count": 2}, calls.MethodAct,
			calls.ActRequest{Kind: calls.ActClick, Target: "e3", Button: "right", Count: 2}},
		{"fill", map[string]any{"target": "label=Email", "value": "ann@example.com"}, calls.MethodAct,
			calls.ActRequest{Kind: calls.ActFill, Target: "label=Email", Value: "ann@example.com"}},
		{"type", map[string]any{"target": "e5", "value": "abc"}, calls.MethodAct, calls.ActRequest{Kind: calls.ActType, Target: "e5", Value: "abc"}},
		{"press", map[string]any{"key": "Enter"}, calls.MethodAct, calls.ActRequest{Kind: calls.ActPress, Key: "Enter"}},
		{"select", map[string]any{"target": "e6", "values": []string{"UK", "FR"}}, calls.MethodAct,
			calls.ActRequest{Kind: calls.ActSelect, Target: "e6", Values: []string{"UK", "FR"}}},
		{"check", map[string]any{"target": "e7"}, calls.MethodAct, calls.ActRequest{Kind: calls.ActCheck, Target: "e7"}},
		{"uncheck", map[string]any{"target": "e7"}, calls.MethodAct, calls.ActRequest{Kind: calls.ActUncheck, Target: "e7"}},
		{"hover", map[string]any{"target": "text=Menu"}, calls.MethodAct, calls.ActRequest{Kind: calls.ActHover, Target: "text=Menu"}},
		{"scroll", map[string]any{"direction": "down", "pixels": 300, "target": "e8"}, calls.MethodAct,
			calls.ActRequest{Kind: calls.ActScroll, Direction: "down", Pixels: 300, Target: "e8"}},
		{"upload", map[string]any{"target": "e9", "files": []string{"/tmp/a.txt"}}, calls.MethodAct,
			calls.ActRequest{Kind: calls.ActUpload, Target: "e9", Files: []string{"/tmp/a.txt"}}},
		{"drag", map[string]any{"source": "e10", "to": "e11"}, calls.MethodAct, calls.ActRequest{Kind: calls.ActDrag, Target: "e10", To: "e11"}},
		{"wait", map[string]any{"text": "Paid", "gone": "Loading", "selector": "#ok", "url": "**/done", "ms": 5, "timeout_ms": 900}, calls.MethodWait,
			calls.WaitRequest{Text: "Paid", Gone: "Loading", Selector: "#ok", URL: "**/done", MS: 5, TimeoutMS: 900}},
		{"screenshot", map[string]any{"full": true, "target": "e2"}, calls.MethodScreenshot, calls.ScreenshotRequest{Full: true, Target: "e2"}},
		{"tabs", map[string]any{"op": "switch", "index": 1}, calls.MethodTab, calls.TabRequest{Op: "switch", Index: 1}},
		{"tabs", map[string]any{"op": "new", "url": "https://shop.test/"}, calls.MethodTab, calls.TabRequest{Op: "new", URL: "https://shop.test/"}},
		// close with no index closes the current tab, as `waymark tab
		// close` does, not tab 0; an index of 0 is still tab 0.
		{"tabs", map[string]any{"op": "close"}, calls.MethodTab, calls.TabRequest{Op: "close", Index: -1}},
		{"tabs", map[string]any{"op": "close", "index": 0}, calls.MethodTab, calls.TabRequest{Op: "close", Index: 0}},
		{"dialog", map[string]any{"accept": true, "text": "Ann"}, calls.MethodDialog, calls.DialogRequest{Accept: true, Text: "Ann", Submits: "ask"}},
		{"eval", map[string]any{"expression": "1+1"}, calls.MethodEval, calls.EvalRequest{Expression: "1+1"}},
	}
	for _, tt := range tests {
		t.Run(tt.tool+"/"+tt.method, func(t *testing.T) {
			c := &fakeCaller{}
			cs := connect(t, Options{Caller: c, Session: "s1", AllowEval: true})
			_, isErr, _ := callTool(t, cs, tt.tool, tt.args)
			if isErr {
				t.Fatalf("tool error")
			}
			got := c.seen()
			if len(got) == 0 {
				t.Fatal("no call made")
			}
			if req, ok := tt.params.(calls.ActRequest); ok {
				req.Submits = "ask" // the MCP tools ask before a submit
				tt.params = req
			}
			want := fakeCall{Session: "s1", Method: tt.method, Params: mustJSON(t, tt.params)}
			if tt.method == calls.MethodSnapshot {
				// A look names its reader, this server's client.
				var req calls.SnapshotRequest
				if err := json.Unmarshal([]byte(got[0].Params), &req); err != nil || !strings.HasPrefix(req.Reader, "mcp:") {
					t.Fatalf("snapshot params %s: no reader", got[0].Params)
				}
				req.Reader = ""
				got[0].Params = mustJSON(t, req)
			}
			if tt.method == calls.MethodAct {
				// So does an action: its reader's next look leaves out
				// what it filled.
				var req calls.ActRequest
				if err := json.Unmarshal([]byte(got[0].Params), &req); err != nil || !strings.HasPrefix(req.Reader, "mcp:") {
					t.Fatalf("act params %s: no reader", got[0].Params)
				}
				req.Reader = ""
				got[0].Params = mustJSON(t, req)
			}
			if d := cmp.Diff(want, got[0]); d != "" {
				t.Errorf("first call (-want +got):\n%s", d)
			}
		})
	}
}

func TestActionsLookAfter(t *testing.T) {
	c := &fakeCaller{}
	cs := connect(t, Options{Caller: c})
	callTool(t, cs, "click", map[string]any{"target": "e1"})
	var methods []string
	for _, call := range c.seen() {
		methods = append(methods, call.Method)
		// A server given no session gives its client one of its own.
		if !strings.HasPrefix(call.Session, "mcp-") || call.Session != c.seen()[0].Session {
			t.Errorf("session %q, want the client's own mcp-…", call.Session)
		}
	}
	if want := []string{calls.MethodAct, calls.MethodSnapshot}; !slices.Equal(methods, want) {
		t.Errorf("calls %v, want %v", methods, want)
	}
	// The look after an action asks the driver for the changes since
	// this client's last look.
	var look calls.SnapshotRequest
	if err := json.Unmarshal([]byte(c.seen()[1].Params), &look); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(look.Reader, "mcp:") || look != (calls.SnapshotRequest{Interactive: true, Changes: true, Reader: look.Reader}) {
		t.Errorf("look %+v, want an interactive look of the changes for an mcp: reader", look)
	}
}

func TestToolList(t *testing.T) {
	base := []string{"back", "check", "click", "close", "console", "dialog", "drag", "fill", "form", "form_fill", "forward", "hover", "navigate", "network",
		"press", "reload", "screenshot", "scroll", "select", "snapshot", "tabs", "type", "uncheck", "upload", "wait"}
	for _, allow := range []bool{false, true} {
		cs := connect(t, Options{Caller: &fakeCaller{}, AllowEval: allow})
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			if tool.Description == "" {
				t.Errorf("%s has no description", tool.Name)
			}
		}
		slices.Sort(names)
		want := slices.Clone(base)
		if allow {
			want = append(want, "eval")
			slices.Sort(want)
		}
		if d := cmp.Diff(want, names); d != "" {
			t.Errorf("allow_eval=%v tools (-want +got):\n%s", allow, d)
		}
	}
}

// TestArgumentErrors: arguments that do not fit a tool are refused before
// any call, as a bad_input tool error in the tool's words (which argument,
// what it takes), never the SDK validator's text.
func TestArgumentErrors(t *testing.T) {
	c := &fakeCaller{}
	cs := connect(t, Options{Caller: c})
	for _, tt := range []struct {
		name, tool string
		args       map[string]any
		want       []string
	}{
		{"missing", "click", map[string]any{}, []string{"click needs the argument target, or at", "call click with target (a ref such as e12, or a locator), or at"}},
		{"both", "click", map[string]any{"target": "e1", "at": "1,2"}, []string{"click takes a target or a point (at), not both"}},
		{"wrong type", "click", map[string]any{"target": 12}, []string{"click's argument target is string, not integer"}},
		{"wrong type in a list", "select", map[string]any{"target": "e1", "values": "UK"}, []string{"select's argument values is array, not string"}},
		{"unknown", "navigate", map[string]any{"url": "https://shop.test/", "wait": true}, []string{`navigate has no argument "wait"`, "call navigate with url (string, required)"}},
		{"switch to no tab", "tabs", map[string]any{"op": "switch"}, []string{"tabs switch needs the argument index", "call tabs with op list"}},
		{"nothing to wait for", "wait", map[string]any{"timeout_ms": 500}, []string{"wait needs one of the arguments text, gone, selector, url or ms", "call wait with text"}},
		{"not in the enum", "scroll", map[string]any{"direction": "sideways"}, []string{"scroll's argument direction is one of up, down, left, right, into-view, not \"sideways\""}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text, isErr, _ := callTool(t, cs, tt.tool, tt.args)
			if !isErr {
				t.Fatalf("no tool error: %s", text)
			}
			for _, w := range append(tt.want, "code: bad_input") {
				if !strings.Contains(text, w) {
					t.Errorf("error lacks %q:\n%s", w, text)
				}
			}
			for _, raw := range []string{"validating", "missing properties", "validating root"} {
				if strings.Contains(text, raw) {
					t.Errorf("the validator's own words %q reach the agent:\n%s", raw, text)
				}
			}
		})
	}
	if n := len(c.seen()); n != 0 {
		t.Errorf("%d calls made for arguments that do not fit", n)
	}
}

func TestExtraTools(t *testing.T) {
	called := false
	cs := connect(t, Options{Caller: &fakeCaller{}, Extra: []func(*sdk.Server){func(s *sdk.Server) {
		called = true
		add(s, "act", "Do what words say.", func(ctx context.Context, _ *sdk.CallToolRequest, in struct {
			Do string `json:"do"`
		}) (string, struct{}, error) {
			return "did " + in.Do, struct{}{}, nil
		})
	}}})
	if !called {
		t.Fatal("Extra not called")
	}
	if got, _, _ := callTool(t, cs, "act", map[string]any{"do": "x"}); got != "did x" {
		t.Errorf("act = %q", got)
	}
}
