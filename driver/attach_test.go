package driver_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// TestAttachOverCDP starts a browser by hand, as a user would for --cdp,
// and drives it through its DevTools port.
func TestAttachOverCDP(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	// Not t.TempDir: Chromium's helper processes may still write to the
	// profile for a moment after the browser is killed.
	dir, err := os.MkdirTemp("", "wm-attach")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--remote-debugging-port=0", "--user-data-dir=" + dir}, browsertest.GuardArgs...)
	cmd := exec.CommandContext(ctx, path, append(args, "about:blank")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the browser and its helpers
		cmd.Wait()
		for i := 0; i < 20 && os.RemoveAll(dir) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	}()
	// Chromium writes the port it chose to DevToolsActivePort.
	var port string
	for port == "" {
		if b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort")); err == nil {
			port = strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
		}
		select {
		case <-ctx.Done():
			t.Fatal("the browser wrote no DevToolsActivePort")
		case <-time.After(50 * time.Millisecond):
		}
	}
	b, err := driver.Launch(ctx, driver.Options{CDP: port})
	if err != nil {
		t.Fatalf("attach to port %s: %v", port, err)
	}
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Remote</title><button>Hi</button>`})
	s, err := b.Session(ctx, "remote")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
	if err != nil || !strings.Contains(snap.Text, `button "Hi"`) {
		t.Fatalf("snapshot over CDP: %v\n%v", err, snap)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	// The browser is the user's: it still answers after we let go.
	resp, err := http.Get("http://127.0.0.1:" + port + "/json/version")
	if err != nil {
		t.Fatalf("closing an attached browser ended it: %v", err)
	}
	resp.Body.Close()
}
