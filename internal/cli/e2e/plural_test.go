package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
)

// observe said "nothing on the page answers that" when the model named
// refs the page does not have, as if it had found nothing.
func TestObserveSaysWhatItLeftOut(t *testing.T) {
	model := fakeOpenAI(t, func(string) string {
		return `{"candidates":[{"ref":"e99","description":"a made-up button","action":"nothing"}]}`
	})
	env := map[string]string{"OPENAI_BASE_URL": model, "WAYMARK_MODEL": "openai:fake"}
	code, _, stderr, _ := runMain(t, context.Background(), &clitest.FakeCaller{Reply: clitest.PageReply}, env, "observe", "where is Pay?")
	if code != 0 || !strings.Contains(stderr, "left out 1 ref the model named that is not on the page: e99") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// Colour only on a terminal, and not with NO_COLOR.
func TestErrorColour(t *testing.T) {
	for _, tt := range []struct {
		tty, noColor, want bool
	}{{false, false, false}, {true, false, true}, {true, true, false}} {
		ios, _, _, errOut := iostreams.Test()
		ios.SetStderrTTY(tt.tty)
		ios.SetNoColor(tt.noColor)
		cli.MainWith(context.Background(), []string{"click"}, ios, cli.Deps{Getenv: func(string) string { return "" }})
		if got := strings.Contains(errOut.String(), "\x1b["); got != tt.want {
			t.Errorf("tty %v, NO_COLOR %v: colour %v, want %v: %q", tt.tty, tt.noColor, got, tt.want, errOut)
		}
	}
}
