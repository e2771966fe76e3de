package adversarial

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/mcp"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// Only a person approves a submit. A routine's recorded approval
// ("approved" on a step) is a person's only when it comes from the file
// that person saved, unchanged: an MCP client that sends a routine of its
// own, with the approval copied in and the values changed (or not), gets
// no press without a person; a saved file edited after saving asks again;
// and the MCP tools that read a host file read only the routines folder
// and the working folder, never echoing what they found elsewhere.

// shopPage is a checkout: the email typed, a hidden amount, Place order
// posts it all to /order.
const shopPage = `<!doctype html><title>Checkout</title><h1>Checkout</h1>
<form method=post action=/order>
<input type=hidden name=amount value=10>
<label>Email <input name=email></label>
<button id=pay>Place order</button>
</form>`

// shopRoutine is the routine a person recorded on shopPage, typing email,
// with the approval of their press of Place order (approvedJSON).
func shopRoutine(url, email, approvedJSON string) string {
	return fmt.Sprintf(`{"format": "waymark.routine/1", "name": "order", "version": 1, "steps": [
  {"id": "open", "kind": "goto", "url": %q, "landed": {"path": "/checkout"}},
  {"id": "email", "kind": "act", "op": "fill",
   "target": {"locator": "label=Email", "fingerprint": {"role": "textbox", "name": "email"}},
   "value": {"literal": %q}},
  {"id": "pay", "kind": "act", "op": "click",
   "target": {"locator": "role=button[name=\"Place order\"]", "fingerprint": {"role": "button", "name": "place order"}},
   "approved": %s}]}
`, url, email, approvedJSON)
}

// shopApproval is the approval of a person's press of Place order on the
// shop's checkout, as recording by hand keeps it.
func shopApproval(t *testing.T, srv *Server) string {
	t.Helper()
	s, ctx := session(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/checkout")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Email", Value: "ann@example.com"}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#pay", Submits: "ask"})
	a := approvalOf(err)
	if a == nil {
		t.Fatalf("the gate gave no approval: %v", err)
	}
	b, _ := json.Marshal(routine.ApprovedOf(*a))
	return string(b)
}

// asker is an MCP client's person: it answers every elicitation with
// answer and counts them.
type asker struct {
	answer string
	mu     sync.Mutex
	asked  int
}

func (p *asker) options() *sdk.ClientOptions {
	return &sdk.ClientOptions{ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		p.mu.Lock()
		p.asked++
		p.mu.Unlock()
		res := &sdk.ElicitResult{Action: p.answer}
		if p.answer == "accept" {
			res.Content = map[string]any{}
		}
		return res, nil
	}}
}

func (p *asker) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.asked
}

// mcpClient connects an MCP client (asking p; nil: a client that cannot
// ask) to a waymark MCP server whose replay runs on s, asking auth about
// routine files, and whose site tools are on; it returns its tool call.
// agentClient connects the agent's MCP client on ct; with p, a client
// that asks its person within the call (the protocol before 2026-07-28).
func agentClient(t *testing.T, ctx context.Context, ct sdk.Transport, p *asker) *sdk.ClientSession {
	t.Helper()
	var copts *sdk.ClientOptions
	var so *sdk.ClientSessionOptions
	if p != nil {
		copts, so = p.options(), &sdk.ClientSessionOptions{ProtocolVersion: "2025-06-18"}
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "v0"}, copts).Connect(ctx, ct, so)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func mcpClient(t *testing.T, s *driver.Session, p *asker, auth *approval.Authority) func(name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	return mcpClientWith(t, s, p, auth, nil)
}

// mcpClientWith is mcpClient whose replays run with the options wrap
// makes of the server's (nil: as they are).
func mcpClientWith(t *testing.T, s *driver.Session, p *asker, auth *approval.Authority, wrap func(replay.Options) replay.Options) func(name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	replayer := func(ctx context.Context, _ string, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		o.CheckTimeout = -1
		if wrap != nil {
			o = wrap(o)
		}
		return replay.Run(ctx, s, r, o)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	st, ct := sdk.NewInMemoryTransports()
	ss, err := mcp.New(mcp.Options{Session: "approval", SiteTools: true,
		Extra: []func(*sdk.Server){mcp.PilotTools(nil, replayer, mcp.PilotOptions{Session: "approval", ActOnly: true, Approvals: auth})}}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := agentClient(t, ctx, ct, p)
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
		cancel()
	})
	return func(name string, args map[string]any) *sdk.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
}

