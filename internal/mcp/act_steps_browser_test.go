package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
)

// notesSite is a page with a field, an Add button that sends the note by
// a GET (a read: no approval) and a Send form (a submit). It counts what
// reaches it.
type notesSite struct {
	mu    sync.Mutex
	added []string
	sent  int
}

func (s *notesSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.URL.Path {
	case "/":
		fmt.Fprint(w, `<!doctype html><title>Notes</title><h1>Notes</h1>
<label>Note <input id="note"></label>
<button type="button" onclick="fetch('/add?note='+encodeURIComponent(document.getElementById('note').value)).then(()=>{document.getElementById('out').textContent='Added'})">Add</button>
<p id="out"></p>
<form method="post" action="/send"><button>Send</button></form>`)
	case "/add":
		s.added = append(s.added, r.URL.Query().Get("note"))
	case "/send":
		s.sent++
		fmt.Fprint(w, `<!doctype html><title>Sent</title><h1>Sent</h1>`)
	default:
		http.NotFound(w, r)
	}
}

func (s *notesSite) counts() ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.added...), s.sent
}

// TestBrowserActStepsNoKey: with no model key (the rules model, ActOnly),
// act given a sentence of several plain steps does them in turn, as
// `waymark run` does with no key (pilot.Run, the rules model answering one
// step a turn), over a real MCP transport; the note reaches the server
// once. The run keeps the send gate: a sentence whose last step is a
// submit, from a client that cannot ask its person, sends nothing.
func TestBrowserActStepsNoKey(t *testing.T) {
	site := &notesSite{}
	srv := httptest.NewServer(site)
	defer srv.Close()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	newPilot := func(_ context.Context, s string) (*pilot.Pilot, error) {
		return pilot.New(calls.Remote{Caller: m, Session: s}, rules.New(), nil), nil
	}
	const session = "mcp-act-steps"
	cs := connectClient(t, Options{Caller: m, Session: session,
		Extra: []func(*sdk.Server){PilotTools(newPilot, nil, PilotOptions{Session: session, ActOnly: true})}}, nil, "")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	call := func(name string, args map[string]any) *sdk.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	mustOK(t, "navigate", call("navigate", map[string]any{"url": srv.URL + "/"}))

	res := call("act", map[string]any{"instruction": `type "Ann Lee" into Note and click Add`})
	text := resultText(res)
	t.Logf("act:\n%s", text)
	if added, sent := site.counts(); res.IsError || len(added) != 1 || added[0] != "Ann Lee" || sent != 0 {
		t.Fatalf("two plain steps: the server saw notes %q and %d send(s), want [Ann Lee] and 0; isError=%v\n%s", added, sent, res.IsError, text)
	}
	if !strings.Contains(text, "done (2 steps") || !strings.Contains(text, "[changes since your last look]") {
		t.Errorf("act's reply says not what the steps did, or not the page's changes:\n%s", text)
	}

	// The last step is a submit; this client cannot ask its person.
	res = call("act", map[string]any{"instruction": `type "Bob" into Note and click Send`})
	text = resultText(res)
	t.Logf("act with a submit:\n%s", text)
	if added, sent := site.counts(); !res.IsError || sent != 0 || len(added) != 1 {
		t.Fatalf("a submit from a client that cannot ask: the server saw notes %q and %d send(s), want 1 note and 0; isError=%v\n%s", added, sent, res.IsError, text)
	}
}
