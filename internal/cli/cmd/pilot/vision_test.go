package pilot

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
)

// --vision is on act, extract and run, and a way that is none of auto,
// always and never is a usage error before anything is asked.
func TestVisionFlags(t *testing.T) {
	if o, err := clitest.ParseCmd(t, NewCmdAct, []string{"click Go", "--vision", "always"}); err != nil || o.Vision != "always" {
		t.Errorf("act --vision always: %+v, %v", o, err)
	}
	if o, err := clitest.ParseCmd(t, NewCmdExtract, []string{"the rows", "--schema", "s.json", "--vision", "never"}); err != nil || o.Vision != "never" {
		t.Errorf("extract --vision never: %+v, %v", o, err)
	}
	if o, err := clitest.ParseCmd(t, NewCmdRun, []string{"buy boots", "--vision", "auto"}); err != nil || o.Vision != "auto" {
		t.Errorf("run --vision auto: %+v, %v", o, err)
	}
	if _, err := (&pilotflags.PilotOptions{Vision: "sometimes"}).VisionMode(); !errors.As(err, new(*cmdutil.UsageError)) {
		t.Errorf("--vision sometimes: %v; want a usage error", err)
	}
}

// `waymark run --vision always` with the rules model, which reads no
// pictures, stops as bad input with a hint before the first turn: no
// look, no model call.
func TestRunVisionAlwaysWithATextOnlyModel(t *testing.T) {
	c := clitest.PageCaller()
	common, _, _ := clitest.NewCommon(c, false, false)
	opts := &RunOptions{PilotOptions: pilotflags.PilotOptions{Common: common, Vision: "always"}, Task: "press go",
		NewModel: func() (pilot.Model, error) { return rules.New(), nil }}
	err := runRun(context.Background(), opts)
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(err.Error(), "reads no pictures") || calls.Hint(err) == "" {
		t.Errorf("run --vision always with the rules model: %v (hint %q)", err, calls.Hint(err))
	}
	if m := c.Methods(); len(m) != 0 {
		t.Errorf("the run called %v before refusing", m)
	}
}
