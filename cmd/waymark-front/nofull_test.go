package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// copyFront puts a copy of the dev install's front (built once, in
// TestMain, as a plain go build leaves it) at path, alone in its folder
// or beside what the test puts there: each test here built its own
// before, the same binary.
func copyFront(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(dev.front)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// A front with no waymark-full beside it says where it looked and how to
// build both, as a usage error (exit 2), in the envelope with --json.
func TestFrontWithoutFull(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the front")
	}
	dir := t.TempDir()
	bin := copyFront(t, filepath.Join(dir, "waymark"))
	for _, json := range []bool{false, true} {
		args := []string{"get", "url"}
		if json {
			args = append(args, "--json")
		}
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "WAYMARK_SOCKET="+filepath.Join(dir, "none.sock"))
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		ee, _ := err.(*exec.ExitError)
		if ee == nil || ee.ExitCode() != cmdutil.ExitUsage {
			t.Errorf("--json=%v: %v, want exit %d", json, err, cmdutil.ExitUsage)
		}
		want := filepath.Join(dir, "waymark-full")
		got := stderr.String()
		if json {
			got = stdout.String()
			if !strings.HasPrefix(got, `{"ok":false,"error":{"code":"usage","message":`) {
				t.Errorf("--json: stdout %q", got)
			}
		}
		if !strings.Contains(got, want) || !strings.Contains(got, "make build") {
			t.Errorf("--json=%v: %q does not name %s and how to build it", json, got, want)
		}
	}
}

// "go install ./cmd/..." installs the front as waymark-front beside the
// complete CLI as waymark: the front runs that one.
func TestFrontInstalledByGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the front")
	}
	dir := t.TempDir()
	bin := copyFront(t, filepath.Join(dir, "waymark-front"))
	if err := os.WriteFile(filepath.Join(dir, "waymark"), []byte("#!/bin/sh\necho complete \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "get", "url")
	cmd.Env = append(os.Environ(), "WAYMARK_SOCKET="+filepath.Join(dir, "none.sock")) // no daemon: the complete CLI runs it
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "complete get url\n" {
		t.Errorf("waymark-front get url: %v, %q; want the complete CLI beside it run", err, out)
	}
}
