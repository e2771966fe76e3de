package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/demo"
)

// These tests run the real binary as a user would: each command is a new
// process talking to a daemon that the first command started.

var (
	binPath string
	sockDir string
)

// TestMain runs four of the parallel tests at once (browsertest.Parallel):
// a test here mostly waits for its commands, each a process talking to a
// daemon and a browser of the test's own (or a session of its own in the
// shared one).
func TestMain(m *testing.M) {
	browsertest.Parallel(4)
	dir, err := os.MkdirTemp("", "wm-e2e")
	if err != nil {
		panic(err)
	}
	binPath = filepath.Join(dir, "waymark")
	out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build waymark: %v\n%s", err, out)
		os.Exit(1)
	}
	sockDir = dir
	code := m.Run()
	// Stop every daemon the tests started, then remove the folder.
	matches, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
	for _, s := range matches {
		cmd := exec.Command(binPath, "daemon", "stop")
		cmd.Env = append(os.Environ(), "WAYMARK_SOCKET="+s)
		cmd.Stderr = nil
		_ = cmd.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// cli runs waymark commands against one daemon.
type cli struct {
	t      *testing.T
	socket string
	env    []string
	dir    string // the commands' working folder; empty: the test's
}

func newCLI(t *testing.T, daemonName string) *cli {
	t.Helper()
	browsertest.Chrome(t) // skips or fails when there is no browser
	return &cli{t: t, socket: filepath.Join(sockDir, daemonName+".sock")}
}

type result struct {
	code           int
	stdout, stderr string
}

func (c *cli) run(args ...string) result {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, args...)
	cmd.Dir = c.dir
	cmd.Env = append(append(os.Environ(), "WAYMARK_SOCKET="+c.socket,
		"WAYMARK_BROWSER_ARGS="+strings.Join(browsertest.GuardArgs, "\n"),
		"XDG_STATE_HOME="+filepath.Join(sockDir, "state")), c.env...) // approvals record stop keeps: not the user's
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatalf("run %v: %v", args, err)
	}
	return result{code, out.String(), errb.String()}
}

