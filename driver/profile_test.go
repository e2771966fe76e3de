package driver_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// TestLaunchSweepsProfilesOfDeadProcesses: a daemon killed with SIGKILL
// leaves its browser profile behind; the next launch removes it, leaves a
// live process's alone, and its own is gone once it closes.
func TestLaunchSweepsProfilesOfDeadProcesses(t *testing.T) {
	path := browsertest.Chrome(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(tmp, fmt.Sprintf("waymark-profile-%d-1", gone.Process.Pid))
	live := filepath.Join(tmp, fmt.Sprintf("waymark-profile-%d-2", os.Getppid()))
	other := filepath.Join(tmp, "chromedp-runner-not-ours")
	for _, d := range []string{filepath.Join(stale, "Default"), live, other} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := driver.Launch(ctx, driver.Options{ExecPath: path, Args: browsertest.GuardArgs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the dead process's profile is still there (%v)", err)
	}
	for _, d := range []string{live, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
	mine, _ := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("waymark-profile-%d-*", os.Getpid())))
	if len(mine) != 1 {
		t.Fatalf("profiles of this process: %v, want one", mine)
	}
	if err := b.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if _, err := os.Stat(mine[0]); !os.IsNotExist(err) {
		left, _ := os.ReadDir(mine[0])
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("the browser's own profile is left after Close: %s", strings.Join(names, " "))
	}
}
