package mcp

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/internal/signinsite"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// TestBrowserAPICallRelogin: MCP's api_call by a recipe file that names a
// sign-in routine (relogin) meets an expired session: the routine, found
// next to the recipe and read through the approval authority, signs in
// once with the password the person gave the server (never in a reply)
// and the call is made again. The client chose the username, so the
// person's approval of Sign in does not hold: the person is asked, and a
// client that cannot ask signs in not at all. A valid session calls once;
// a site refusing every session gets one sign-in and two calls, then
// auth; a relogin outside the working folder is refused; replay's api
// steps sign in the same way. Counted at the server, over MCP.
func TestBrowserAPICallRelogin(t *testing.T) {
	const password = "Tr0ub4dor-and-3"
	site := signinsite.New(password, "ann.lee")
	srv := httptest.NewServer(site)
	defer srv.Close()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()
	t.Chdir(dir) // the tools read files in the working folder only (files.go)
	auth := approval.New(t.TempDir())

	// The sign-in routine, recorded by hand; saving it granted its Sign
	// in (as record stop does).
	rec := calls.Remote{Caller: m, Session: "record-signin"}
	defer func() { _ = rpc.Daemon{Caller: m, Session: rec.Session}.CloseSession(context.Background()) }()
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(rec.RecordStart(ctx, calls.RecordStartRequest{Name: "signin"}))
	if err := signinsite.SignIn(ctx, rec, srv.URL, "ann.lee", password); err != nil {
		t.Fatal(err)
	}
	recorded, err := rec.RecordStop(ctx, calls.RecordStopRequest{Name: "signin"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "signin.json"), recorded.Routine, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := auth.Grant(filepath.Join(dir, "signin.json"), "record stop"); err != nil {
		t.Fatal(err)
	}
	recipe := fmt.Sprintf(`{"format": "waymark.api/1", "site": %q, "page": %q, "relogin": "signin.json",
 "request": {"method": "GET", "url": %q}, "rows": "/items", "fields": [{"name": "name", "path": "/name"}]}`,
		srv.URL, srv.URL+"/items", srv.URL+"/api/items")
	if err := os.WriteFile(filepath.Join(dir, "items.api.json"), []byte(recipe), 0o644); err != nil {
		t.Fatal(err)
	}
	site.Take()

	const session = "mcp-relogin"
	replayer := func(ctx context.Context, s string, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		return replay.Run(ctx, calls.Remote{Caller: m, Session: s}, r, o)
	}
	opts := Options{Caller: m, Session: session, SiteTools: true, Approvals: auth,
		Secrets: map[string]secret.Value{"password": secret.New("password", password)},
		Extra:   []func(*sdk.Server){PilotTools(nil, replayer, PilotOptions{Session: session, Approvals: auth})}}
	p := &person{answer: "accept"}
	asker := connectClient(t, opts, p.options(), "2025-06-18") // asks its person mid-call
	mute := connectClient(t, opts, nil, "")                    // cannot ask
	call := func(cs *sdk.ClientSession, name string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := resultText(res)
		if strings.Contains(text, password) {
			t.Errorf("%s's reply holds the password:\n%s", name, text)
		}
		return text, res.IsError
	}
	if _, isErr := call(asker, "navigate", map[string]any{"url": srv.URL + "/items"}); isErr {
		t.Fatal("navigate failed")
	}
	vars := map[string]any{"username": "ann.lee", "device_name": "kitchen-laptop-7"}
	apiCall := map[string]any{"recipe": "items.api.json", "vars": vars}

	// Signed out: one sign-in, put to the person; two calls.
	text, isErr := call(asker, "api_call", apiCall)
	logins, n := site.Take()
	if isErr || logins != 1 || n != 2 || !strings.Contains(text, `"Chair"`) || !strings.Contains(text, "signed in again by signin.json") {
		t.Fatalf("signed out: the server saw %d sign-in(s) and %d call(s), want 1 and 2; isError=%v\n%s", logins, n, isErr, text)
	}
	if len(p.asked) != 1 || !strings.Contains(p.asked[0], "Sign in") || strings.Contains(p.asked[0], password) {
		t.Errorf("the person was asked %q", p.asked)
	}

	// Signed in: one call, no sign-in, no question.
	text, isErr = call(asker, "api_call", apiCall)
	if logins, n := site.Take(); isErr || logins != 0 || n != 1 || len(p.asked) != 1 {
		t.Fatalf("signed in: the server saw %d sign-in(s) and %d call(s), want 0 and 1; asked %d; isError=%v\n%s", logins, n, len(p.asked), isErr, text)
	}

	// A client that cannot ask its person cannot have the Sign in it
	// chose the values of pressed.
	site.Expire()
	text, isErr = call(mute, "api_call", apiCall)
	if logins, n := site.Take(); !isErr || logins != 0 || n != 1 || !strings.Contains(text, "api auth") {
		t.Fatalf("a client that cannot ask: the server saw %d sign-in(s) and %d call(s), want 0 and 1; isError=%v\n%s", logins, n, isErr, text)
	}

	// A relogin outside the working and routines folders is not read.
	outside := strings.Replace(recipe, `"signin.json"`, `"../signin.json"`, 1)
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "signin.json"), recorded.Routine, 0o644); err != nil {
		t.Fatal(err)
	}
	text, isErr = call(asker, "api_call", map[string]any{"recipe": outside, "vars": vars})
	if logins, n := site.Take(); !isErr || logins != 0 || n != 1 || !strings.Contains(text, "outside") {
		t.Fatalf("a relogin outside: the server saw %d sign-in(s) and %d call(s), want 0 and 1; isError=%v\n%s", logins, n, isErr, text)
	}

	// A replay's api step signs in the same way, next to the routine.
	routineJSON := fmt.Sprintf(`{"format": "waymark.routine/1", "name": "items", "version": 1,
 "steps": [{"id": "items", "kind": "api", "into": "items", "api": %s}]}`, recipe)
	if err := os.WriteFile(filepath.Join(dir, "items.json"), []byte(routineJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	text, isErr = call(asker, "replay", map[string]any{"routine": "items.json", "vars": vars})
	if logins, n := site.Take(); isErr || logins != 1 || n != 2 || !strings.Contains(text, "signed in again by signin.json") {
		t.Fatalf("replay: the server saw %d sign-in(s) and %d call(s), want 1 and 2; isError=%v\n%s", logins, n, isErr, text)
	}
	if len(p.asked) != 2 {
		t.Errorf("the replay's sign-in: the person was asked %d time(s) in all, want 2", len(p.asked))
	}

	// A site that refuses every session: one sign-in, two calls, auth.
	site.Refuse(true)
	text, isErr = call(asker, "api_call", apiCall)
	if logins, n := site.Take(); !isErr || logins != 1 || n != 2 || !strings.Contains(text, "after signing in again by signin.json") {
		t.Fatalf("refusing: the server saw %d sign-in(s) and %d call(s), want 1 and 2; isError=%v\n%s", logins, n, isErr, text)
	}
}
