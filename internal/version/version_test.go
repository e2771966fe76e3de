package version

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An unstamped build's version names the executable's size and time: the
// front computes waymark-full's from the file, and it must change when
// waymark-full is rebuilt, so that the daemon of the old one is replaced.
func TestOfDevelopmentBuild(t *testing.T) {
	if stamp != "" {
		t.Skip("a stamped test binary")
	}
	exe := filepath.Join(t.TempDir(), "waymark-full")
	if err := os.WriteFile(exe, []byte("12345"), 0o755); err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1700000000, 0)
	if err := os.Chtimes(exe, at, at); err != nil {
		t.Fatal(err)
	}
	v := Of(exe)
	if !strings.HasSuffix(v, "+5.17979cfe362a0000") || v != Of(exe) {
		t.Errorf("Of = %q, want a stable …+5.17979cfe362a0000 (size 5, time in hex ns)", v)
	}
	later := at.Add(time.Second)
	if err := os.Chtimes(exe, later, later); err != nil {
		t.Fatal(err)
	}
	if Of(exe) == v {
		t.Errorf("a rebuilt executable keeps version %q", v)
	}
	if s := Self(); !strings.Contains(s, "+") {
		t.Errorf("Self = %q, want the test binary's size and time", s)
	}
}

func TestOfStamped(t *testing.T) {
	old := stamp
	stamp = "v1.2.3"
	defer func() { stamp = old }()
	if v := Of("/no/such/file"); v != "v1.2.3" {
		t.Errorf("Of = %q, want the stamp", v)
	}
}
