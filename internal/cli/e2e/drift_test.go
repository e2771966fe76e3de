package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

// TestDriftRun: `waymark drift FILE` over a page where a step's target
// moved: exit 20, apart from the codes of a failed command, the moved
// step on stdout and the count on stderr.
func TestDriftRun(t *testing.T) {
	file := clitest.WriteRoutine(t)
	fc := clitest.ShopCaller(map[string]calls.Resolution{"label=Email": {Status: calls.Moved, Ref: "e9", Locator: "placeholder=Email"}})
	code, so, se, _ := runMain(t, context.Background(), fc, nil, "drift", file)
	if code != 20 {
		t.Fatalf("exit %d, want 20\nstdout %q\nstderr %q", code, so, se)
	}
	if !strings.Contains(so, "email\tmoved\tlabel=Email\tnow placeholder=Email\n") || !strings.Contains(se, "1 moved") {
		t.Errorf("stdout %q stderr %q", so, se)
	}
}
