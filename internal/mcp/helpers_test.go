package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeCall is one call the fake Caller saw, with its params as JSON.
type fakeCall struct {
	Session, Method string
	Params          string
}

// fakeCaller records calls and answers through reply, sending the result
// through JSON like the real wire.
type fakeCaller struct {
	mu    sync.Mutex
	calls []fakeCall
	reply func(method string, params any) (any, error)
}

func (c *fakeCaller) Call(ctx context.Context, session, method string, params, result any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.calls = append(c.calls, fakeCall{Session: session, Method: method, Params: string(p)})
	c.mu.Unlock()
	var res any
	if c.reply != nil {
		if res, err = c.reply(method, params); err != nil {
			return err
		}
	}
	b := []byte("{}")
	if res != nil {
		if b, err = json.Marshal(res); err != nil {
			return err
		}
	}
	return json.Unmarshal(b, result)
}

func (c *fakeCaller) seen() []fakeCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]fakeCall(nil), c.calls...)
}

// connect serves opts over in-memory transports and returns a connected
// client session, closed when the test ends.
func connect(t *testing.T, opts Options) *sdk.ClientSession {
	t.Helper()
	return connectClient(t, opts, nil, "")
}

// connectClient is connect with a client of copts (nil: the defaults)
// speaking protocol version ("": the SDK's latest).
func connectClient(t *testing.T, opts Options, copts *sdk.ClientOptions, version string) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := sdk.NewInMemoryTransports()
	ss, err := New(opts).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, copts)
	var so *sdk.ClientSessionOptions
	if version != "" {
		so = &sdk.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := client.Connect(ctx, ct, so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
		cancel()
	})
	return cs
}

// callTool calls a tool and returns its result's text (all text contents,
// joined) and whether it is a tool error.
func callTool(t *testing.T, cs *sdk.ClientSession, name string, args any) (string, bool, *sdk.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "\n"), res.IsError, res
}

// serveHTTP serves opts over streamable HTTP on a loopback port, as
// `waymark mcp --http` does, and returns the server's host:port; the
// server is stopped, and waited for, when the test ends.
func serveHTTP(t *testing.T, opts Options) string {
	t.Helper()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeListener(ctx, ln, opts) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return ln.Addr().String()
}

// postInitialize sends an MCP initialize to url as a raw HTTP client
// would (a page's fetch, a rebound name), with an Origin header and a Host
// when they are not empty, and returns the answer's status.
func postInitialize(t *testing.T, url, origin, host string) int {
	t.Helper()
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	req, err := http.NewRequest("POST", url, strings.NewReader(initialize))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if host != "" {
		req.Host = host
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}