func toolText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestApprovalInlineRoutineIsNotAPerson: an MCP client sends the routine
// as JSON with the person's approval copied in. Changed values (the
// agent's own recipient) or not, nothing reaches /order unless a person
// says yes then and there.
func TestApprovalInlineRoutineIsNotAPerson(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/checkout": shopPage, "/order": "<title>ordered</title>"})
	ap := shopApproval(t, srv)
	for _, tt := range []struct {
		name   string
		email  string
		person *asker // nil: the client cannot ask
		orders int    // POST /order the server may receive
	}{
		{"values changed by the agent", "mallory@evil.example", nil, 0},
		{"values as recorded", "ann@example.com", nil, 0},
		{"values changed, the person declines", "mallory@evil.example", &asker{answer: "decline"}, 0},
		{"values as recorded, the person accepts", "ann@example.com", &asker{answer: "accept"}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := session(t)
			call := mcpClient(t, s, tt.person, approval.New(t.TempDir()))
			var inline map[string]any
			if err := json.Unmarshal([]byte(shopRoutine(srv.URL("/checkout"), tt.email, ap)), &inline); err != nil {
				t.Fatal(err)
			}
			srv.Reset()
			res := call("replay", map[string]any{"routine": inline})
			text := toolText(res)
			if got := srv.Count("POST", "/order"); got != tt.orders {
				t.Fatalf("%d orders reached the server (want %d): %v\n%s", got, tt.orders, srv.Requests(), text)
			}
			if tt.person != nil && tt.person.count() != 1 {
				t.Errorf("the person was asked %d times, want once", tt.person.count())
			}
			if tt.orders == 0 && (!res.IsError || !strings.Contains(text, "needs-approval")) {
				t.Errorf("want a needs-approval stop, got:\n%s", text)
			}
		})
	}
}

// TestApprovalSavedFileEditedAsksAgain: the person saved the routine with
// their approval; then a byte of its values changed (the recipient). The
// replay asks again, nothing sent; the file as saved is pressed with no
// one asked.
func TestApprovalSavedFileEditedAsksAgain(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/checkout": shopPage, "/order": "<title>ordered</title>"})
	ap := shopApproval(t, srv)
	auth := approval.New(t.TempDir())
	file := saveAsRecorded(t, auth, shopRoutine(srv.URL("/checkout"), "ann@example.com", ap))
	// As the CLI's replay does: the file and the authority's word on it.
	replayFile := func(t *testing.T) *replay.Result {
		t.Helper()
		r, trust, err := auth.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		s, ctx := session(t)
		srv.Reset()
		res, err := replay.Run(ctx, s, r, replay.Options{CheckTimeout: -1, Submits: replay.SubmitsAsk, Approvals: trust})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	t.Run("as saved", func(t *testing.T) {
		res := replayFile(t)
		if res.Status != replay.StatusOK || srv.Count("POST", "/order") != 1 {
			t.Fatalf("the saved file: %s %q, %v", res.Status, res.Message, srv.Requests())
		}
	})
	t.Run("a value edited", func(t *testing.T) {
		b, _ := os.ReadFile(file)
		edited := strings.Replace(string(b), "ann@example.com", "mallory@evil.example", 1)
		if err := os.WriteFile(file, []byte(edited), 0o600); err != nil {
			t.Fatal(err)
		}
		res := replayFile(t)
		if srv.Count("POST", "/order") != 0 {
			t.Fatalf("the edited file's order reached the server: %v", srv.Requests())
		}
		want := "changed after it was saved: step email (steps[1]) changed; check it, then approve it again with `waymark routine approve " + file + "`"
		if res.Cause != replay.CauseNeedsApproval || !strings.Contains(res.Message, want) {
			t.Errorf("replay %s %s %q, want needs-approval saying %q", res.Status, res.Cause, res.Message, want)
		}
	})
}

// TestApprovalMCPReplaysAPersonsFile: an MCP client names the routine
// file a person saved, in the working folder: its approval is the
// person's, pressed with no one asked. Once the agent edits the file (the
// recipient), it is not: the replay stops as needs-approval, nothing sent.
func TestApprovalMCPReplaysAPersonsFile(t *testing.T) {
	// Not parallel: it changes the working folder (t.Chdir).
	srv := NewServer(t, map[string]string{"/checkout": shopPage, "/order": "<title>ordered</title>"})
	ap := shopApproval(t, srv)
	auth := approval.New(t.TempDir())
	file := saveAsRecorded(t, auth, shopRoutine(srv.URL("/checkout"), "ann@example.com", ap))
	t.Chdir(filepath.Dir(file))
	s, _ := session(t)
	call := mcpClient(t, s, nil, auth)
	srv.Reset()
	if res := call("replay", map[string]any{"routine": "order.json"}); res.IsError || srv.Count("POST", "/order") != 1 {
		t.Fatalf("the person's file: %v\n%s", srv.Requests(), toolText(res))
	}
	b, _ := os.ReadFile(file)
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), "ann@example.com", "mallory@evil.example", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	srv.Reset()
	res := call("replay", map[string]any{"routine": "order.json"})
	if n := srv.Count("POST", "/order"); n != 0 {
		t.Fatalf("the edited file's order reached the server %d times: %v", n, srv.Requests())
	}
	if text := toolText(res); !res.IsError || !strings.Contains(text, "needs-approval") || !strings.Contains(text, "waymark routine approve") {
		t.Errorf("want a needs-approval stop saying how to approve again:\n%s", text)
	}
	// The person's file types a variable: the agent's value for it is not
	// what the person approved.
	withVar := strings.Replace(shopRoutine(srv.URL("/checkout"), "", ap), `"value": {"literal": ""}`, `"value": {"from": "input", "slot": "email"}`, 1)
	withVar = strings.Replace(withVar, `"version": 1,`, `"version": 1, "variables": [{"name": "email"}],`, 1)
	vfile := saveAsRecorded(t, auth, withVar)
	if r, trust, err := auth.Load(vfile); err != nil || !trust.Holds(r) {
		t.Fatalf("the person's file with a variable: %v", err)
	}
	t.Chdir(filepath.Dir(vfile))
	srv.Reset()
	res = call("replay", map[string]any{"routine": "order.json", "vars": map[string]any{"email": "mallory@evil.example"}})
	if n := srv.Count("POST", "/order"); n != 0 {
		t.Fatalf("the agent's values were ordered %d times: %v", n, srv.Requests())
	}
	if text := toolText(res); !res.IsError || !strings.Contains(text, "values of its variables came from the MCP client (email)") {
		t.Errorf("want a needs-approval stop naming the agent's values:\n%s", text)
	}
}

