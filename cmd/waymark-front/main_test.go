package main_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/browsertest"
)

// These tests run the two real binaries as a user does: "waymark" (the
// front) and "waymark-full" (cmd/waymark) beside it, against a real daemon
// and Chromium.
//
// Two installs are built:
//
//   - stamped: both binaries stamped with one version, as make build and
//     the release do, and waymark-full a script that notes each run in a
//     file before it runs the real one (waymark-full.real): a test can tell
//     whether the front ran a command in the daemon or handed it over;
//   - dev: both unstamped, as a plain go build leaves them: the front must
//     tell waymark-full's version as waymark-full does.
var (
	tmpDir  string
	stamped install
	dev     install
)

type install struct {
	front, full string
	runs        string // stamped: the file the waymark-full script notes each run in, with its socket
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "wmf")
	if err != nil {
		panic(err)
	}
	tmpDir = dir
	flag.Parse()
	code := func() int {
		defer os.RemoveAll(dir)
		if testing.Short() { // every test that runs the binaries needs a browser
			return m.Run()
		}
		if err := build(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		code := m.Run()
		stopDaemons(dir)
		return code
	}()
	os.Exit(code)
}

func build(dir string) error {
	const stamp = "-X github.com/waymark-dev/waymark/internal/version.stamp=v0.0.0-fronttest"
	s, d := filepath.Join(dir, "s"), filepath.Join(dir, "d")
	for _, b := range []struct{ out, pkg, ldflags string }{
		{filepath.Join(s, "waymark"), ".", stamp},
		{filepath.Join(s, "waymark-full.real"), "../waymark", stamp},
		{filepath.Join(d, "waymark"), ".", ""},
		{filepath.Join(d, "waymark-full"), "../waymark", ""},
	} {
		out, err := exec.Command("go", "build", "-ldflags", b.ldflags, "-o", b.out, b.pkg).CombinedOutput()
		if err != nil {
			return fmt.Errorf("build %s: %v\n%s", b.out, err, out)
		}
	}
	stamped = install{front: filepath.Join(s, "waymark"), full: filepath.Join(s, "waymark-full"), runs: filepath.Join(dir, "full-runs")}
	script := fmt.Sprintf("#!/bin/sh\necho \"$WAYMARK_SOCKET $*\" >>%s\nexec %s \"$@\"\n", stamped.runs, filepath.Join(s, "waymark-full.real"))
	if err := os.WriteFile(stamped.full, []byte(script), 0o755); err != nil {
		return err
	}
	dev = install{front: filepath.Join(d, "waymark"), full: filepath.Join(d, "waymark-full")}
	return nil
}

// stopDaemons stops the daemon of every socket the tests used.
func stopDaemons(dir string) {
	socks, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
	for _, s := range socks {
		for _, full := range []string{filepath.Join(dir, "s", "waymark-full.real"), dev.full} {
			cmd := exec.Command(full, "daemon", "stop")
			cmd.Env = append(os.Environ(), "WAYMARK_SOCKET="+s)
			_ = cmd.Run()
		}
	}
}

// cli runs commands of one install against one daemon.
type cli struct {
	t      *testing.T
	in     install
	socket string
	env    []string
	dir    string    // the working folder; empty: the test's
	stdin  io.Reader // nil: none
}

func newCLI(t *testing.T, in install, daemon string) *cli {
	t.Helper()
	browsertest.Chrome(t) // skips or fails when there is no browser
	return &cli{t: t, in: in, socket: filepath.Join(tmpDir, daemon+".sock")}
}

type result struct {
	code           int
	stdout, stderr string
}

func (c *cli) command(ctx context.Context, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = c.dir
	cmd.Env = append(append(os.Environ(), "WAYMARK_SOCKET="+c.socket,
		"WAYMARK_BROWSER_ARGS="+strings.Join(browsertest.GuardArgs, "\n")), c.env...)
	cmd.Stdin = c.stdin
	return cmd
}

func (c *cli) runBin(bin string, args ...string) result {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := c.command(ctx, bin, args...)
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

// front runs the command through the front; full, through waymark-full.
func (c *cli) front(args ...string) result { c.t.Helper(); return c.runBin(c.in.front, args...) }
func (c *cli) full(args ...string) result  { c.t.Helper(); return c.runBin(c.in.full, args...) }

// fullRuns is the command lines the stamped install's waymark-full ran
// with for this cli's daemon (the tests run in parallel, each with its own).
func (c *cli) fullRuns() []string {
	c.t.Helper()
	b, err := os.ReadFile(stamped.runs)
	if err != nil && !os.IsNotExist(err) {
		c.t.Fatal(err)
	}
	var runs []string
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, c.socket+" "); ok {
			runs = append(runs, rest)
		}
	}
	return runs
}

// inDaemon runs the command through the front and fails unless the daemon
// ran it: waymark-full did not run.
func (c *cli) inDaemon(args ...string) result {
	c.t.Helper()
	before := len(c.fullRuns())
	r := c.front(args...)
	if after := len(c.fullRuns()); after != before {
		c.t.Errorf("waymark %s ran waymark-full; the daemon should have run it", strings.Join(args, " "))
	}
	return r
}

// byFull runs the command through the front and fails unless the front
// handed it to waymark-full.
func (c *cli) byFull(args ...string) result {
	c.t.Helper()
	before := len(c.fullRuns())
	r := c.front(args...)
	if after := len(c.fullRuns()); after != before+1 {
		c.t.Errorf("waymark %s: waymark-full ran %d times, want once", strings.Join(args, " "), after-before)
	}
	return r
}

// site serves two small pages: / (a link, a button that changes its text,
// a field, a file input) and /next.
func site(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<!doctype html><title>Start</title>
<a href="/next">Next page</a>
<button onclick="this.textContent='Pressed'">Press me</button>
<label>Name <input id=name></label>
<label>CV <input type=file id=cv></label>
<p id=hello>Hello text</p>`)
		case "/next":
			fmt.Fprint(w, `<!doctype html><title>Next</title><h1>Arrived</h1>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
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
