package adversarial

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/mcp"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// Attacks on compositions the other files do not try (the adversary lane,
// after issue 27): a secret the page spells as JavaScript does rather than
// as Go does, a secret the page makes a key of a map, a held send whose
// approval is the data of an error, and a commit behind a confirm dialog
// that a later call answers.

// jsSecret is a passphrase with the characters JavaScript's encoders and
// Go's spell differently: "!'()*" which encodeURIComponent leaves and
// url.QueryEscape and url.PathEscape escape, and "~" which a form's
// urlencoded body (URLSearchParams) escapes and Go leaves.
const jsSecret = "correct horse (battery) staple!~*"

// jsSpellings are the forms of v a page writes with JavaScript.
var jsSpellings = map[string]string{
	"encodeURIComponent": "encodeURIComponent(v)",
	"encodeURI":          "encodeURI(v)",
	"URLSearchParams":    "new URLSearchParams({v}).toString().slice(2)",
	"escape":             "escape(v)",
}

// A value typed by form fill --secret that the page spells with its own
// encoders (encodeURIComponent, encodeURI, URLSearchParams,
// escape) in its URL, its requests and its console: masked in a look, the
// network log and the console as Go's own spellings are. Before, only the
// spellings Go's url package makes were known, and a password with a "!"
// sent by encodeURIComponent was raw in the network log.
func TestSecretSpelledByJavaScriptIsMasked(t *testing.T) {
	t.Parallel()
	var script strings.Builder
	for name, expr := range jsSpellings {
		script.WriteString("  fetch('/spell/" + name + "?v=' + " + expr + ");\n")
		script.WriteString("  console.log('" + name + " ' + " + expr + ");\n")
	}
	srv := NewServer(t, map[string]string{"/profile": `<!doctype html><title>Profile</title>
<form onsubmit="return false"><label>Memo <input name=memo id=memo></label></form>
<script>
memo.addEventListener('change', () => {
  const v = memo.value;
` + script.String() + `  history.replaceState({}, '', '/profile?m=' + encodeURIComponent(v));
  document.title = 'Saved ' + encodeURIComponent(v);
});
</script>`})
	s, ctx := secretSession(t, srv.URL("/profile"))
	if _, err := s.FillForm(ctx, calls.FormFillRequest{Secrets: map[string]string{"memo": jsSecret}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for srv.Count("", "") < len(jsSpellings)+1 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	waitConsole(t, s, ctx, "escape ")
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	con, _ := s.Console(ctx, calls.ConsoleRequest{})
	netw, _ := s.Network(ctx, calls.NetworkRequest{})
	texts := map[string]string{
		"a look":          snap.Text + snap.Title + snap.URL,
		"the console":     jsonOf(con),
		"the network log": jsonOf(netw),
	}
	// What the server got is each spelling as the page made it: the
	// test's list of what must not come back.
	var got []string
	for _, r := range srv.Requests() {
		if strings.HasPrefix(r.Path, "/spell/") {
			got = append(got, strings.TrimPrefix(r.Query, "v="))
		}
	}
	if len(got) < len(jsSpellings) {
		t.Fatalf("the page sent %d spellings, want %d: %v", len(got), len(jsSpellings), srv.Requests())
	}
	for _, spelled := range append(got, jsSecret) {
		for what, text := range texts {
			if strings.Contains(text, spelled) {
				t.Errorf("%s holds the secret spelled %q: …%s…", what, spelled, around(text, spelled))
			}
		}
	}
}

// A value typed as a secret that the page keeps as the key of its
// storage (localStorage.setItem(value, …)): storage list, whose reply is
// a map by key, masks the key as it masks a value. Before, a reply's
// strings were masked and its map keys were not.
func TestSecretAsAMapKeyIsMasked(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/profile": `<!doctype html><title>Profile</title>
<label>Memo <input name=memo id=memo></label>
<script>memo.addEventListener('change', () => { localStorage.setItem(memo.value, 'seen'); localStorage.setItem('draft', memo.value) })</script>`})
	s, ctx := secretSession(t, srv.URL("/profile"))
	if _, err := s.FillForm(ctx, calls.FormFillRequest{Secrets: map[string]string{"memo": typedSecret}}); err != nil {
		t.Fatal(err)
	}
	var items *calls.StorageItems
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var err error
		if items, err = s.Storage(ctx, calls.StorageRequest{Area: "local"}); err != nil {
			t.Fatal(err)
		}
		if len(items.Items) >= 2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(items.Items) < 2 {
		t.Fatalf("the page stored %d items: %v", len(items.Items), items.Items)
	}
	noSpelling(t, typedSecret, map[string]string{"storage list": jsonOf(items)})
	if items.Items["«secret:memo»"] != "seen" {
		t.Errorf("the masked key does not hold what the page stored: %v", items.Items)
	}
}

// A value typed as a secret that a page's script then sends in a POST's
// URL (its path and its query), behind a control whose words do not
// commit, on a page that put it in its own URL too: the gate holds the send, and the approval the needs_approval
// error carries (the data a CLI --json envelope and an MCP reply print,
// and a batch row's journal keeps) names the request with the secret's
// mark, not its value. Sent back unchanged, the approval lets that send
// through, once.
func TestHeldSendApprovalMasksTheSecret(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/profile": `<!doctype html><title>Profile</title>
<label>Memo <input name=memo id=memo></label>
<button id=go onclick="fetch('/pay/' + encodeURIComponent(memo.value) + '?memo=' + encodeURIComponent(memo.value), {method: 'POST', body: 'x=1'})">Next</button>
<script>memo.addEventListener('change', () => history.replaceState({}, '', '/profile?m=' + encodeURIComponent(memo.value)))</script>`})
	s, ctx := secretSession(t, srv.URL("/profile"))
	if _, err := s.FillForm(ctx, calls.FormFillRequest{Secrets: map[string]string{"memo": typedSecret}}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#go", Submits: "ask"})
	a := approvalOf(err)
	if a == nil {
		t.Fatalf("want needs_approval, got %v", err)
	}
	if n := srv.Sent(); n != 0 {
		t.Fatalf("%d sends reached the server before approval", n)
	}
	noSpelling(t, typedSecret, map[string]string{"the approval": jsonOf(a), "the error": err.Error()})
	if !strings.Contains(a.Sends, "«secret:memo»") {
		t.Errorf("the approval's request does not name the secret: %q", a.Sends)
	}
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#go", Submits: "ask", Approve: a}); err != nil {
		t.Fatalf("the approved click: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for srv.Sent() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := srv.Count("POST", "/pay/"+typedSecret); n != 1 {
		t.Errorf("the approved send reached the server %d times, want 1: %v", n, srv.Requests())
	}
}

// A control whose words do not commit opens a confirm dialog ("Delete
// your account for good?"), and accepting it sends the delete. With
// submits "ask", the accept is a commit like the click of a "Delete"
// button: the dialog call answers needs_approval and nothing reaches the
// server. Before, the click passed (it sent nothing yet) and the dialog
// call, which no gate watched, sent the delete: a CLI `dialog accept` or
// an MCP client's `dialog` tool confirmed with no person asked.
func TestConfirmDialogThatSendsNeedsApproval(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/account": `<!doctype html><title>Account</title>
<button id=more onclick="if (confirm('Delete your account for good?')) fetch('/account/remove', {method: 'POST', body: 'id=7'})">More</button>`})
	s, ctx := secretSession(t, srv.URL("/account"))
	out, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#more", Submits: "ask"})
	if err != nil {
		t.Fatalf("the click: %v", err)
	}
	if out.Dialog == nil {
		t.Fatalf("no dialog after the click: %+v", out)
	}
	_, err = s.Dialog(ctx, calls.DialogRequest{Accept: true, Submits: "ask"})
	a := approvalOf(err)
	if a == nil {
		t.Fatalf("accepting the confirm: want needs_approval, got %v", err)
	}
	// Dismissing is no commit, and leaves the page usable.
	if _, err := s.Dialog(ctx, calls.DialogRequest{Submits: "ask"}); err != nil && !errors.Is(err, calls.ErrNoDialog) {
		t.Errorf("dismissing the dialog: %v", err)
	}
	if _, err := s.Eval(ctx, calls.EvalRequest{Expression: "fetch('/done').then(r => r.status)"}); err != nil {
		t.Fatal(err)
	}
	if n := srv.Count("POST", "/account/remove"); n != 0 {
		t.Fatalf("%d deletes reached the server without approval", n)
	}
	// The approval, as its hint says: open the dialog again, accept it
	// with the approval; the delete goes once.
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#more", Submits: "ask"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Dialog(ctx, calls.DialogRequest{Accept: true, Submits: "ask", Approve: a}); err != nil {
		t.Fatalf("the approved accept: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for srv.Count("POST", "/account/remove") == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := srv.Count("POST", "/account/remove"); n != 1 {
		t.Errorf("the approved delete reached the server %d times, want 1", n)
	}
}

// The same confirm, through the MCP tools an agent has (click, then
// dialog): a client that cannot ask its person gets the accept refused,
// and the delete never reaches the server; a client that asks gets its
// person's yes, and the delete goes once, when the agent opens the dialog
// again and accepts it. Before, the dialog tool had no gate: the agent
// confirmed the delete itself.
func TestConfirmDialogOverMCPIsNotTheAgents(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/account": `<!doctype html><title>Account</title>
<button id=more onclick="if (confirm('Delete your account for good?')) fetch('/account/remove', {method: 'POST', body: 'id=7'})">More</button>`})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	connect := func(session string, p *asker) func(name string, args map[string]any) *sdk.CallToolResult {
		st, ct := sdk.NewInMemoryTransports()
		ss, err := mcp.New(mcp.Options{Caller: m, Session: session}).Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs := agentClient(t, ctx, ct, p)
		t.Cleanup(func() { _ = cs.Close(); _ = ss.Wait() })
		return func(name string, args map[string]any) *sdk.CallToolResult {
			t.Helper()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return res
		}
	}
	removes := func() int { return srv.Count("POST", "/account/remove") }
	opened := func(call func(string, map[string]any) *sdk.CallToolResult, what string) {
		t.Helper()
		if res := call("click", map[string]any{"target": "css=#more"}); res.IsError {
			t.Fatalf("%s: click: %s", what, toolText(res))
		}
	}

	// A client that cannot ask.
	call := connect("confirm", nil)
	if res := call("navigate", map[string]any{"url": srv.URL("/account")}); res.IsError {
		t.Fatalf("navigate: %s", toolText(res))
	}
	opened(call, "no asking")
	res := call("dialog", map[string]any{"accept": true})
	if _, err := m.Handle(ctx, "confirm", calls.MethodEval, json.RawMessage(`{"expression": "fetch('/done').then(r => r.status)"}`)); err != nil {
		t.Fatal(err)
	}
	if n := removes(); n != 0 {
		t.Fatalf("the agent's accept sent the delete %d times", n)
	}
	if !res.IsError || !strings.Contains(toolText(res), "approval") {
		t.Errorf("want the accept refused for want of approval:\n%s", toolText(res))
	}

	// A client that asks its person, who says yes.
	p := &asker{answer: "accept"}
	call = connect("confirm-asked", p)
	if res := call("navigate", map[string]any{"url": srv.URL("/account")}); res.IsError {
		t.Fatalf("navigate: %s", toolText(res))
	}
	opened(call, "asked")
	res = call("dialog", map[string]any{"accept": true})
	if p.count() != 1 || removes() != 0 {
		t.Fatalf("asked %d times, %d deletes, want 1 and 0: %s", p.count(), removes(), toolText(res))
	}
	opened(call, "asked, again")
	if res := call("dialog", map[string]any{"accept": true}); res.IsError {
		t.Fatalf("the approved accept: %s", toolText(res))
	}
	deadline := time.Now().Add(10 * time.Second)
	for removes() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := removes(); n != 1 || p.count() != 1 {
		t.Errorf("the person's yes: %d deletes and %d questions, want 1 and 1", n, p.count())
	}
}

// A prompt that asks for a secret (a PIN, a passphrase) is typed into
// through the registry like any field: dialog accept with a secret's name
// registers the answer before it is given, and the page's echo of it (its
// title, its text, a request) is masked in every later output. Before,
// a prompt's answer had no way into the registry: the page echoed it raw.
func TestPromptAnswerTypedAsASecret(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/unlock": `<!doctype html><title>Vault</title>
<button id=open onclick="const v = prompt('Your passphrase?'); if (v) { document.title = 'Unlocked by ' + v; out.textContent = 'you said ' + v; fetch('/check?p=' + encodeURIComponent(v)) }">Open</button>
<p id=out></p>`})
	s, ctx := secretSession(t, srv.URL("/unlock"))
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#open"}); err != nil {
		t.Fatal(err)
	}
	out, err := s.Dialog(ctx, calls.DialogRequest{Accept: true, Text: typedSecret, Secret: "phrase"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for srv.Count("GET", "/check") == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	netw, _ := s.Network(ctx, calls.NetworkRequest{})
	if !strings.Contains(snap.Title, "«secret:phrase»") {
		t.Errorf("the page did not echo the answer, or its echo is not named: %q", snap.Title)
	}
	noSpelling(t, typedSecret, map[string]string{
		"the dialog's reply": jsonOf(out),
		"a look":             snap.Text + snap.Title,
		"the network log":    jsonOf(netw),
	})
}
