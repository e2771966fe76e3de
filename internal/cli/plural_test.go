package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/pilot"
)

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 steps"}, {1, "1 step"}, {2, "2 steps"}} {
		if got := cmdutil.Count(tt.n, "step"); got != tt.want {
			t.Errorf("count(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// act's line for a step with no element said "goto goto" and "press press".
func TestActLine(t *testing.T) {
	for _, tt := range []struct {
		a    pilot.ActAnswer
		line string
		want string
	}{
		{pilot.ActAnswer{Action: "goto", URL: "http://shop.test/"}, "", "goto http://shop.test/"},
		{pilot.ActAnswer{Action: "press", Key: "Enter"}, "", "press Enter"},
		{pilot.ActAnswer{Action: "scroll", Direction: "down"}, "", "scroll down"},
		{pilot.ActAnswer{Action: "click", Ref: "e1"}, `button "Go" [ref=e1]`, `click button "Go" [ref=e1]`},
	} {
		if got := actLine(tt.a, tt.line); got != tt.want {
			t.Errorf("actLine(%+v) = %q, want %q", tt.a, got, tt.want)
		}
	}
}

// observe said "nothing on the page answers that" when the model named
// refs the page does not have, as if it had found nothing.
func TestObserveSaysWhatItLeftOut(t *testing.T) {
	model := fakeOpenAI(t, func(string) string {
		return `{"candidates":[{"ref":"e99","description":"a made-up button","action":"nothing"}]}`
	})
	env := map[string]string{"OPENAI_BASE_URL": model, "WAYMARK_MODEL": "openai:fake"}
	code, _, stderr, _ := runMain(t, context.Background(), &clitest.FakeCaller{Reply: pageReply}, env, "observe", "where is Pay?")
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
		MainWith(context.Background(), []string{"click"}, ios, Deps{Getenv: func(string) string { return "" }})
		if got := strings.Contains(errOut.String(), "\x1b["); got != tt.want {
			t.Errorf("tty %v, NO_COLOR %v: colour %v, want %v: %q", tt.tty, tt.noColor, got, tt.want, errOut)
		}
	}
}
