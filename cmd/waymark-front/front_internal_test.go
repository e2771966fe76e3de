package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// The front's own failures read byte for byte as internal/cli's: the
// envelope with --json, the error and hint lines without, the exit status
// the CLI gives the same error. Both go through internal/cli/envelope; a
// front that formats or numbers a failure of its own fails here.
func TestFrontFailsAsTheCLI(t *testing.T) {
	for _, tt := range []struct {
		name            string
		code            int
		kind, msg, hint string
		err             error
	}{
		{"usage", cmdutil.ExitUsage, "usage", "no /x/waymark-full: waymark is two programs", `build both binaries: "make build"`,
			&cmdutil.UsageError{Err: errors.New("no /x/waymark-full: waymark is two programs"), Hint: `build both binaries: "make build"`}},
		{"unavailable", cmdutil.ExitUnavailable, "unavailable", "the waymark daemon on /s did not answer in 2s", "stop it with `waymark daemon stop`",
			calls.Errorf(calls.ErrUnavailable, "stop it with `waymark daemon stop`", "the waymark daemon on /s did not answer in 2s")},
		{"relayed <&>", cmdutil.ExitFailed, "stale_ref", "no element <e5> & none like it", "run `waymark snapshot -i` again",
			calls.Errorf(calls.ErrStaleRef, "run `waymark snapshot -i` again", "no element <e5> & none like it")},
	} {
		for _, args := range [][]string{{"get", "url"}, {"get", "url", "--json"}} {
			var fo, fe, co, ce strings.Builder
			code := failTo(&fo, &fe, args, tt.code, tt.kind, tt.msg, tt.hint)
			cmdutil.PrintError(&co, &ce, len(args) == 3, false, tt.err)
			if code != cmdutil.ExitCode(tt.err) {
				t.Errorf("%s %v: the front exits %d, the CLI %d", tt.name, args, code, cmdutil.ExitCode(tt.err))
			}
			if fo.String() != co.String() || fe.String() != ce.String() {
				t.Errorf("%s %v: the front printed\n%q %q\nthe CLI\n%q %q", tt.name, args, fo.String(), fe.String(), co.String(), ce.String())
			}
		}
	}
}

// frontLinks are the only waymark packages the front may link: it starts
// on every command, and every package it links runs its init first (issue
// 15: the complete CLI's inits cost 7 ms a command).
var frontLinks = map[string]bool{
	"github.com/waymark-dev/waymark/cmd/waymark-front":          true,
	"github.com/waymark-dev/waymark/internal/cli/iostreams":     true, // which streams are terminals
	"github.com/waymark-dev/waymark/internal/cli/envelope":      true, // exit statuses and the envelope, the CLI's
	"github.com/waymark-dev/waymark/internal/daemon/daemonpath": true, // where the daemon is
	"github.com/waymark-dev/waymark/internal/rpc":               true, // the wire
	"github.com/waymark-dev/waymark/internal/version":           true, // waymark-full's version
}

// noLinks are standard packages the front must not link: net brings the C
// resolver and with it the dynamic loader (a millisecond a start), os/user
// the same; regexp came with calls (and sheet, net/url), whose inits ran
// on every start.
var noLinks = []string{"net", "os/user", "runtime/cgo", "os/exec", "regexp", "net/url"}

func TestFrontLinksLittle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
		if strings.HasPrefix(p, "github.com/") && !frontLinks[p] {
			t.Errorf("the front links %s: keep it to the standard library and the packages of frontLinks", p)
		}
	}
	for _, p := range noLinks {
		if deps[p] {
			t.Errorf("the front links %s", p)
		}
	}
}

// BenchmarkFrontStart is the front's start and exit, alone (no
// waymark-full beside it: it fails at once).
func BenchmarkFrontStart(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "waymark")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	b.ResetTimer()
	for b.Loop() {
		cmd := exec.Command(bin, "get", "url")
		cmd.Env = append(os.Environ(), "WAYMARK_SOCKET="+filepath.Join(dir, "none.sock"))
		if err := cmd.Run(); err == nil {
			b.Fatal("the front ran with no waymark-full")
		}
	}
}
