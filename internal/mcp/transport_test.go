package mcp

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
)

func TestListenRefusesNonLoopback(t *testing.T) {
	tests := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:0", true},
		{"localhost:0", true},
		{"[::1]:0", true},
		{"0.0.0.0:0", false},
		{":0", false},
		{"192.0.2.1:0", false},
		{"example.com:80", false},
		{"127.0.0.1", false}, // no port
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			ln, err := Listen(tt.addr)
			if ln != nil {
				ln.Close()
			}
			if tt.ok && err != nil && !strings.Contains(err.Error(), "listen:") {
				t.Errorf("Listen(%q) = %v, want ok", tt.addr, err)
			}
			if !tt.ok && err == nil {
				t.Errorf("Listen(%q) succeeded, want refusal", tt.addr)
			}
		})
	}
	if _, err := Listen("0.0.0.0:8931"); err == nil || !strings.Contains(err.Error(), "only loopback") {
		t.Errorf("error %v does not say why", err)
	}
}

func snapshotReply(method string, _ any) (any, error) {
	if method == calls.MethodSnapshot {
		return calls.Snapshot{Text: "[page] Served"}, nil
	}
	return nil, nil
}

// TestServeHTTP serves the streamable HTTP transport on loopback and calls
// a tool through the SDK's client, then stops the server with ctx.
func TestServeHTTP(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeListener(ctx, ln, Options{Caller: &fakeCaller{reply: snapshotReply}}) }()

	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, isErr, _ := callTool(t, cs, "snapshot", nil); isErr || got != "[page] Served" {
		t.Errorf("snapshot = %q (isError %v)", got, isErr)
	}
	cs.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeListener: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeListener did not stop")
	}
}

// TestServeStdioFraming runs [Serve] with the SDK's newline-delimited
// stdio framing (IOTransport, what StdioTransport uses on os.Stdin and
// os.Stdout) over pipes, as ServeIO does for `waymark mcp` on the
// process's own streams. The CLI's test drives `waymark mcp` the same way.
func TestServeStdioFraming(t *testing.T) {
	cr, sw := io.Pipe() // server → client
	sr, cw := io.Pipe() // client → server
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, &sdk.IOTransport{Reader: sr, Writer: sw}, Options{Caller: &fakeCaller{reply: snapshotReply}})
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, isErr, _ := callTool(t, cs, "snapshot", nil); isErr || got != "[page] Served" {
		t.Errorf("snapshot = %q (isError %v)", got, isErr)
	}
	cs.Close() // the client hangs up: the server's Run returns
	select {
	case err := <-done:
		if err != nil {
			t.Logf("Serve after hang-up: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the client closed")
	}
}

// TestOriginChecked: a web page of another origin cannot reach the
// server (a page the user visits must not drive their browser); programs
// (no Origin) and pages served from loopback can.
func TestOriginChecked(t *testing.T) {
	endpoint := "http://" + serveHTTP(t, Options{Caller: &fakeCaller{reply: snapshotReply}}) + "/mcp"
	for _, tt := range []struct {
		origin string
		ok     bool
	}{
		{"", true},
		{"http://localhost:6274", true},
		{"http://127.0.0.1:3000", true},
		{"http://[::1]:8080", true},
		{"https://evil.example", false},
		{"http://localhost.evil.example", false},
		{"null", false},
	} {
		status := postInitialize(t, endpoint, tt.origin, "")
		if got := status != http.StatusForbidden; got != tt.ok {
			t.Errorf("Origin %q: status %d, want allowed=%v", tt.origin, status, tt.ok)
		}
	}
}

// TestOwnSessionLastsTheClient: a client's own session stays open across
// its calls, whatever the protocol, and is closed once when it leaves.
func TestOwnSessionLastsTheClient(t *testing.T) {
	for _, version := range []string{"", "2025-06-18"} {
		c := &fakeCaller{reply: snapshotReply}
		st, ct := sdk.NewInMemoryTransports()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- Serve(ctx, st, Options{Caller: c}) }()
		var so *sdk.ClientSessionOptions
		if version != "" {
			so = &sdk.ClientSessionOptions{ProtocolVersion: version}
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, so)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			callTool(t, cs, "snapshot", nil)
		}
		cs.Close()
		<-done
		cancel()
		var methods []string
		sessions := map[string]bool{}
		for _, call := range c.seen() {
			methods = append(methods, call.Method)
			sessions[call.Session] = true
		}
		if want := []string{"snapshot", "snapshot", "snapshot", "session.close"}; strings.Join(methods, " ") != strings.Join(want, " ") || len(sessions) != 1 {
			t.Errorf("protocol %q: calls %v on sessions %v", version, methods, sessions)
		}
	}
}

// TestListenPortInUse: a port another program holds (an MCP server started
// before) says so and what to do, not only the kernel's words.
func TestListenPortInUse(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	ln2, err := Listen(addr)
	if err == nil {
		ln2.Close()
		t.Fatalf("Listen(%q) twice succeeded", addr)
	}
	if !strings.Contains(err.Error(), addr+" is in use") {
		t.Errorf("error %q does not say the address is in use", err)
	}
	if h := calls.Hint(err); !strings.Contains(h, "another port: `waymark mcp --http 127.0.0.1:") {
		t.Errorf("hint %q does not say what to do", h)
	}
}
