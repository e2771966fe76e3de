package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
)

// TestCompletionListed: waymark completion is in the root help (under
// More) and prints a script for each shell the README names.
func TestCompletionListed(t *testing.T) {
	code, stdout, _, _ := runMain(t, context.Background(), &clitest.FakeCaller{}, nil, "--help")
	if code != 0 || !strings.Contains(stdout, "  completion ") {
		t.Errorf("help does not list completion (exit %d):\n%s", code, stdout)
	}
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		code, stdout, stderr, _ := runMain(t, context.Background(), &clitest.FakeCaller{}, nil, "completion", shell)
		if code != 0 || !strings.Contains(stdout, "waymark") {
			t.Errorf("completion %s: exit %d, %d bytes\n%s", shell, code, len(stdout), stderr)
		}
	}
}