// saveAsRecorded writes the routine rt as record stop does: the file,
// and the authority's record of the person's approval of it.
func saveAsRecorded(t *testing.T, auth *approval.Authority, rt string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "order.json")
	r, err := routine.Parse([]byte(rt))
	if err != nil {
		t.Fatal(err)
	}
	if err := routine.Save(file, r, nil); err != nil {
		t.Fatal(err)
	}
	if err := auth.Grant(file, "record stop"); err != nil {
		t.Fatal(err)
	}
	return file
}

// savedByPerson saves rt as record stop does and loads it back as the
// CLI's replay does.
func savedByPerson(t *testing.T, rt string) (*routine.Routine, *approval.Trust) {
	t.Helper()
	auth := approval.New(t.TempDir())
	r, trust, err := auth.Load(saveAsRecorded(t, auth, rt))
	if err != nil {
		t.Fatal(err)
	}
	return r, trust
}

// TestApprovalMCPPathsStayInTheirFolders: replay and api_call read a
// host file only in the working folder or the routines folder; ../, an
// absolute path elsewhere and a symlink out are refused as bad input,
// and nothing of the file they name is said.
func TestApprovalMCPPathsStayInTheirFolders(t *testing.T) {
	root := t.TempDir()
	work, outside, data := filepath.Join(root, "work"), filepath.Join(root, "outside"), filepath.Join(root, "data")
	for _, d := range []string{work, outside, filepath.Join(data, "waymark", "routines")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	const leak = "leak-7c1e-private"
	if err := os.WriteFile(filepath.Join(outside, "secret.json"), []byte(`{"format": "`+leak+`", "name": "`+leak+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(work, "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(work, "out")); err != nil {
		t.Fatal(err)
	}
	srv := NewServer(t, map[string]string{"/checkout": shopPage})
	ok := `{"format": "waymark.routine/1", "name": "look", "version": 1, "steps": [{"kind": "goto", "url": "` + srv.URL("/checkout") + `"}]}`
	if err := os.WriteFile(filepath.Join(work, "look.json"), []byte(ok), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "waymark", "routines", "saved.json"), []byte(ok), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	t.Setenv("XDG_DATA_HOME", data)
	s, _ := session(t)
	call := mcpClient(t, s, nil, approval.New(t.TempDir()))
	for _, tool := range []struct{ name, arg string }{{"replay", "routine"}, {"api_call", "recipe"}} {
		for _, path := range []string{
			"../outside/secret.json",
			filepath.Join(outside, "secret.json"),
			"link.json",
			"out/secret.json",
			"look.json/../../outside/secret.json",
			"/etc/passwd",
		} {
			t.Run(tool.name+" "+path, func(t *testing.T) {
				res := call(tool.name, map[string]any{tool.arg: path})
				text := toolText(res)
				if !res.IsError || !strings.Contains(text, "code: bad_input") || !strings.Contains(text, "reads only the working folder and the routines folder") {
					t.Errorf("%s %q was not refused as bad input:\n%s", tool.name, path, text)
				}
				if strings.Contains(text, leak) || strings.Contains(text, "root:") {
					t.Errorf("%s %q said what the file holds:\n%s", tool.name, path, text)
				}
			})
		}
	}
	// Inside the folders, a routine file is read and replayed.
	for _, path := range []string{"look.json", filepath.Join(work, "look.json"), filepath.Join(data, "waymark", "routines", "saved.json")} {
		srv.Reset()
		if res := call("replay", map[string]any{"routine": path}); res.IsError || srv.Count("GET", "/checkout") != 1 {
			t.Errorf("replay %q: %s (%v)", path, toolText(res), srv.Requests())
		}
	}
}
