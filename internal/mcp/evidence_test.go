package mcp

import (
	"context"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestConsoleAndNetworkTools: the two tools are read-only for clients,
// map to the session's calls with a bound, offer the resource types as an
// enum, and reply one line a message or request.
func TestConsoleAndNetworkTools(t *testing.T) {
	c := &fakeCaller{reply: func(method string, _ any) (any, error) {
		switch method {
		case calls.MethodConsole:
			return calls.ConsoleLog{Messages: []calls.ConsoleMessage{{Level: "error", Source: "exception", Text: "uncaught: boom", URL: "http://shop.test/app.js", Line: 3}}, Errors: 1}, nil
		case calls.MethodNetwork:
			return calls.NetworkLog{Requests: []calls.Request{
				{Method: "GET", URL: "http://shop.test/api", Type: "fetch", Status: 500, DurationMS: 4},
				{Method: "GET", URL: "http://gone.test/x.js", Type: "script", Failed: "net::ERR_NAME_NOT_RESOLVED", DurationMS: 2},
			}, Failed: 2}, nil
		}
		return nil, nil
	}}
	cs := connect(t, Options{Caller: c, Session: "s1"})
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, tool := range list.Tools {
		if tool.Name != "console" && tool.Name != "network" {
			continue
		}
		found++
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s: not marked read-only: %+v", tool.Name, tool.Annotations)
		}
	}
	if found != 2 {
		t.Fatalf("tools console and network not both listed")
	}

	out, isErr, _ := callTool(t, cs, "console", map[string]any{"errors": true})
	if isErr || out != "1 console messages (1 errors)\nerror exception: uncaught: boom (http://shop.test/app.js:3)" {
		t.Errorf("console: %q", out)
	}
	out, isErr, _ = callTool(t, cs, "network", map[string]any{"failed": true})
	if isErr || !strings.Contains(out, "GET 500 fetch http://shop.test/api (4 ms)") || !strings.Contains(out, "GET net::ERR_NAME_NOT_RESOLVED script http://gone.test/x.js") {
		t.Errorf("network: %q", out)
	}
	got := c.seen()
	if len(got) != 2 || got[0].Params != `{"errors":true,"last":50}` || got[1].Params != `{"failed":true,"last":50}` {
		t.Errorf("calls: %+v", got)
	}
}
