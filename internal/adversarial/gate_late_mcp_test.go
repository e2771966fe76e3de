package adversarial

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/mcp"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// The late send (sendgate_after.go in the driver) through the other
// runners: the MCP tools here, a replayed routine and a batch row beside.
// Each counts what reaches the server.

// lateTold is a page whose "Continue" arms a POST to /pay that goes when
// the page is told "go" (a DOM event the test dispatches once the click's
// step ended, standing for a timer or a debounce firing); the page's
// title then says how the send ended, so that the test waits for the
// page, never for a time: "sent" when it reached the server, "stopped"
// when the gate stopped it.
const lateTold = `<!doctype html><title>Shop</title><p>Your basket</p>
<button type=button id=b onclick="document.addEventListener('go',()=>fetch('/pay',{method:'POST',body:'card=4242'}).then(()=>{document.title='sent'},()=>{document.title='stopped'}),{once:true})">Continue</button>`

// goJS fires the cue of lateTold and resets its title.
const goJS = `document.title='Shop', document.dispatchEvent(new Event('go')), true`

// ended is a JS condition: the send the cue started has ended.
const ended = `document.title === 'sent' || document.title === 'stopped'`

// TestLateSendOverMCP: an agent clicks "Continue" with the click tool;
// the handler's POST goes after the click's step. It never reaches the
// server unapproved; the next look the agent takes (the snapshot tool)
// tells it was stopped; the click again is refused to a client that
// cannot ask its person, and, asked of a person who says yes, lets the
// send through exactly once.
func TestLateSendOverMCP(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": lateTold})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	pays := func() int { return srv.Count("POST", "/pay") }
	for _, tt := range []struct {
		name   string
		person *asker // nil: a client that cannot ask
		// byRef presses again by the ref the agent's look gives, not
		// css=#b: the same control, which asks as the same.
		byRef bool
	}{
		{"a client that cannot ask", nil, false},
		{"a person who says yes", &asker{answer: "accept"}, false},
		{"a client that cannot ask, again by its ref", nil, true},
		{"a person who says yes, again by its ref", &asker{answer: "accept"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			session := "late-mcp-" + strings.ReplaceAll(tt.name, " ", "-")
			st, ct := sdk.NewInMemoryTransports()
			ss, err := mcp.New(mcp.Options{Caller: m, Session: session}).Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			cs := agentClient(t, ctx, ct, tt.person)
			defer func() { _ = cs.Close(); _ = ss.Wait() }()
			call := func(name string, args map[string]any) *sdk.CallToolResult {
				t.Helper()
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return res
			}
			// fire gives the cue, as the page's timer would, and waits
			// for the page to say how the send ended.
			fire := func() {
				t.Helper()
				eval := func(expr string) string {
					t.Helper()
					p, _ := json.Marshal(calls.EvalRequest{Expression: expr, MainWorld: true})
					v, err := m.Handle(ctx, session, calls.MethodEval, p)
					if err != nil {
						t.Fatal(err)
					}
					b, _ := json.Marshal(v)
					return string(b)
				}
				eval(goJS)
				for deadline := time.Now().Add(10 * time.Second); !strings.Contains(eval(ended), "true"); time.Sleep(20 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatal("the page's send never ended")
					}
				}
			}
			if res := call("navigate", map[string]any{"url": srv.URL("/")}); res.IsError {
				t.Fatalf("navigate: %s", toolText(res))
			}
			srv.Reset()
			if res := call("click", map[string]any{"target": "css=#b"}); res.IsError {
				t.Fatalf("the click sends nothing in its step and needs no approval: %s", toolText(res))
			}
			fire()
			if n := pays(); n != 0 {
				t.Fatalf("the late send reached the server %d times without approval", n)
			}
			look := toolText(call("snapshot", map[string]any{}))
			if !strings.Contains(look, "[send-stopped]") || !strings.Contains(look, "/pay") {
				t.Fatalf("the agent's next look does not tell the stopped send:\n%s", look)
			}

			// Pressed again: the person's, not the agent's.
			again := "css=#b"
			if tt.byRef {
				_, after, ok := strings.Cut(look, `button "Continue" [ref=`)
				if !ok {
					t.Fatalf("no Continue in:\n%s", look)
				}
				again = "@" + after[:strings.IndexByte(after, ']')]
			}
			res := call("click", map[string]any{"target": again})
			if tt.person == nil {
				if !res.IsError || !strings.Contains(toolText(res), "approval") || !strings.Contains(toolText(res), "/pay") {
					t.Fatalf("the click again: want a refusal for want of approval naming /pay:\n%s", toolText(res))
				}
				if n := pays(); n != 0 {
					t.Fatalf("the refused click sent %d times", n)
				}
				return
			}
			if res.IsError || tt.person.count() != 1 {
				t.Fatalf("the click again, the person asked %d times: %s", tt.person.count(), toolText(res))
			}
			fire()
			// A look is a round trip through the page after its send:
			// a second copy of it would have been counted by then.
			call("snapshot", map[string]any{})
			if n := pays(); n != 1 {
				t.Fatalf("the approved late send reached the server %d times, want 1", n)
			}
		})
	}
}
