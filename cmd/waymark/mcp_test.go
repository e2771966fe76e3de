package main_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/internal/browsertest"
)

// TestMCPClientLeaves runs `waymark mcp` as an MCP client starts it (the
// Go SDK's command transport): a page opened through it lives in a session
// of the client's own, which `waymark session list` shows; once the client
// hangs up, the session is gone.
func TestMCPClientLeaves(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "mcp")
	_, base := demoSite(t)
	sessions := func() map[string]string {
		var list struct {
			Sessions []struct{ Name, URL string } `json:"sessions"`
		}
		c.jsonData(&list, "session", "list")
		out := map[string]string{}
		for _, s := range list.Sessions {
			out[s.Name] = s.URL
		}
		return out
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.Command(binPath, "mcp")
	cmd.Env = append(os.Environ(), "WAYMARK_SOCKET="+c.socket, "WAYMARK_BROWSER_ARGS="+strings.Join(browsertest.GuardArgs, "\n"))
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "navigate", Arguments: map[string]any{"url": base + "/products"}})
	if err != nil {
		t.Fatalf("navigate: %v", err)
	}
	if res.IsError {
		var text []string
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				text = append(text, tc.Text)
			}
		}
		log, _ := os.ReadFile(c.socket + ".log") // the daemon's (daemonpath.For)
		t.Fatalf("navigate answered an error: %s\ndaemon log:\n%s", strings.Join(text, "\n"), log)
	}
	own := ""
	for name, url := range sessions() {
		if strings.HasPrefix(name, "mcp-") && strings.HasSuffix(url, "/products") {
			own = name
		}
	}
	if own == "" {
		t.Fatalf("no session of the client's own in %v", sessions())
	}
	if err := cs.Close(); err != nil { // stdin closes; the server ends once the session is closed
		t.Logf("close: %v", err)
	}
	if _, ok := sessions()[own]; ok {
		t.Errorf("session %s outlived its MCP client: %v", own, sessions())
	}
}