// ok runs a command that must succeed and returns its stdout.
func (c *cli) ok(args ...string) string {
	c.t.Helper()
	r := c.run(args...)
	if r.code != 0 {
		c.t.Fatalf("waymark %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// jsonData runs a command with --json and decodes its data.
func (c *cli) jsonData(v any, args ...string) {
	c.t.Helper()
	out := c.ok(append([]string{"--json"}, args...)...)
	var env struct {
		OK   bool            `json:"ok"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil || !env.OK {
		c.t.Fatalf("waymark --json %v: %q (%v)", args, out, err)
	}
	if v != nil {
		if err := json.Unmarshal(env.Data, v); err != nil {
			c.t.Fatalf("decode %s: %v", env.Data, err)
		}
	}
}

func refOn(t *testing.T, outline string, words ...string) string {
	t.Helper()
	for _, line := range strings.Split(outline, "\n") {
		all := true
		for _, w := range words {
			all = all && strings.Contains(line, w)
		}
		if i := strings.Index(line, "[ref="); all && i >= 0 {
			rest := line[i+5:]
			return "@" + rest[:strings.IndexByte(rest, ']')]
		}
	}
	t.Fatalf("no ref on a line with %q in:\n%s", words, outline)
	return ""
}

func demoSite(t *testing.T) (*demo.Site, string) {
	t.Helper()
	site := demo.New(nil)
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	return site, srv.URL
}

func TestCheckoutThroughTheCLI(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "shared")
	site, base := demoSite(t)
	s := []string{"--session", "checkout"}
	defer c.run(append(s, "close")...)

	c.ok(append(s, "open", base+"/checkout")...)
	out := c.ok(append(s, "snapshot", "-i", "--full")...)
	c.ok(append(s, "fill", refOn(t, out, `textbox "Full name"`), "Ann Example")...)
	c.ok(append(s, "fill", "label=Email", "ann@example.com")...)
	c.ok(append(s, "fill", refOn(t, out, `textbox "Account password"`), "s3cret-pass")...)
	c.ok(append(s, "select", refOn(t, out, "combobox"), "United Kingdom")...)
	c.ok(append(s, "check", refOn(t, out, "radio", "Express"))...)
	c.ok(append(s, "check", refOn(t, out, "checkbox", "terms"))...)
	c.ok(append(s, "click", `role=button[name="Place order"]`)...)
	if got := c.ok(append(s, "get", "url")...); !strings.Contains(got, "/orders/") {
		t.Fatalf("after placing the order the page is %s", got)
	}
	order, ok := site.LastOrder()
	if !ok || order.Name != "Ann Example" || order.Email != "ann@example.com" {
		t.Fatalf("the server got %+v", order)
	}
}

func TestErrorsAndExitCodes(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "shared")
	_, base := demoSite(t)
	s := []string{"--session", "errors"}
	defer c.run(append(s, "close")...)
	c.ok(append(s, "open", base+"/products")...)

	r := c.run(append(s, "click", "@e99999")...)
	if r.code != 1 || !strings.Contains(r.stderr, "hint:") || !strings.Contains(r.stderr, "snapshot") {
		t.Errorf("unknown ref: exit %d, stderr %q", r.code, r.stderr)
	}
	r = c.run(append(s, "--json", "click", "@e99999")...)
	var env struct {
		OK    bool `json:"ok"`
		Error struct{ Code, Message, Hint string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || env.OK || env.Error.Code != "unknown_ref" || env.Error.Hint == "" {
		t.Errorf("--json error envelope: %q", r.stdout)
	}
	if r := c.run(append(s, "click")...); r.code != 2 {
		t.Errorf("click with no target: exit %d, want 2 (usage)", r.code)
	}
	if r := c.run(append(s, "--no-such-flag", "snapshot")...); r.code != 2 {
		t.Errorf("a bad flag: exit %d, want 2", r.code)
	}
	if r := c.run(append(s, "press", "Entr")...); r.code != 2 || !strings.Contains(r.stderr, "Enter") { // what the user gave: bad_input
		t.Errorf("an unknown key: exit %d, %q", r.code, r.stderr)
	}
	if r := c.run(append(s, "upload", "css=input", "/no/such/file")...); r.code == 0 {
		t.Errorf("upload of a missing file succeeded")
	}
	// The session is still usable after every error above.
	if got := c.ok(append(s, "get", "title")...); !strings.Contains(got, "Products") {
		t.Errorf("title after the errors: %q", got)
	}
}

func TestSessionsAreIsolatedThroughTheCLI(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "shared")
	_, base := demoSite(t)
	a := []string{"--session", "iso-a"}
	b := []string{"--session", "iso-b"}
	defer c.run(append(a, "close")...)
	defer c.run(append(b, "close")...)
	c.ok(append(a, "open", base)...)
	c.ok(append(b, "open", base)...)
	c.ok(append(a, "cookies", "set", "flavour", "oat")...)
	if out := c.ok(append(b, "cookies", "get")...); strings.Contains(out, "flavour") {
		t.Fatalf("session b sees a's cookie:\n%s", out)
	}
	if out := c.ok(append(a, "cookies", "get")...); !strings.Contains(out, "oat") {
		t.Fatalf("session a lost its cookie:\n%s", out)
	}
	var list struct {
		Sessions []struct{ Name string } `json:"sessions"`
	}
	c.jsonData(&list, "session", "list")
	names := map[string]bool{}
	for _, s := range list.Sessions {
		names[s.Name] = true
	}
	if !names["iso-a"] || !names["iso-b"] {
		t.Fatalf("session list: %+v", list)
	}
}

func TestDaemonKilledThenRecovered(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "killed")
	_, base := demoSite(t)
	c.ok("open", base)
	var st struct{ PID int }
	c.jsonData(&st, "daemon", "status")
	if st.PID == 0 {
		t.Fatal("no daemon pid")
	}
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The next command starts a new daemon (and browser) by itself.
	if r := c.run("open", base+"/products"); r.code != 0 || !strings.Contains(r.stdout, "/products") {
		t.Fatalf("open after the kill: %+v", r)
	}
	var st2 struct{ PID int }
	c.jsonData(&st2, "daemon", "status")
	if st2.PID == st.PID || st2.PID == 0 {
		t.Fatalf("daemon pid before %d, after %d", st.PID, st2.PID)
	}
	c.ok("daemon", "stop")
	// stop asks the daemon to go; it may answer a status while it goes.
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := c.run("daemon", "status")
		if r.code == 0 && strings.Contains(r.stdout+r.stderr, "no daemon") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status 10 s after stop: %+v", r)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRecordActSecret: a value an act brings in from --secret is recorded
// as a secret of that name, and no command prints it, nor does the
// daemon's log hold it.
func TestRecordActSecret(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "secret")
	const code = "Qz7" // nothing else on the page or in a port holds it
	c.env = []string{"S=" + code}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Verify</title><label>Answer <input id=a></label>`)
	}))
	t.Cleanup(srv.Close)
	s := []string{"--session", "rec-secret"}
	defer c.run(append(s, "close")...)
	var printed strings.Builder
	for _, args := range [][]string{
		{"record", "start"},
		{"open", srv.URL + "/"},
		{"act", "fill Answer with %code%", "--secret", "code=env:S", "--model", "rules"},
		{"snapshot"},
	} {
		printed.WriteString(c.ok(append(s, args...)...))
	}
	file := filepath.Join(t.TempDir(), "r.json")
	r := c.run(append(s, "record", "stop", file)...)
	if r.code != 0 {
		t.Fatalf("record stop: %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	printed.WriteString(r.stdout + r.stderr)
	if strings.Contains(printed.String(), code) {
		t.Errorf("a command printed the secret:\n%s", printed.String())
	}
	if !strings.Contains(r.stderr, "--secret code=env:CODE") {
		t.Errorf("the replay command does not read code from the environment:\n%s", r.stderr)
	}
	saved, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rt struct {
		Variables []struct {
			Name   string `json:"name"`
			Secret bool   `json:"secret"`
		} `json:"variables"`
	}
	if err := json.Unmarshal(saved, &rt); err != nil {
		t.Fatal(err)
	}
	if len(rt.Variables) != 1 || rt.Variables[0].Name != "code" || !rt.Variables[0].Secret || strings.Contains(string(saved), code) {
		t.Errorf("want one secret variable code and no value:\n%s", saved)
	}
	if log, err := os.ReadFile(c.socket + ".log"); err == nil && strings.Contains(string(log), code) {
		t.Errorf("the daemon's log holds the secret:\n%s", log)
	}
}
