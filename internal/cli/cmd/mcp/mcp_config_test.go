package mcp

import (
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/config"
)

func TestConfigMCPTimeout(t *testing.T) {
	f, _, _, _ := clitest.NewFactory(&clitest.FakeCaller{})
	load := clitest.LoadFile(t, "[session]\ntimeout = \"7s\"\n", nil)
	f.Config = func() (*config.Config, error) { return load(nil) }
	got, err := clitest.ParseWith(f, NewCmdMCP, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Timeout.Seconds() != 7 {
		t.Errorf("timeout = %s, want 7s", got.Timeout)
	}
}
