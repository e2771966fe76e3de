package main_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/internal/browsertest"
)

// TestQuickStart follows the README's first steps as a new user takes
// them, with this checkout's binary and the demo shop on loopback: the
// commands of "Use"; recording after `open` (the natural order) and
// replaying the routine in a new session with no model; a test plan of
// one's own; and an MCP client reading structured output.
func TestQuickStart(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "quickstart")
	c.dir = t.TempDir()
	site, base := demoSite(t)
	s := []string{"--session", "qs"}
	defer c.run(append(s, "close")...)

	// Use.
	c.ok(append(s, "open", base+"/products/1")...)
	out := c.ok(append(s, "snapshot", "-i")...)
	c.ok(append(s, "fill", refOn(t, out, "spinbutton", "Quantity"), "2")...)
	if got := c.ok(append(s, "get", "text", `role=heading[name="Trail Mug"]`)...); !strings.Contains(got, "Trail Mug") {
		t.Errorf("get text of the heading: %q", got)
	}
	shot := strings.TrimSpace(c.ok(append(s, "screenshot")...))
	if fi, err := os.Stat(lastField(shot)); err != nil || fi.Size() == 0 {
		t.Errorf("screenshot says %q: %v", shot, err)
	}
	var url struct{ Value string }
	c.jsonData(&url, append(s, "get", "url")...)
	if !strings.HasSuffix(url.Value, "/products/1") {
		t.Errorf("--json get url: %+v", url)
	}

	// Record after open, replay in a new session with no model.
	rec := c.run(append(s, "record", "start")...)
	if rec.code != 0 || !strings.Contains(rec.stdout+rec.stderr, "/products/1") {
		t.Fatalf("record start after open: exit %d, it does not say it records from the page it is on:\n%s%s", rec.code, rec.stdout, rec.stderr)
	}
	c.ok(append(s, "click", `role=button[name="Add to cart"]`)...)
	c.ok(append(s, "record", "stop", "mug.json")...)
	before := len(site.Sessions())
	r := c.run("--session", "fresh", "--json", "replay", "mug.json")
	c.run("--session", "fresh", "close")
	if r.code != 0 {
		t.Fatalf("replay in a new session: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	carts := 0
	for _, sid := range site.Sessions()[before:] {
		if len(site.Session(sid).Cart) > 0 {
			carts++
		}
	}
	if carts != 1 {
		t.Errorf("the replay filled %d carts on the shop, want 1", carts)
	}

	// A plan of one's own, with a label of two words.
	plan := `name: quick start
scenarios:
  - name: add a mug
    steps:
      - open /products/1
      - fill "label=Quantity" 3
      - click role=button[name="Add to cart"]
      - expect text Cart (3)
`
	if err := os.WriteFile(filepath.Join(c.dir, "plan.yaml"), []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	p := c.run("--session", "plan", "test", "plan.yaml", "--base-url", base)
	c.run("--session", "plan", "close")
	if p.code != 0 || !strings.Contains(p.stdout, "report.html") {
		t.Errorf("test plan.yaml: exit %d, no report.html named:\n%s%s", p.code, p.stdout, p.stderr)
	}

	// An MCP client: structured output, not JSON as text.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.Command(binPath, "mcp")
	cmd.Env = append(os.Environ(), "WAYMARK_SOCKET="+c.socket, "WAYMARK_BROWSER_ARGS="+strings.Join(browsertest.GuardArgs, "\n"))
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "quickstart", Version: "v0"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"navigate", map[string]any{"url": base + "/checkout"}},
		{"snapshot", map[string]any{}},
		{"form", map[string]any{}},
		{"tabs", map[string]any{"op": "list"}},
	} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: call.tool, Arguments: call.args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", call.tool, err, res)
		}
		if b, _ := json.Marshal(res.StructuredContent); res.StructuredContent == nil || string(b) == "null" {
			t.Errorf("%s answers with no structuredContent", call.tool)
		}
	}
}

// lastField is the last word of a line (a path a command printed).
func lastField(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}
