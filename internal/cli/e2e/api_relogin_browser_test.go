package e2e

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

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/internal/signinsite"
	"github.com/waymark-dev/waymark/secret"
	"github.com/waymark-dev/waymark/siteapi"
)

// TestAPICallRelogin: a recipe that names a sign-in routine (relogin)
// meets an expired session: the routine runs once, in the same session,
// with its secret from the environment and its submit approved by the
// approval authority, and the call is made again. A site that refuses
// every session stops after one sign-in, with the cause. Counted at the
// server.
func TestAPICallRelogin(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	const password = "Tr0ub4dor-and-3"
	site := signinsite.New(password, "ann.lee")
	srv := httptest.NewServer(site)
	defer srv.Close()
	dir := t.TempDir()
	home := t.TempDir()
	env := map[string]string{"SITE_PASSWORD": password, "XDG_CONFIG_HOME": home, "XDG_STATE_HOME": home, "HOME": home, "WAYMARK_HOME": home}
	getenv := func(k string) string { return env[k] }

	recipe := fmt.Sprintf(`{"format": "waymark.api/1", "site": %q, "page": %q, "relogin": "signin.json",
 "request": {"method": "GET", "url": %q}, "rows": "/items", "fields": [{"name": "name", "path": "/name"}]}`,
		srv.URL, srv.URL+"/items", srv.URL+"/api/items")
	recipePath := filepath.Join(dir, "items.api.json")
	if err := os.WriteFile(recipePath, []byte(recipe), 0o644); err != nil {
		t.Fatal(err)
	}

	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	common, _, _ := clitest.NewCommon(m, true, false)
	common.Session = t.Name() // its own in the shared browser
	common.Getenv = getenv
	// The sign-in routine, recorded by hand as a person would: record
	// stop grants the Sign in button they pressed to the file.
	d := common.Remote()
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(d.RecordStart(ctx, calls.RecordStartRequest{Name: "sign in"}))
	if err := signinsite.SignIn(ctx, d, srv.URL, "ann.lee", password); err != nil {
		t.Fatal(err)
	}
	code, textOut, stderr, _ := runMain(t, ctx, noClose{m}, env, "--session", common.Session, "record", "stop", filepath.Join(dir, "signin.json"))
	if code != 0 {
		t.Fatalf("record stop: exit %d: %s", code, stderr)
	}
	// Every value typed (a fill's, a type's) is a variable named for its
	// field, printed beside, never in the file; the secret is masked.
	b, _ := os.ReadFile(filepath.Join(dir, "signin.json"))
	for _, v := range []string{"ann.lee", password, "kitchen-laptop-7"} {
		if strings.Contains(string(b), v) {
			t.Errorf("the routine file holds the typed value %q:\n%s", v, b)
		}
	}
	if !strings.Contains(string(b), `"approved"`) {
		t.Fatalf("the recorded sign-in has no approved submit:\n%s", b)
	}
	for _, line := range []string{"username=ann.lee\n", "password=" + secret.Masked + "\n", "device_name=kitchen-laptop-7\n"} {
		if !strings.Contains(textOut, line) {
			t.Errorf("record stop printed no %q:\n%s\n%s", line, textOut, b)
		}
	}
	if strings.Contains(textOut, password) {
		t.Errorf("record stop printed the password:\n%s", textOut)
	}
	if logins, n := site.Total(); logins != 1 || n != 0 {
		t.Fatalf("recording: the server saw %d sign-in(s) and %d call(s), want 1 and 0", logins, n)
	}
	site.Expire()
	var out string
	call := func() error {
		code, stdout, stderr, _ := runMain(t, ctx, noClose{m}, env, "--session", common.Session, "--json", "api", "call", recipePath,
			"--var", "username=ann.lee", "--var", "device_name=kitchen-laptop-7", "--secret", "password=env:SITE_PASSWORD", "--allow-submit")
		out = stdout
		if code != 0 {
			return fmt.Errorf("exit %d: %s%s", code, stdout, stderr)
		}
		return nil
	}

	// The session expired at the server: the call is refused, the
	// routine signs in, the call is made again.
	if err := call(); err != nil {
		t.Fatalf("call: %v\n%s", err, out)
	}
	if logins, n := site.Total(); logins != 2 || n != 2 {
		t.Fatalf("the server saw %d sign-in(s) and %d call(s), want 1 and 2", logins, n)
	}
	var env1 struct {
		Data struct {
			Rows    []map[string]any `json:"rows"`
			Relogin string           `json:"relogin"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &env1); err != nil || len(env1.Data.Rows) != 2 || env1.Data.Relogin == "" {
		t.Fatalf("output (%v):\n%s", err, out)
	}
	if strings.Contains(out, password) {
		t.Fatalf("the password is in the output:\n%s", out)
	}

	// Signed in, the call goes once; expired again, one sign-in, one
	// call again.
	if err := call(); err != nil {
		t.Fatalf("call signed in: %v\n%s", err, out)
	}
	if logins, n := site.Total(); logins != 2 || n != 3 {
		t.Fatalf("signed in, the server saw %d sign-in(s) and %d call(s) in all, want 2 and 3", logins, n)
	}
	site.Expire()
	if err := call(); err != nil {
		t.Fatalf("call after expiry: %v\n%s", err, out)
	}
	if logins, n := site.Total(); logins != 3 || n != 5 {
		t.Fatalf("after expiry the server saw %d sign-in(s) and %d call(s) in all, want 2 and 4", logins, n)
	}

	// A routine's api step: the same sign-in, relative to the routine.
	site.Expire()
	steps := fmt.Sprintf(`{"format": "waymark.routine/1", "name": "items", "version": 1,
 "variables": [{"name": "username"}, {"name": "password", "secret": true}],
 "steps": [{"id": "items", "kind": "api", "into": "items", "api": %s}]}`, recipe)
	routinePath := filepath.Join(dir, "items.json")
	if err := os.WriteFile(routinePath, []byte(steps), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr, _ = runMain(t, ctx, noClose{m}, env, "--session", common.Session, "--json", "replay", routinePath,
		"--var", "username=ann.lee", "--var", "device_name=kitchen-laptop-7", "--secret", "password=env:SITE_PASSWORD",
		"--keep-heals", "never", "--submits", "ask", "--no-model")
	var err error
	if code != 0 {
		err = fmt.Errorf("exit %d: %s", code, stderr)
	}
	if err != nil || !strings.Contains(out, `"Chair"`) || !strings.Contains(out, "signed in again by signin.json") {
		t.Fatalf("replay: %v\n%s", err, out)
	}
	if logins, n := site.Total(); logins != 4 || n != 7 {
		t.Fatalf("the replay: the server saw %d sign-in(s) and %d call(s) in all, want 4 and 7", logins, n)
	}

	// A site that refuses every session: one sign-in, then the cause.
	site.Refuse(true)
	err = call()
	var failed struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if err == nil || json.Unmarshal([]byte(out), &failed) != nil || !strings.HasPrefix(failed.Error.Message, "api "+string(siteapi.KindAuth)+": ") || !strings.Contains(failed.Error.Message, "after signing in") {
		t.Fatalf("a refusing site: %v", err)
	}
	if logins, n := site.Total(); logins != 5 || n != 9 {
		t.Fatalf("a refusing site: the server saw %d sign-in(s) and %d call(s) in all, want 3 and 6", logins, n)
	}
}
