package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmd/mcp"
	pilotcmd "github.com/waymark-dev/waymark/internal/cli/cmd/pilot"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
)

// --vision is on act, extract and run, and a way that is none of auto,
// always and never is a usage error before anything is asked.
func TestVisionFlags(t *testing.T) {
	if o, err := clitest.ParseCmd(t, pilotcmd.NewCmdAct, []string{"click Go", "--vision", "always"}); err != nil || o.Vision != "always" {
		t.Errorf("act --vision always: %+v, %v", o, err)
	}
	if o, err := clitest.ParseCmd(t, pilotcmd.NewCmdExtract, []string{"the rows", "--schema", "s.json", "--vision", "never"}); err != nil || o.Vision != "never" {
		t.Errorf("extract --vision never: %+v, %v", o, err)
	}
	if o, err := clitest.ParseCmd(t, pilotcmd.NewCmdRun, []string{"buy boots", "--vision", "auto"}); err != nil || o.Vision != "auto" {
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
	opts := &pilotcmd.RunOptions{PilotOptions: pilotflags.PilotOptions{Common: common, Vision: "always"}, Task: "press go",
		NewModel: func() (pilot.Model, error) { return rules.New(), nil }}
	err := pilotcmd.RunRun(context.Background(), opts)
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(err.Error(), "reads no pictures") || calls.Hint(err) == "" {
		t.Errorf("run --vision always with the rules model: %v (hint %q)", err, calls.Hint(err))
	}
	if m := c.Methods(); len(m) != 0 {
		t.Errorf("the run called %v before refusing", m)
	}
}

// `waymark mcp --vision always` with the rules model: the act tool says
// the model reads no pictures, as bad input; a bad --vision stops the
// server from starting.
func TestMCPVision(t *testing.T) {
	c := clitest.PageCaller()
	common, _, _ := clitest.NewCommon(c, false, false)
	common.Getenv = func(string) string { return "" }
	cs := mcpClient(t, &mcp.MCPOptions{Common: common, NamedSession: true, Vision: "always"})
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "act", Arguments: map[string]any{"instruction": "click Go"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*sdk.TextContent).Text; !res.IsError || !strings.Contains(got, "reads no pictures") || !strings.Contains(got, "code: bad_input") {
		t.Errorf("act with --vision always and the rules model: isError=%v %q", res.IsError, got)
	}
	bad, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	bad.Getenv = func(string) string { return "" }
	if err := mcp.MCPRun(context.Background(), &mcp.MCPOptions{Common: bad, Vision: "sometimes"}); !errors.As(err, new(*cmdutil.UsageError)) {
		t.Errorf("mcp --vision sometimes: %v; want a usage error", err)
	}
}

// [model] pictures says a server of one's own reads pictures, and
// [model] vision takes only auto, always and never.
func TestModelPicturesAndVisionConfig(t *testing.T) {
	noEnv := func(string) string { return "" }
	for pics, want := range map[string]bool{"": false, "yes": true, "no": false} {
		cfg := config.Model{Provider: "openai", Model: "qwen2.5-vl", BaseURL: "http://127.0.0.1:11434/v1", Pictures: pics}
		m, _, err := pilotflags.NewModel(pilotflags.ModelFlags{}, cfg, noEnv, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := pilot.ReadsPictures(m, pilot.PurposeAct); got != want {
			t.Errorf("pictures = %q: reads pictures %v; want %v", pics, got, want)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, config.ProjectFile), []byte("[model]\nvision = \"sometimes\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ve *config.ValueError
	if _, err := config.Load(config.LoadOptions{Dir: dir}); !errors.As(err, &ve) || ve.Key != "model.vision" {
		t.Errorf("vision = \"sometimes\": %v; want a value error on model.vision", err)
	}
}
