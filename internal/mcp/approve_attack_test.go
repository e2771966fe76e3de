package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// Attacks on the approvals a person gives over MCP: an agent that tries to
// press a submit without its person's yes.

// TestAllowDoesNotSkipAPersonWhoCanBeAsked: [mcp] submits = "allow" is
// for clients that cannot ask their person; a client that can ask always
// asks (the documented rule), so a person who declines is not overruled
// by the configuration.
func TestAllowDoesNotSkipAPersonWhoCanBeAsked(t *testing.T) {
	for _, version := range protocols {
		t.Run("click/"+version, func(t *testing.T) {
			c := gatedCaller()
			p := &person{answer: "decline"}
			cs := connectClient(t, Options{Caller: c, Submits: SubmitsAllow}, p.options(), version)
			got, isErr, _ := callTool(t, cs, "click", map[string]any{"target": "e4"})
			acts := actsSeen(t, c)
			if len(p.asked) != 1 || !isErr || len(acts) != 1 || acts[0].Submits != SubmitsAsk {
				t.Errorf("asked %d times, isErr=%v, acts %+v; reply:\n%s", len(p.asked), isErr, acts, got)
			}
		})
	}
	// A replay asks mid-call where the client can be asked then; on the
	// 2026-07-28 protocol it cannot, and [mcp] submits decides.
	for _, tt := range []struct{ version, submits string }{{"2025-06-18", SubmitsAsk}, {"", SubmitsAllow}} {
		t.Run("replay/"+tt.version, func(t *testing.T) {
			var got replay.Options
			replayer := func(_ context.Context, _ string, _ *routine.Routine, o replay.Options) (*replay.Result, error) {
				got = o
				return &replay.Result{Status: replay.StatusOK}, nil
			}
			cs := connectClient(t, Options{Caller: &fakeCaller{}, Submits: SubmitsAllow, Extra: []func(*sdk.Server){PilotTools(nil, replayer, PilotOptions{})}},
				(&person{answer: "decline"}).options(), tt.version)
			if res, isErr, _ := callTool(t, cs, "replay", map[string]any{"routine": routineFile(t)}); isErr {
				t.Fatalf("replay: %s", res)
			}
			if got.Submits != tt.submits || (tt.submits == SubmitsAsk) != (got.Approve != nil) {
				t.Errorf("replay options: submits %q, approve set %v; want submits %q", got.Submits, got.Approve != nil, tt.submits)
			}
		})
	}
}

