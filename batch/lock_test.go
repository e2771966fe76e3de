package batch

import (
	"errors"
	"os"
	"os/exec"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// lockHelperEnv names the store folder a re-run of this test binary
// tries to lock, as a second process opening the same batch store.
const lockHelperEnv = "WAYMARK_TEST_LOCK_DIR"

// TestLockDirHelper is the second process of TestLockDirContends: it
// exits 0 when it took the store's lock, 3 when it was refused as in use.
func TestLockDirHelper(t *testing.T) {
	dir := os.Getenv(lockHelperEnv)
	if dir == "" {
		t.Skip("the second process of TestLockDirContends")
	}
	unlock, err := lockDir(dir, 0)
	if errors.Is(err, calls.ErrUnavailable) {
		os.Exit(3)
	}
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}

// TestLockDirContends: a second opener of one batch store, in this
// process or another, is refused as unavailable while the first holds it,
// and takes it once the first lets go. On Windows the old lock_other.go
// took no lock at all, so the second opener got the store too.
func TestLockDirContends(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if u2, err := lockDir(dir, 0); !errors.Is(err, calls.ErrUnavailable) {
		if err == nil {
			u2()
		}
		t.Fatalf("second opener in this process: %v, want unavailable", err)
	}
	other := func() int {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLockDirHelper$")
		cmd.Env = append(os.Environ(), lockHelperEnv+"="+dir)
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	}
	if code := other(); code != 3 {
		t.Fatalf("second process while the store is held: exit %d, want 3 (refused)", code)
	}
	unlock()
	if code := other(); code != 0 {
		t.Fatalf("second process after the first let go: exit %d, want 0", code)
	}
	unlock2, err := lockDir(dir, 0)
	if err != nil {
		t.Fatalf("after both let go: %v", err)
	}
	unlock2()
}
