package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A command the daemon runs for the front prints what waymark-full prints,
// byte for byte, and exits with the same status: two sessions go through
// the same steps, one through the front, one through waymark-full.
func TestSameOutputThroughTheFront(t *testing.T) {
	t.Parallel()
	c := newCLI(t, stamped, "same")
	base := site(t)
	if r := c.full("--session", "same-setup", "open", base+"/next"); r.code != 0 { // the daemon is up
		t.Fatalf("start: %+v", r)
	}
	viaFront, viaFull := *c, *c
	viaFront.env = append(c.env, "WAYMARK_SESSION=same-a")
	viaFull.env = append(c.env, "WAYMARK_SESSION=same-b")
	defer c.full("--session", "same-a", "close")
	defer c.full("--session", "same-b", "close")

	var outline string
	step := func(args ...string) result {
		t.Helper()
		a := viaFront.inDaemon(args...)
		b := viaFull.full(args...)
		if a != b {
			t.Errorf("waymark %s:\nfront: exit %d\nstdout %q\nstderr %q\nfull:  exit %d\nstdout %q\nstderr %q",
				strings.Join(args, " "), a.code, a.stdout, a.stderr, b.code, b.stdout, b.stderr)
		}
		return a
	}
	step("open", base+"/")
	outline = step("snapshot", "-i").stdout
	step("snapshot", "-i", "--changes")
	step("click", refOn(t, outline, "Press me")) // stays on the page
	step("snapshot", "-i", "--changes")
	step("fill", refOn(t, outline, "Name"), "Ann Example")
	step("get", "text", "css=#hello")
	step("get", "title")
	step("--json", "get", "url")
	// A navigating click names the page it went to, with its title when
	// the title is known by then: that is the driver's timing, through
	// either binary.
	nav := []string{"click", refOn(t, outline, "Next page")}
	a, b := viaFront.inDaemon(nav...), viaFull.full(nav...)
	untitled := func(r result) result { r.stdout = strings.Replace(r.stdout, ` "Next"`, "", 1); return r }
	if untitled(a) != untitled(b) || a.code != 0 || !strings.Contains(a.stdout, "→ /next") {
		t.Errorf("a navigating click: front %+v, full %+v", a, b)
	}
	step("get", "url")
	step("look", "-i")
	if r := step("click", "@e999"); r.code != 1 || !strings.Contains(r.stderr, "hint:") {
		t.Errorf("a bad ref: %+v", r)
	}
	if r := step("--json", "click", "@e999"); r.code != 1 || !strings.Contains(r.stdout, `"ok":false`) {
		t.Errorf("a bad ref with --json: %+v", r)
	}
	if r := step("click", "@e1", "--nosuch"); r.code != 2 || !strings.Contains(r.stderr, "--nosuch") {
		t.Errorf("a bad flag: %+v", r)
	}
	if r := step("get", "url", "--session", "same-other"); r.stdout != "about:blank\n" {
		t.Errorf("--session same-other: %+v", r)
	}
	defer c.full("--session", "same-other", "close")
}

// What the front cannot run in the daemon, waymark-full runs, with the
// front's arguments, folder, stdin and environment.
func TestFrontHandsOverToFull(t *testing.T) {
	t.Parallel()
	c := newCLI(t, stamped, "handover")
	base := site(t)
	s := "--session=handover"
	// The test starts with no daemon: it leaves none for its next run
	// (go test -count=2 found the first run's daemon there).
	t.Cleanup(func() { c.dir = ""; c.full("daemon", "stop") }) // c.dir, a TempDir, is gone by then

	// No daemon: waymark-full starts one.
	r := c.byFull(s, "open", base+"/")
	if r.code != 0 || !strings.Contains(r.stderr, "started the daemon") {
		t.Fatalf("open with no daemon: %+v", r)
	}
	defer c.full(s, "close")
	if got := c.inDaemon(s, "get", "url").stdout; got != base+"/\n" {
		t.Fatalf("get url: %q", got)
	}

	// upload reads a file named relative to the front's folder.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cv.txt"), []byte("Ann"), 0o600); err != nil {
		t.Fatal(err)
	}
	ref := refOn(t, c.inDaemon(s, "snapshot", "-i").stdout, "CV")
	c.dir = dir
	if r := c.byFull(s, "upload", ref, "cv.txt"); r.code != 0 {
		t.Fatalf("upload: %+v", r)
	}
	c.dir = ""
	if r := c.byFull(s, "eval", "document.getElementById('cv').files[0].name"); !strings.Contains(r.stdout, "cv.txt") {
		t.Errorf("the file input holds %+v", r)
	}

	// eval - reads the front's stdin.
	c.stdin = strings.NewReader("6*7")
	if r := c.byFull(s, "eval", "-"); r.code != 0 || strings.TrimSpace(r.stdout) != "42" {
		t.Errorf("eval -: %+v", r)
	}
	c.stdin = nil

	// A global flag that says how to reach or start the daemon.
	if r := c.byFull(s, "--socket", c.socket, "get", "url"); r.stdout != base+"/\n" {
		t.Errorf("--socket: %+v", r)
	}
	// Help is waymark-full's to print.
	if r := c.byFull("click", "--help"); r.code != 0 || !strings.Contains(r.stdout, "Usage:") {
		t.Errorf("click --help: %+v", r)
	}
}

