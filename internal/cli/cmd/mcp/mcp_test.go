package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

func TestNewCmdMCPFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    MCPOptions
		wantErr string
	}{
		{"stdio", nil, MCPOptions{}, ""},
		{"http and eval", []string{"--http", "127.0.0.1:8931", "--allow-eval"}, MCPOptions{HTTP: "127.0.0.1:8931", AllowEval: true}, ""},
		{"not loopback", []string{"--http", "0.0.0.0:8931"}, MCPOptions{}, "only loopback"},
		{"no port", []string{"--http", "localhost"}, MCPOptions{}, "bad address"},
		{"arguments", []string{"x"}, MCPOptions{}, "takes 0 argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := clitest.ParseCmd(t, NewCmdMCP, tt.args)
			if tt.wantErr != "" {
				var ue *cmdutil.UsageError
				if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want a usage error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.HTTP != tt.want.HTTP || got.AllowEval != tt.want.AllowEval || got.Session != "s1" || got.Version != "v9.9.9" || got.NamedSession {
				t.Errorf("got %+v", got)
			}
		})
	}
}

// TestMCPRunStdio runs `waymark mcp` on piped stdin and stdout with an SDK
// client on the other end: the tools reach the factory's Caller for the
// session, and nothing but the protocol is written to stdout. A session
// a person named is shared and stays; without one, the client's own
// session is closed when it hangs up.
func TestMCPRunStdio(t *testing.T) {
	for _, named := range []bool{true, false} {
		t.Run(fmt.Sprintf("named=%v", named), func(t *testing.T) { testMCPRunStdio(t, named) })
	}
}

func testMCPRunStdio(t *testing.T, named bool) {
	c := &clitest.FakeCaller{Results: map[string]any{calls.MethodSnapshot: calls.Snapshot{Text: "[page] Piped"}}}
	common, _, _ := clitest.NewCommon(c, false, false)
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	common.IO.In, common.IO.Out = sr, sw
	opts := &MCPOptions{Common: common, Version: "v9.9.9", NamedSession: named}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- mcpRun(ctx, opts) }()

	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := cs.InitializeResult().ServerInfo; v.Name != "waymark" || v.Version != "v9.9.9" {
		t.Errorf("server info %+v", v)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "snapshot", Arguments: map[string]any{"interactive": true}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*sdk.TextContent).Text; got != "[page] Piped" {
		t.Errorf("snapshot = %q", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name == "eval" {
			t.Error("eval offered without --allow-eval")
		}
	}
	cs.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("mcpRun: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("mcpRun did not end when the client hung up")
	}
	want := []clitest.FakeCall{{Session: "s1", Method: calls.MethodSnapshot, Params: calls.SnapshotRequest{Interactive: true}}}
	if !named {
		own := "(none)"
		if len(c.Calls) > 0 && strings.HasPrefix(c.Calls[0].Session, "mcp-") {
			own = c.Calls[0].Session
		}
		want = []clitest.FakeCall{{Session: own, Method: calls.MethodSnapshot, Params: calls.SnapshotRequest{Interactive: true}},
			{Session: own, Method: "session.close", Params: calls.Empty{}}}
	}
	got := c.Calls
	// The server names its client as the look's reader (internal/mcp).
	if len(got) > 0 {
		if req, ok := got[0].Params.(calls.SnapshotRequest); ok && strings.HasPrefix(req.Reader, "mcp:") {
			req.Reader = ""
			got[0].Params = req
		} else {
			t.Errorf("the snapshot names no mcp: reader: %+v", got[0].Params)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("calls %+v, want %+v", got, want)
	}
	for i := range want {
		if !sameCall(got[i], want[i]) {
			t.Errorf("call %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func sameCall(a, b clitest.FakeCall) bool {
	pa, _ := json.Marshal(a.Params)
	pb, _ := json.Marshal(b.Params)
	return a.Session == b.Session && a.Method == b.Method && string(pa) == string(pb)
}

// TestMCPRunDialFailure: a daemon that cannot start is a tool error with
// its hint, not a dead server.
func TestMCPRunDialFailure(t *testing.T) {
	common, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	common.Caller = func(context.Context) (cmdutil.Caller, error) {
		return nil, calls.Errorf(calls.ErrUnavailable, "install Chromium or pass --executable-path", "no browser found")
	}
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	common.IO.In, common.IO.Out = sr, sw
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- mcpRun(ctx, &MCPOptions{Common: common}) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "navigate", Arguments: map[string]any{"url": "https://example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*sdk.TextContent).Text; !res.IsError || got != "no browser found\nhint: install Chromium or pass --executable-path\ncode: unavailable" {
		t.Errorf("isError=%v %q", res.IsError, got)
	}
	cs.Close()
	<-done
}

// TestMCPRunHTTP serves on a loopback port until the context ends and says
// where on stderr.
func TestMCPRunHTTP(t *testing.T) {
	common, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	errOut := &mcpStderr{}
	common.IO.ErrOut = errOut
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mcpRun(ctx, &MCPOptions{Common: common, HTTP: "127.0.0.1:0"}) }()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(errOut.String(), "/mcp") {
		if time.Now().After(deadline) {
			t.Fatal("no address printed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("mcpRun: %v", err)
	}
	if got := errOut.String(); !strings.HasPrefix(got, "serving MCP at http://127.0.0.1:") {
		t.Errorf("stderr %q", got)
	}
}

// mcpStderr is a stderr the server's goroutine writes while the test reads.
type mcpStderr struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *mcpStderr) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *mcpStderr) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
