package browser

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestSweepProfiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true(1) to leave a dead process id")
	}
	dead := filepath.Join(tmp, fmt.Sprintf("waymark-profile-%d-1", gone.Process.Pid))
	keep := map[string]bool{
		filepath.Join(tmp, fmt.Sprintf("waymark-profile-%d-2", os.Getppid())): true, // a live process
		filepath.Join(tmp, fmt.Sprintf("waymark-profile-%d-3", os.Getpid())):  true, // ours
		filepath.Join(tmp, "waymark-profile-notapid-4"):                       true,
		filepath.Join(tmp, "chromedp-runner123"):                              true,
	}
	for d := range keep {
		os.Mkdir(d, 0o700)
	}
	os.MkdirAll(filepath.Join(dead, "Default"), 0o700)
	got := SweepProfiles()
	if len(got) != 1 || got[0] != dead {
		t.Errorf("removed %v, want only %s", got, dead)
	}
	for d := range keep {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed", d)
		}
	}
	p, err := NewProfile()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(p) != tmp || filepath.Base(p)[:len(fmt.Sprintf("waymark-profile-%d-", os.Getpid()))] != fmt.Sprintf("waymark-profile-%d-", os.Getpid()) {
		t.Errorf("profile %s is not named after this process in %s", p, tmp)
	}
	if err := RemoveProfile(p); err != nil {
		t.Fatal(err)
	}
}
