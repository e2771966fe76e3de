package mcp

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// daemonSessions lists the sessions the daemon's manager holds, with the
// URL of each.
func daemonSessions(t *testing.T, m *sessions.Manager) map[string]string {
	t.Helper()
	list, err := rpc.Daemon{Caller: m}.Sessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, s := range list.Sessions {
		out[s.Name] = s.URL
	}
	return out
}

// waitGone waits (bounded) until the daemon no longer lists session: an
// HTTP client's leaving is noticed by the server after its request ends.
func waitGone(t *testing.T, m *sessions.Manager, session string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, ok := daemonSessions(t, m)[session]; !ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %s is still open after its client left: %v", session, daemonSessions(t, m))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// newSession returns the one session in after that is not in before.
func newSession(t *testing.T, before, after map[string]string) string {
	t.Helper()
	var added []string
	for k := range after {
		if _, ok := before[k]; !ok {
			added = append(added, k)
		}
	}
	if len(added) != 1 {
		t.Fatalf("sessions added: %v (before %v, after %v)", added, before, after)
	}
	return added[0]
}

func pages(t *testing.T) *httptest.Server {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "<!doctype html><title>%s</title><button>Go</button>", strings.Trim(r.URL.Path, "/"))
	}))
	t.Cleanup(site.Close)
	return site
}

// TestClientLeavesStdio: a client of `waymark mcp` on stdio opens a page,
// which opens a session of its own; when the client hangs up (stdin
// ends), the server closes that session before it returns.
func TestClientLeavesStdio(t *testing.T) {
	site := pages(t)
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	cr, sw := io.Pipe() // server → client
	sr, cw := io.Pipe() // client → server
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, &sdk.IOTransport{Reader: sr, Writer: sw}, Options{Caller: m})
		sw.Close()
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := daemonSessions(t, m)
	if _, isErr, _ := callTool(t, cs, "navigate", map[string]any{"url": site.URL + "/one"}); isErr {
		t.Fatal("navigate failed")
	}
	name := newSession(t, before, daemonSessions(t, m))
	if !strings.HasPrefix(name, "mcp-") {
		t.Errorf("the client's session is %q, want one of its own (mcp-…)", name)
	}
	cw.Close() // the client leaves: stdin ends
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("Serve did not return after stdin ended")
	}
	if got := daemonSessions(t, m); slices.Contains(keys(got), name) {
		t.Errorf("session %s still open after its client left: %v", name, got)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestClientLeavesHTTP: each HTTP client gets a session of its own (one
// client's navigate does not move another's page); a client that ends its
// MCP session, or stays silent past the session timeout, has its session
// closed, and so do the clients still there when the server stops; a
// client that names a session shares it, and it stays.
func TestClientLeavesHTTP(t *testing.T) {
	site := pages(t)
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srvCtx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- ServeListener(srvCtx, ln, Options{Caller: m}) }()
	defer func() {
		stop()
		<-served
	}()
	endpoint := "http://" + ln.Addr().String() + "/mcp"
	// A second server times its clients out quickly. (The idle time runs
	// only between a client's requests, so a slow first navigate of the
	// other server's clients does not count.)
	quickLn, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	quickServed := make(chan error, 1)
	go func() {
		quickServed <- ServeListener(srvCtx, quickLn, Options{Caller: m, SessionTimeout: 3 * time.Second})
	}()
	defer func() {
		stop()
		<-quickServed
	}()
	quick := "http://" + quickLn.Addr().String() + "/mcp"
	dial := func(url string) *sdk.ClientSession {
		t.Helper()
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	open := func(cs *sdk.ClientSession, page string) string {
		t.Helper()
		before := daemonSessions(t, m)
		if got, isErr, _ := callTool(t, cs, "navigate", map[string]any{"url": site.URL + "/" + page}); isErr {
			t.Fatalf("navigate: %s", got)
		}
		return newSession(t, before, daemonSessions(t, m))
	}

	a := dial(endpoint)
	nameA := open(a, "alpha")
	b := dial(endpoint)
	nameB := open(b, "beta")
	if nameA == nameB || !strings.HasPrefix(nameA, "mcp-") || !strings.HasPrefix(nameB, "mcp-") {
		t.Fatalf("sessions %q and %q, want one of its own for each client", nameA, nameB)
	}
	if got, _, _ := callTool(t, a, "snapshot", nil); !strings.Contains(got, "alpha") {
		t.Errorf("client A's page moved with client B's navigate:\n%s", got)
	}

	named := dial(endpoint + "?session=shared-one")
	callTool(t, named, "navigate", map[string]any{"url": site.URL + "/gamma"})
	if _, ok := daemonSessions(t, m)["shared-one"]; !ok {
		t.Fatalf("a client that names its session acts on it: %v", daemonSessions(t, m))
	}

	a.Close() // ends the MCP session (DELETE)
	waitGone(t, m, nameA)
	if _, ok := daemonSessions(t, m)[nameB]; !ok {
		t.Errorf("client B's session closed when client A left")
	}
	named.Close()
	// D never says goodbye: its session times out. By then the named
	// session, whose client also left, is still there.
	d := dial(quick)
	nameD := open(d, "epsilon")
	waitGone(t, m, nameD)
	if _, ok := daemonSessions(t, m)["shared-one"]; !ok {
		t.Errorf("the session a client named was closed when it left")
	}

	// The server stops with clients still there (B, C): their sessions
	// end too.
	c := dial(endpoint)
	nameC := open(c, "delta")
	stop()
	if err := <-served; err != nil {
		t.Errorf("ServeListener: %v", err)
	}
	served <- nil // for the deferred stop
	got := daemonSessions(t, m)
	for _, name := range []string{nameB, nameC} {
		if _, ok := got[name]; ok {
			t.Errorf("session %s outlived the server: %v", name, got)
		}
	}
	if _, ok := got["shared-one"]; !ok {
		t.Errorf("the named session was closed with the server: %v", got)
	}
}
