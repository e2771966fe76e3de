package driver_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// crashingBrowser writes an executable that crashes as it starts (prints
// what a crashing Chromium prints, exits by SIGSEGV's status) the first
// crashes times, and then runs the real browser. Every start is counted
// in the returned file, one line each.
func crashingBrowser(t *testing.T, real string, crashes int) (exe, starts string) {
	t.Helper()
	dir := t.TempDir()
	exe, starts = filepath.Join(dir, "chromium"), filepath.Join(dir, "starts")
	script := fmt.Sprintf(`#!/bin/sh
echo start >> %[1]q
n=$(wc -l < %[1]q)
if [ "$n" -le %[2]d ]; then
	echo "Received signal 11 SEGV_MAPERR 000000000000" >&2
	exit 139
fi
exec %[3]q "$@"
`, starts, crashes, real)
	if err := os.WriteFile(exe, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return exe, starts
}

func countStarts(t *testing.T, starts string) int {
	t.Helper()
	b, err := os.ReadFile(starts)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "start\n")
}

// TestLaunchStartsACrashedBrowserOnceMore: Chromium crashes as it starts
// now and then on a loaded machine; the daemon (and doctor) gave up on
// the first such start. One crash is started again; a browser that
// crashes every time fails after two starts, saying what it printed.
func TestLaunchStartsACrashedBrowserOnceMore(t *testing.T) {
	t.Parallel()
	real := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	exe, starts := crashingBrowser(t, real, 1)
	b, err := driver.Launch(ctx, driver.Options{ExecPath: exe, Args: browsertest.GuardArgs})
	if err != nil {
		t.Fatalf("a browser that crashed once at start: %v", err)
	}
	srv := serve(t, map[string]string{"/": `<title>A</title><p>after a crash</p>`})
	s, err := b.Session(ctx, "one")
	if err != nil {
		t.Fatal(err)
	}
	open(t, s, ctx, srv.URL+"/")
	if text := snapshot(t, s, ctx, calls.SnapshotRequest{}); !strings.Contains(text, "after a crash") {
		t.Fatalf("look: %s", text)
	}
	b.Close()
	if n := countStarts(t, starts); n != 2 {
		t.Errorf("%d starts, want 2", n)
	}

	exe, starts = crashingBrowser(t, real, 10)
	_, err = driver.Launch(ctx, driver.Options{ExecPath: exe, Args: browsertest.GuardArgs})
	if !errors.Is(err, calls.ErrUnavailable) || !strings.Contains(err.Error(), "SEGV") {
		t.Fatalf("a browser that always crashes: %v (code %s), want unavailable with what it printed", err, calls.Code(err))
	}
	if n := countStarts(t, starts); n != 2 {
		t.Errorf("%d starts of a browser that always crashes, want 2", n)
	}
}
