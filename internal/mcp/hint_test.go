package mcp

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// An MCP reply never tells the client to run a CLI command or pass a flag.
func TestMCPHint(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`run "waymark snapshot" again and use a ref from it`, "call the snapshot tool again and use a ref from it"},
		{`run "waymark snapshot -i" again for fresh refs`, "call the snapshot tool again for fresh refs"},
		{"run waymark snapshot to see what the page holds now", "call the snapshot tool to see what the page holds now"},
		{"pass a ref such as @e12 (from waymark snapshot) or a locator", "pass a ref such as @e12 (from the snapshot tool) or a locator"},
		{"it may be hidden; run waymark snapshot", "it may be hidden; call the snapshot tool"},
		{"approve it, or pass --allow-submit", submitNeedsPerson},
		{`run "waymark daemon stop", then the command again`, `run "waymark daemon stop", then the command again`},
		{"install Chromium or pass --executable-path", "install Chromium or pass --executable-path"},
		{"raise --timeout, or look again", "raise the argument timeout_ms, or look again"},
		{"run `waymark snapshot -i` again for fresh refs", "call the snapshot tool again for fresh refs"},
		{"read the cells with `waymark sheet read RANGE`, or give --recipe FILE", "read the cells with the sheet_read tool, or give the argument list.recipe"},
		{"start it with `waymark daemon restart`", "start it with `waymark daemon restart`"},
		{"read it with `waymark netlog summarize`", "read it with `waymark netlog summarize`"}, // no tool does: the person's
		// Commands whose tool has another name: no CLI command reaches
		// the agent (these came over MCP from tabs, navigate and a stuck
		// page).
		{"run `waymark tab list` to see the tabs", "call the tabs tool to see the tabs"},
		{"switch to that tab with `waymark tab switch`, or take a new snapshot", "switch to that tab with the tabs tool, or take a new snapshot"},
		{"check the address, e.g. `waymark open example.com/path`", "check the address, e.g. the navigate tool with url example.com/path"},
		{"usage: `waymark open URL`", "usage: the navigate tool with a url"},
		// A placeholder, whatever its case, is not taken for an address.
		{"usage: `waymark open url`", "usage: the navigate tool with a url"},
		{"usage: `waymark open <address>`", "usage: the navigate tool with a url"},
		{"open it yourself: `waymark open file:///tmp/a.html`", "open it yourself: the navigate tool with url file:///tmp/a.html"},
		{"try `waymark open localhost:8000`", "try the navigate tool with url localhost:8000"},
		{"run `waymark tab close`, or `waymark session close`", "call the tabs tool, or the close tool"},
		{"", ""},
	} {
		if got := mcpHint(tt.in); got != tt.want {
			t.Errorf("mcpHint(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestWrongToolNamePointsToTheTool: an agent that calls a tool by a
// command's name (open, tab, get) is told the tool that does it; the
// answer stays the protocol's unknown-tool error.
func TestWrongToolNamePointsToTheTool(t *testing.T) {
	cs := connect(t, Options{Caller: &fakeCaller{}})
	for _, tt := range []struct{ name, want string }{
		{"open", `unknown tool "open": the navigate tool does that`},
		{"tab", `unknown tool "tab": the tabs tool does that`},
		{"get", `unknown tool "get": the snapshot tool does that`},
		{"browser_navigate", `unknown tool "browser_navigate": the navigate tool does that`},
		{"nosuch", `unknown tool "nosuch"`},
	} {
		_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tt.name, Arguments: map[string]any{}})
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams || rpcErr.Message != tt.want {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
