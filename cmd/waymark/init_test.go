package main_test

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// Every command is a process of its own, so what the packages do at init
// every command pays, whether or not it uses it: a regular expression, a
// table, a JSON Schema compiled at init cost `waymark get url` 10 ms and
// more (issue 15). No waymark package may allocate more than a little at
// init; build such things at first use (internal/lazyre, sync.OnceValue).
func TestInitCost(t *testing.T) {
	t.Parallel()
	const limit = 16 << 10 // bytes per package
	cmd := exec.Command(binPath, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(string(out), "\n") {
		// init github.com/x/y @0.5 ms, 0.01 ms clock, 1208 bytes, 45 allocs
		f := strings.Fields(line)
		if len(f) < 9 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/waymark-dev/waymark/") {
			continue
		}
		seen++
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("cannot read %q", line)
		}
		if n > limit {
			t.Errorf("%s allocates %d bytes at init (at most %d): build it at first use", f[1], n, limit)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace of waymark's packages in:\n%s", out)
	}
}