// routineFile is a one-step routine in a file of the test's own.
func routineFile(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir) // replay reads files in the working folder only (files.go)
	file := dir + "/r.json"
	if err := os.WriteFile(file, []byte(`{"format":"waymark.routine/1","name":"r","version":1,"steps":[{"kind":"goto","url":"http://shop.test/"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// answer is a call that answers a pending approval with state.
func answer(tool, args, state string, action string) *sdk.CallToolRequest {
	return &sdk.CallToolRequest{Params: &sdk.CallToolParamsRaw{Name: tool, Arguments: json.RawMessage(args), RequestState: state,
		InputResponses: sdk.InputResponseMap{approvalInput: &sdk.ElicitResult{Action: action, Content: map[string]any{"approve": true, "extra": "x"}}}}}
}

// asked puts placeOrder to the person for click e4 and returns the state.
func asked(t *testing.T, ap *approver) string {
	t.Helper()
	res := ap.ask(answer("click", `{"target":"e4"}`, "", ""), placeOrder)
	if res.RequestState == "" || len(res.InputRequests) != 1 {
		t.Fatalf("no input request: %+v", res)
	}
	return res.RequestState
}

// TestApprovalRequestStateAttacks: the request state of an approval is
// one use, for the tool and arguments it was asked for, on the server
// (the client) that asked, within its time; extra fields in the answer
// change nothing, and only "accept" presses.
func TestApprovalRequestStateAttacks(t *testing.T) {
	ok := func(a *calls.Approval, res *sdk.CallToolResult) bool { return a != nil && res == nil }
	t.Run("used twice", func(t *testing.T) {
		ap := newApprover(SubmitsAsk)
		st := asked(t, ap)
		if a, res := ap.answered(answer("click", `{ "target" : "e4" }`, st, "accept")); !ok(a, res) || a.Token != placeOrder.Token {
			t.Fatalf("the person's yes: %v %v", a, res)
		}
		if a, res := ap.answered(answer("click", `{"target":"e4"}`, st, "accept")); ok(a, res) {
			t.Error("a used request state approved again")
		}
	})
	t.Run("another target or tool", func(t *testing.T) {
		ap := newApprover(SubmitsAsk)
		for _, tt := range []struct{ tool, args string }{{"click", `{"target":"e5"}`}, {"press", `{"target":"e4"}`}, {"click", `{"target":"e4","extra":1}`}} {
			st := asked(t, ap)
			if a, res := ap.answered(answer(tt.tool, tt.args, st, "accept")); ok(a, res) {
				t.Errorf("%s %s pressed with an approval asked for click e4", tt.tool, tt.args)
			}
			// Tried once with the wrong call, the state is gone.
			if a, res := ap.answered(answer("click", `{"target":"e4"}`, st, "accept")); ok(a, res) {
				t.Errorf("the state outlived a wrong use")
			}
		}
	})
	t.Run("declined, then accepted", func(t *testing.T) {
		ap := newApprover(SubmitsAsk)
		for _, action := range []string{"decline", "cancel", "ACCEPT", "accepted", ""} {
			st := asked(t, ap)
			if a, res := ap.answered(answer("click", `{"target":"e4"}`, st, action)); ok(a, res) || !res.IsError {
				t.Errorf("answer %q pressed", action)
			}
			if a, res := ap.answered(answer("click", `{"target":"e4"}`, st, "accept")); ok(a, res) {
				t.Errorf("a state answered %q was accepted after", action)
			}
		}
	})
	t.Run("another client's", func(t *testing.T) {
		st := asked(t, newApprover(SubmitsAsk))
		if a, res := newApprover(SubmitsAsk).answered(answer("click", `{"target":"e4"}`, st, "accept")); ok(a, res) {
			t.Error("one server took another's request state")
		}
	})
	t.Run("expired", func(t *testing.T) {
		ap := newApprover(SubmitsAsk)
		st := asked(t, ap)
		ap.mu.Lock()
		p := ap.pending[st]
		p.at = p.at.Add(-pendingTTL - time.Second)
		ap.pending[st] = p
		ap.mu.Unlock()
		if a, res := ap.answered(answer("click", `{"target":"e4"}`, st, "accept")); ok(a, res) {
			t.Error("an expired request state approved")
		}
	})
	t.Run("raced", func(t *testing.T) {
		ap := newApprover(SubmitsAsk)
		st := asked(t, ap)
		var wins atomic.Int32
		var wg sync.WaitGroup
		for range 32 {
			wg.Go(func() {
				if a, res := ap.answered(answer("click", `{"target":"e4"}`, st, "accept")); ok(a, res) {
					wins.Add(1)
				}
			})
		}
		wg.Wait()
		if n := wins.Load(); n != 1 {
			t.Errorf("one request state approved %d calls, want 1", n)
		}
	})
	t.Run("guessed", func(t *testing.T) {
		ap := newApprover(SubmitsAsk)
		st := asked(t, ap)
		for _, guess := range []string{"", "0", st[:len(st)-1], st + "0", strings.ToUpper(st)} {
			if a, res := ap.answered(answer("click", `{"target":"e4"}`, guess, "accept")); ok(a, res) {
				t.Errorf("guessed state %q approved", guess)
			}
		}
	})
}

// TestOriginTricks: Origin headers that look like loopback but name
// another host, and a page that rebinds its own name to 127.0.0.1 (no
// Origin on its request, a foreign Host), are refused.
func TestOriginTricks(t *testing.T) {
	addr := serveHTTP(t, Options{Caller: &fakeCaller{reply: snapshotReply}})
	_, port, _ := strings.Cut(addr, ":")
	for _, tt := range []struct {
		origin, host string
		ok           bool
	}{
		{origin: "http://127.0.0.1.evil.test"},
		{origin: "http://localhost@evil.test"},
		{origin: "http://evil.test#@localhost"},
		{origin: "http://localhost%2eevil.test"},
		{origin: "null"},
		{origin: "file://"},
		{origin: "chrome-extension://abcdefgh"},
		{origin: "http://0.0.0.0:3000"},
		{origin: "http://[::ffff:8.8.8.8]"},
		{origin: "http://evil.test:" + port},
		{origin: "http://evil.test:" + port, host: "evil.test:" + port},
		{host: "evil.test:" + port},   // a rebound page's GET sends no Origin
		{host: "127.0.0.1.evil.test"}, // nor one whose name looks like loopback
		{origin: "http://127.0.0.2:3000", ok: true},
	} {
		status := postInitialize(t, "http://"+addr+"/mcp", tt.origin, tt.host)
		if got := status == http.StatusOK; got != tt.ok {
			t.Errorf("Origin %q Host %q: status %d, want allowed=%v", tt.origin, tt.host, status, tt.ok)
		}
	}
}

// TestPersonSeesWhereTheFormGoes: the person is shown where the form
// would go and what its hidden fields carry, not only the button's words.
func TestPersonSeesWhereTheFormGoes(t *testing.T) {
	a := placeOrder
	a.Target = "POST https://pay.evil.test/order"
	a.Form = map[string]string{"amount": "10000"}
	got := a.Describe()
	if !strings.Contains(got, "The form goes to POST https://pay.evil.test/order") || !strings.Contains(got, "amount: 10000") {
		t.Errorf("the person is shown:\n%s", got)
	}
}

// TestPersonWhoNeverAnswers: a client that claims elicitation and never
// answers presses nothing; when it gives up on the call, the server goes
// on serving it, and the question it left is no approval.
func TestPersonWhoNeverAnswers(t *testing.T) {
	c := gatedCaller()
	asked := make(chan struct{}, 4)
	copts := &sdk.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		asked <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	for _, version := range protocols {
		t.Run(version, func(t *testing.T) {
			cs := connectClient(t, Options{Caller: c}, copts, version)
			// The client gives up once the person is asked (a fixed 300 ms
			// could end, on a loaded machine, before the question came).
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			wasAsked := make(chan bool, 1)
			go func() { // ends at the question or when the call's time is up
				select {
				case <-asked:
					wasAsked <- true
					cancel()
				case <-ctx.Done():
					wasAsked <- false
				}
			}()
			_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "click", Arguments: map[string]any{"target": "e4"}})
			if err == nil {
				t.Fatal("the call returned without an answer")
			}
			if !<-wasAsked {
				t.Error("the person was never asked")
			}
			for _, a := range actsSeen(t, c) {
				if a.Approve != nil || a.Submits != SubmitsAsk {
					t.Errorf("pressed with %+v", a)
				}
			}
			if got, isErr, _ := callTool(t, cs, "snapshot", map[string]any{}); isErr {
				t.Errorf("the server stopped serving the client: %s", got)
			}
		})
	}
}

// TestClientCannotNameAnothersOwnSession: an HTTP client that names a
// session like the ones the server gives its clients (another client's
// own, which would be closed under it, and which it would drive) is
// refused; a name of its own is shared as asked.
func TestClientCannotNameAnothersOwnSession(t *testing.T) {
	addr := serveHTTP(t, Options{Caller: &fakeCaller{reply: snapshotReply}})
	for _, tt := range []struct {
		session string
		ok      bool
	}{
		{"mcp-0a1b2c3d", false},
		{"MCP-0A1B2C3D", false},
		{"mcp-shared", true},
		{"mcp-0a1b2c3d4", true},
		{"", true},
	} {
		status := postInitialize(t, "http://"+addr+"/mcp?session="+tt.session, "", "")
		if got := status == http.StatusOK; got != tt.ok {
			t.Errorf("session %q: status %d, want allowed=%v", tt.session, status, tt.ok)
		}
	}
}
