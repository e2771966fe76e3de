package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/signinsite"
)

// TestRowsSignInAgain: a routine whose api step's recipe names a sign-in
// routine (relogin), run as a batch. Each row's session starts signed
// out, so its call is refused; the row signs in once with its own values
// (the password a secret named by env: or file:, read where the worker
// runs) by the routine bundled at submit with its approval, and calls
// again. A row whose session is still signed in calls once; a site that
// refuses every session gets one sign-in and two calls, then the row
// stops as auth. The password is nowhere in the spec, the results or the
// journal. Counted at the server.
func TestRowsSignInAgain(t *testing.T) {
	const password = "Tr0ub4dor-and-3"
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	site := signinsite.New(password)
	srv := httptest.NewServer(site)
	defer srv.Close()
	m := browserManager(t)
	dir := t.TempDir()
	auth := approval.New(t.TempDir())

	// The sign-in routine, recorded by hand: the person pressed Sign in,
	// and saving the file granted it (as record stop does).
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
	signInPath := filepath.Join(dir, "signin.json")
	if err := os.WriteFile(signInPath, recorded.Routine, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := auth.Grant(signInPath, "record stop"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"username"`, `"device_name"`, `"approved"`} {
		if !strings.Contains(string(recorded.Routine), want) {
			t.Fatalf("the recorded sign-in has no %s:\n%s", want, recorded.Routine)
		}
	}
	site.Counts()

	// The routine: open the site, read its items by the API, signing in
	// again when refused.
	recipe := fmt.Sprintf(`{"format": "waymark.api/1", "site": %q, "page": %q, "relogin": "signin.json",
 "request": {"method": "GET", "url": %q, "query": [{"name": "row", "from": "var", "key": "id"}]},
 "rows": "/items", "fields": [{"name": "name", "path": "/name"}, {"name": "user", "path": "/user"}]}`,
		srv.URL, srv.URL+"/items", srv.URL+"/api/items")
	routinePath := filepath.Join(dir, "items.json")
	if err := os.WriteFile(routinePath, fmt.Appendf(nil, `{"format": "waymark.routine/1", "name": "items", "version": 1,
 "variables": [{"name": "id"}],
 "steps": [{"id": "open", "kind": "goto", "url": %q}, {"id": "items", "kind": "api", "into": "items", "api": %s}]}`, srv.URL+"/items", recipe), 0o644); err != nil {
		t.Fatal(err)
	}
	pwFile := filepath.Join(dir, "pw")
	if err := os.WriteFile(pwFile, []byte(password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	row := func(id, user, ref string) map[string]json.RawMessage {
		return map[string]json.RawMessage{"id": json.RawMessage(`"` + id + `"`), "username": json.RawMessage(`"` + user + `"`),
			"device_name": json.RawMessage(`"kitchen-laptop-7"`), "password": json.RawMessage(`{"secret": "` + ref + `"}`)}
	}

	e, _, _ := testEngine(t, EngineOptions{})
	// One session at a time, kept from row to row when the batch says so.
	startWorker(t, e, "relogin", []Endpoint{{Name: "local", Caller: m, Max: 1}}, WorkerOptions{Parallel: 1,
		Secrets: EnvSecrets(func(k string) string { return map[string]string{"SITE_PASSWORD": password}[k] })})
	var notes []string
	run := func(keep bool, rows ...map[string]json.RawMessage) []Result {
		t.Helper()
		var spec *Spec
		spec, notes, err = Bundle(auth, routinePath)
		if err != nil {
			t.Fatal(err)
		}
		spec.Submits, spec.KeepCookies, spec.Retries = "ask", keep, 2 // an auth stop is not retried
		if refs, err := RowRefs(spec, rows); err != nil || len(refs) == 0 {
			t.Errorf("the rows' secrets (handed over by the submitter): %v, %v", refs, err)
		}
		got, err := e.Submit(ctx, *spec, rows)
		if err != nil {
			t.Fatal(err)
		}
		waitDone(t, e, got.ID, time.Minute)
		res, err := e.Results(ctx, got.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			// A sign-in is no commit: a row that only signed in is not
			// held as uncertain if its worker dies.
			if _, err := e.journal.Get(ctx, rowKeyName(got.ID, r.N)); err == nil {
				t.Errorf("row %d's sign-in was journaled as a commit", r.N)
			}
			b, _ := json.Marshal(r)
			if strings.Contains(string(b), password) {
				t.Errorf("row %d's result holds the password: %s", r.N, b)
			}
		}
		raw, _ := e.specs.Get(ctx, got.ID)
		if raw == nil || strings.Contains(string(raw.Value()), password) {
			t.Errorf("the spec is missing or holds the password")
		}
		return res
	}

	// Each row starts signed out: one sign-in by its own user, two calls.
	res := run(false, row("r1", "ann.lee", "env:SITE_PASSWORD"), row("r2", "bob.ray", "file:"+pwFile))
	logins, calls := site.Counts()
	if len(notes) > 0 {
		t.Errorf("notes: %q", notes)
	}
	for i, r := range res {
		if r.Status != StatusOK || !strings.Contains(string(r.Data["items"]), `"Chair"`) {
			t.Errorf("row %d: %s %s: %s (%s)", r.N, r.Status, r.Cause, r.Message, r.Data["items"])
		}
		user := []string{"ann.lee", "bob.ray"}[i]
		if logins[user] != 1 || calls[fmt.Sprintf("r%d", i+1)] != 2 {
			t.Errorf("row %d: the server saw %d sign-in(s) by %s and %d call(s), want 1 and 2", r.N, logins[user], user, calls[fmt.Sprintf("r%d", i+1)])
		}
		if !strings.Contains(string(r.Data["items"]), user) {
			t.Errorf("row %d read another user's items: %s", r.N, r.Data["items"])
		}
	}
	if t.Failed() {
		t.Fatalf("sign-ins %v, calls %v", logins, calls)
	}

	// Kept cookies: the first row signs in, the second's session is
	// signed in already and calls once.
	site.Expire()
	res = run(true, row("k1", "ann.lee", "env:SITE_PASSWORD"), row("k2", "ann.lee", "env:SITE_PASSWORD"))
	logins, calls = site.Counts()
	if res[0].Status != StatusOK || res[1].Status != StatusOK || logins["ann.lee"] != 1 || calls["k1"] != 2 || calls["k2"] != 1 {
		t.Fatalf("kept cookies: %+v; sign-ins %v, calls %v (want 1 sign-in, 2 calls then 1)", res, logins, calls)
	}

	// A site that refuses every session: one sign-in, two calls, then
	// the row stops as auth, not in a loop.
	site.Refuse(true)
	res = run(false, row("x1", "ann.lee", "env:SITE_PASSWORD"))
	logins, calls = site.Counts()
	if r := res[0]; r.Status != StatusFailed || r.Cause != CauseAuth || r.Attempts != 1 || !strings.Contains(r.Message, "api auth") || !strings.Contains(r.Message, "after signing in again by signin.json") {
		t.Errorf("refused: %s %s after %d attempt(s): %s", r.Status, r.Cause, r.Attempts, r.Message)
	}
	if logins["ann.lee"] != 1 || calls["x1"] != 2 {
		t.Errorf("refused: the server saw sign-ins %v and calls %v, want 1 and 2", logins, calls)
	}

	t.Logf("refused: sign-ins %v, calls %v; %s", logins, calls, res[0].Message)

	// A sign-in routine changed since the person saved it carries no
	// approval: its Sign in is not pressed, and the row stops as auth.
	site.Refuse(false)
	if err := os.WriteFile(signInPath, append(recorded.Routine, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	res = run(false, row("u1", "ann.lee", "env:SITE_PASSWORD"))
	logins, calls = site.Counts()
	if len(notes) != 1 || !strings.Contains(notes[0], "signin.json") || res[0].Cause != CauseAuth || len(logins) != 0 || calls["u1"] != 1 {
		t.Errorf("an unapproved sign-in: notes %q; %s %s: %s; sign-ins %v, calls %v (want none and 1)", notes, res[0].Status, res[0].Cause, res[0].Message, logins, calls)
	}

	// Nothing the rows wrote in the journal holds the password.
	keys, err := e.journal.ListKeys(ctx)
	if err == nil {
		for k := range keys.Keys() {
			if ent, err := e.journal.Get(ctx, k); err == nil && strings.Contains(string(ent.Value()), password) {
				t.Errorf("journal %s holds the password", k)
			}
		}
	}
}