// The command reads the front's environment and the config file of the
// front's folder, not the daemon's.
func TestFrontEnvironmentAndConfig(t *testing.T) {
	t.Parallel()
	c := newCLI(t, stamped, "env")
	base := site(t)
	if r := c.full("--session", "env-setup", "open", base+"/"); r.code != 0 {
		t.Fatalf("start: %+v", r)
	}
	defer c.full("--session", "env-setup", "close")

	c.env = []string{"WAYMARK_SESSION=env-var"}
	if r := c.inDaemon("open", base+"/next"); r.code != 0 {
		t.Fatalf("open: %+v", r)
	}
	defer c.full("--session", "env-var", "close")
	c.env = nil
	if got := c.full("--session", "env-var", "get", "url").stdout; got != base+"/next\n" {
		t.Errorf("WAYMARK_SESSION of the front: session env-var is at %q", got)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "waymark.toml"), []byte("[session]\nname = \"env-toml\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c.dir = dir
	if r := c.inDaemon("open", base+"/next"); r.code != 0 {
		t.Fatalf("open: %+v", r)
	}
	defer c.full("--session", "env-toml", "close")
	c.dir = ""
	if got := c.full("--session", "env-toml", "get", "url").stdout; got != base+"/next\n" {
		t.Errorf("waymark.toml of the front's folder: session env-toml is at %q", got)
	}
}

// Ctrl-C stops the command the daemon runs for the front, as it stops
// waymark-full's: the front exits at once with what the command says when
// interrupted, and the session is free for the next command.
func TestFrontInterrupt(t *testing.T) {
	t.Parallel()
	c := newCLI(t, stamped, "sigint")
	base := site(t)
	if r := c.full("--session", "sigint-setup", "open", base+"/"); r.code != 0 {
		t.Fatalf("start: %+v", r)
	}
	defer c.full("--session", "sigint-setup", "close")
	defer c.full("--session", "sigint", "close")

	cmd := c.command(t.Context(), c.in.front, "--session", "sigint", "wait", "--text", "never there", "--timeout", "60s")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The wait is under way once its session exists: the front sent its
	// request before that, so its signal handling is in place.
	deadline := time.Now().Add(30 * time.Second)
	for !hasSession(t, c, "sigint") {
		if time.Now().After(deadline) {
			t.Fatal("the wait never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	took := time.Since(sent)
	ee, _ := err.(*exec.ExitError)
	if ee == nil || ee.ExitCode() != 130 {
		t.Errorf("after SIGINT: %v, stdout %q, stderr %q; want exit 130", err, out.String(), errb.String())
	}
	// The bounds leave room for a loaded machine's daemon round trip; a
	// wait that was not canceled would hold the front, then the lane,
	// for most of its 60 s.
	if took > 20*time.Second {
		t.Errorf("the front took %v to stop", took)
	}
	if strings.Contains(strings.Join(c.fullRuns(), "\n"), "wait") {
		t.Errorf("waymark-full ran the wait")
	}
	// The session's lane is free: the wait was canceled, not left to time out.
	start := time.Now()
	if r := c.inDaemon("--session", "sigint", "get", "url"); r.code != 0 || time.Since(start) > 20*time.Second {
		t.Errorf("get url after the interrupt: %+v after %v", r, time.Since(start))
	}
}

// A development build (no stamp): the front tells waymark-full's version
// as waymark-full does, from its size and time. While they agree, the
// daemon runs the command (waymark-full, made unrunnable, is not needed);
// once waymark-full is rebuilt (here: touched), the front hands over to it
// and it restarts the daemon.
func TestDevBuildVersion(t *testing.T) {
	t.Parallel()
	c := newCLI(t, dev, "dev")
	base := site(t)
	if r := c.front("open", base+"/"); r.code != 0 {
		t.Fatalf("open: %+v", r)
	}
	pid := func() int {
		var env struct{ Data struct{ PID int } }
		r := c.full("--json", "daemon", "status")
		if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
			t.Fatalf("daemon status: %+v", r)
		}
		return env.Data.PID
	}
	first := pid()

	if err := os.Chmod(dev.full, 0o644); err != nil { // the time stays
		t.Fatal(err)
	}
	r := c.front("get", "url")
	if err := os.Chmod(dev.full, 0o755); err != nil {
		t.Fatal(err)
	}
	if r.code != 0 || r.stdout != base+"/\n" {
		t.Fatalf("get url with waymark-full not runnable: %+v", r)
	}

	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(dev.full, later, later); err != nil {
		t.Fatal(err)
	}
	if r := c.front("get", "url"); r.code != 0 || r.stdout != "about:blank\n" { // a new daemon, a new browser
		t.Fatalf("get url after the rebuild: %+v", r)
	}
	if second := pid(); second == first || second == 0 {
		t.Errorf("daemon pid %d before the rebuild, %d after", first, second)
	}
}

// hasSession reports whether the daemon has the session open.
func hasSession(t *testing.T, c *cli, name string) bool {
	t.Helper()
	var env struct {
		Data struct{ Sessions []struct{ Name string } }
	}
	r := c.full("--session", "sigint-setup", "--json", "session", "list")
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
		t.Fatalf("session list: %+v", r)
	}
	for _, s := range env.Data.Sessions {
		if s.Name == name {
			return true
		}
	}
	return false
}
