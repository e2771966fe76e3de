package driver_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestPageToolCalls: a tool is called and answers whichever way the
// browser offers (WebMCP.invokeTool, or navigator.modelContextTesting
// from our isolated world in Chromium 148, whose domain has no
// invokeTool): its input arrives, an object answer is JSON, a string one
// a JSON string, a throw is the page's failure, and a tool that never
// answers ends at the timeout (and is aborted). No script of
// ours is left in the page's world.
func TestPageToolCalls(t *testing.T) {
	t.Parallel()
	srv := serve(t, map[string]string{"/": `<title>Calls</title><p id="s">no tools</p><script>
const mc = document.modelContext || navigator.modelContext;
if (mc) {
  mc.registerTool({name: "echo", description: "Echo", inputSchema: {type: "object"}, execute: async (args) => ({got: args})});
  mc.registerTool({name: "plain", description: "Plain", inputSchema: {type: "object"}, execute: () => "just words"});
  mc.registerTool({name: "fail", description: "Fails", inputSchema: {type: "object"}, execute: async () => { throw new Error("boom") }});
  mc.registerTool({name: "hang", description: "Hangs", inputSchema: {type: "object"}, execute: () => new Promise(() => {})});
  document.getElementById("s").textContent = "4 tools";
}
</script>`})
	s, ctx := newSession(t)
	open(t, s, ctx, srv.URL+"/")
	if got := getText(t, s, ctx, "css=#s"); got != "4 tools" {
		t.Fatalf("the page says %q: the browser did not take its tools", got)
	}
	before := evalMain(t, s, ctx)
	res, err := s.PageTool(ctx, calls.PageToolRequest{Name: "echo", Args: json.RawMessage(`{"query":"lamp"}`)})
	if err != nil {
		t.Fatal(err)
	}
	var echo struct {
		Got map[string]string `json:"got"`
	}
	if err := json.Unmarshal(res.Output, &echo); err != nil || echo.Got["query"] != "lamp" {
		t.Errorf("echo answered %s (%v)", res.Output, err)
	}
	res, err = s.PageTool(ctx, calls.PageToolRequest{Name: "plain"})
	if err != nil || string(res.Output) != `"just words"` {
		t.Errorf("plain: %v %v", res, err)
	}
	if _, err := s.PageTool(ctx, calls.PageToolRequest{Name: "fail"}); !errors.Is(err, calls.ErrJavaScript) {
		t.Errorf("a tool that throws: %v, want a JavaScript error", err)
	}
	if _, err := s.PageTool(ctx, calls.PageToolRequest{Name: "hang", TimeoutMS: 300}); !errors.Is(err, calls.ErrTimeout) {
		t.Errorf("a tool that never answers: %v, want a timeout", err)
	}
	// The page still answers, and our calls left nothing in its world.
	if after := evalMain(t, s, ctx); after != before || strings.Contains(after, "waymark") {
		t.Errorf("the page's world changed:\nbefore %s\nafter  %s", before, after)
	}
}
