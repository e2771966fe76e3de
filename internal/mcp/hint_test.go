package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
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
		{"raise --timeout, or look again", "raise the wait tool's timeout_ms, or look again"},
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
		// A flag is said as the tool's argument (calls.HintFlags, mcpArgs).
		{"--button is left, right or middle", "the argument button is left, right or middle"},
		{"give a target to drop on or --by DX,DY, not both", "give a target to drop on or the argument by, not both"},
		{"give one of --after WORDS, --replace LINE or --end", "give one of the argument after, the argument replace or the argument end"},
		{"open the document first, or name its editor with --editor", "open the document first, or name its editor with the argument editor"},
		{"pass it with --var email=… or --secret email=env:VAR", "pass it with the argument vars or --secret email=env:VAR"},
		// The flags before a command are the CLI's settings: the server
		// has its own.
		{"open a local file by its file: URL, as in `waymark --allow-files open file:///tmp/a.html`", "open a local file by its file: URL, as in the navigate tool with url file:///tmp/a.html"},
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

// TestMCPSaysEveryHintFlag: every flag a hint may name (calls.HintFlags:
// TestHintFlagsAreKnown holds every hint of the module to that list) is
// said to an MCP client as an argument one of the tools has, or is the
// server's own setting (advice for the person), or is one no tool meets.
// A flag added to the list fails here until MCP has its words.
func TestMCPSaysEveryHintFlag(t *testing.T) {
	newPilot := func(context.Context, string) (*pilot.Pilot, error) { return nil, nil }
	replayer := func(context.Context, string, *routine.Routine, replay.Options) (*replay.Result, error) {
		return nil, nil
	}
	cs := connect(t, Options{Caller: &fakeCaller{}, AllowEval: true, AllowCapture: true, SiteTools: true, Apps: true, Extra: []func(*sdk.Server){PilotTools(newPilot, replayer, PilotOptions{})}})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]bool{} // "arg", and "tool.arg"
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var in struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(b, &in); err != nil {
			t.Fatal(err)
		}
		for name := range in.Properties {
			args[name], args[tool.Name+"."+name] = true, true
		}
	}
	for _, f := range calls.HintFlags() {
		ways := 0
		_, said := mcpArgs[f]
		for _, b := range []bool{said, serverFlags[f], noToolMeets[f]} {
			if b {
				ways++
			}
		}
		if ways != 1 {
			t.Errorf("--%s is said %d ways to an MCP client (mcpArgs, serverFlags, noToolMeets), want 1", f, ways)
			continue
		}
		if a, ok := mcpArgs[f]; ok {
			top, _, _ := strings.Cut(a.arg, ".")
			if a.tool != "" {
				top = a.tool + "." + top
			}
			if !args[top] {
				t.Errorf("--%s is said as %s, which no tool has", f, a)
			}
			if got := mcpHint("pass --" + f + " X, or look again"); strings.Contains(got, "--") {
				t.Errorf("--%s: %q", f, got)
			}
		}
	}
}

// TestOutlineSaysMapUseInToolWords: a drawn map's use on the outline's
// first line (click-at X Y, drag --by DX,DY on the command line) is said
// with the tools' arguments; the page's own lines are left as they are.
func TestOutlineSaysMapUseInToolWords(t *testing.T) {
	use := (&apps.App{Name: "Maps", Kind: apps.KindMap, Search: "input"}).Use()
	page := "[page] Maps — maps.example [app: Maps (map): " + use + "]\n- button \"Zoom in\" [ref=e3]\n- text: " + apps.MapUse
	got := sayOutline(page)
	first, rest, _ := strings.Cut(got, "\n")
	if strings.Contains(first, "--") || strings.Contains(first, "click-at") || !strings.Contains(first, mapUseInMCP+"; search in its search box]") {
		t.Errorf("first line: %s", first)
	}
	if want := "- button \"Zoom in\" [ref=e3]\n- text: " + apps.MapUse; rest != want {
		t.Errorf("the page's lines changed:\n%s", rest)
	}
	if got := sayOutline("[page] Maps — " + use); got != "[page] Maps — "+strings.Replace(use, apps.MapUse, mapUseInMCP, 1) {
		t.Errorf("one line: %s", got)
	}
}
