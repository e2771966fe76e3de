package mcp

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/internal/config"
)

func TestNewCmdMCPModelFlags(t *testing.T) {
	got, err := clitest.ParseCmd(t, NewCmdMCP, []string{"--model", "openai:llama3", "--base-url", "http://127.0.0.1:11434/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != (pilotflags.ModelFlags{Model: "openai:llama3", BaseURL: "http://127.0.0.1:11434/v1"}) {
		t.Errorf("model flags %+v", got.Model)
	}
}

// mcpClient runs `waymark mcp` on pipes with opts and returns a connected
// client; the server stops when the test ends.
func mcpClient(t *testing.T, opts *MCPOptions) *sdk.ClientSession {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	opts.IO.In, opts.IO.Out = sr, sw
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mcpRun(ctx, opts) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("mcpRun: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("mcpRun did not end when the client hung up")
		}
		cancel()
	})
	return cs
}

func toolNames(t *testing.T, cs *sdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tool := range res.Tools {
		out = append(out, tool.Name)
	}
	return out
}

// TestMCPRunPilotTools: with no key the rules model offers act (and
// replay), and act reaches the daemon's session through the pilot; with a
// model key, observe, extract and run are offered too.
func TestMCPRunPilotTools(t *testing.T) {
	c := &clitest.FakeCaller{Results: map[string]any{
		calls.MethodSnapshot: calls.Snapshot{URL: "https://shop.test/login", Text: "- textbox \"Email\" [ref=e1]\n- button \"Sign in\" [ref=e2]"},
		calls.MethodLocate:   calls.Evidence{Ref: "e1", Chosen: "label=Email"},
		calls.MethodAct:      calls.Outcome{URL: "https://shop.test/login"},
	}}
	common, _, _ := clitest.NewCommon(c, false, false)
	noEnv := func(string) string { return "" }
	common.Getenv = noEnv
	cs := mcpClient(t, &MCPOptions{Common: common, NamedSession: true})
	names := toolNames(t, cs)
	if !slices.Contains(names, "act") || !slices.Contains(names, "replay") || slices.Contains(names, "observe") || slices.Contains(names, "run") {
		t.Errorf("rules model: tools %v", names)
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "act", Arguments: map[string]any{"instruction": "fill Email with ann@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*sdk.TextContent).Text; res.IsError || !strings.Contains(got, "fill @e1: done") {
		t.Errorf("act: isError=%v %q", res.IsError, got)
	}
	res, err = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "act", Arguments: map[string]any{"instruction": "click Sign up"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*sdk.TextContent).Text; !res.IsError || !strings.Contains(got, "code: not_found") || !strings.Contains(got, "hint: ") {
		t.Errorf("act refused: isError=%v %q", res.IsError, got)
	}
	var act *calls.ActRequest
	for _, call := range c.Calls {
		if call.Method == calls.MethodAct {
			r := call.Params.(calls.ActRequest)
			act = &r
		}
		if call.Session != "s1" {
			t.Errorf("%s went to session %q", call.Method, call.Session)
		}
	}
	if act == nil || act.Kind != calls.ActFill || act.Target != "@e1" || act.Value != "ann@example.com" || act.Submits != "ask" {
		t.Errorf("act request %+v", act)
	}

	env := map[string]string{"OPENAI_API_KEY": "sk-test", "WAYMARK_MODEL": "openai:gpt-test"}
	common2, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	common2.Getenv = func(k string) string { return env[k] }
	cs = mcpClient(t, &MCPOptions{Common: common2})
	names = toolNames(t, cs)
	for _, want := range []string{"act", "observe", "extract", "run", "replay"} {
		if !slices.Contains(names, want) {
			t.Errorf("with a model key: no %s in %v", want, names)
		}
	}
}

func TestMCPRunBadModel(t *testing.T) {
	common, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	common.Getenv = func(string) string { return "" }
	err := mcpRun(context.Background(), &MCPOptions{Common: common, Model: pilotflags.ModelFlags{Model: "nope:x"}})
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("err = %v", err)
	}
}

// TestMCPSubmitsFromConfig: [mcp] submits of the config file decides a
// submit for a client that cannot ask its person: "allow" lets it
// through, the default refuses it with nothing pressed.
func TestMCPSubmitsFromConfig(t *testing.T) {
	for _, tt := range []struct {
		file      string
		wantAllow bool
	}{
		{"", false},
		{"[mcp]\nsubmits = \"allow\"\n", true},
	} {
		cfg, _ := clitest.LoadConfig(t, tt.file, nil)
		c := &clitest.FakeCaller{Reply: func(method string, params any) (any, error) {
			if req, ok := params.(calls.ActRequest); ok && req.Submits == "ask" && req.Approve == nil {
				return nil, &calls.Error{Kind: calls.ErrNeedsApproval, Msg: "it needs approval; nothing was pressed",
					Data: []byte(`{"action":"click","url":"https://shop.test/","control":"button \"Pay\"","why":"submits the form","token":"t"}`)}
			}
			return calls.Outcome{}, nil
		}}
		common, _, _ := clitest.NewCommon(c, false, false)
		common.Config = func() (*config.Config, error) { return cfg, nil }
		common.Getenv = func(string) string { return "" }
		cs := mcpClient(t, &MCPOptions{Common: common})
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "click", Arguments: map[string]any{"target": "e1"}})
		if err != nil {
			t.Fatal(err)
		}
		var acts []calls.ActRequest
		for _, call := range c.Calls {
			if call.Method == calls.MethodAct {
				acts = append(acts, call.Params.(calls.ActRequest))
			}
		}
		if tt.wantAllow != !res.IsError || len(acts) != 1 || (acts[0].Submits == "allow") != tt.wantAllow {
			t.Errorf("file %q: isError=%v acts %+v", tt.file, res.IsError, acts)
		}
	}
}
