package config

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
)

func TestNewCmdConfig(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantRun  bool
		wantCode int
	}{
		{name: "show", args: []string{"show"}, wantRun: true},
		{name: "no subcommand", args: nil, wantCode: cmdutil.ExitUsage},
		{name: "unknown subcommand", args: []string{"shwo"}, wantCode: cmdutil.ExitUsage},
		{name: "show takes no args", args: []string{"show", "x"}, wantCode: cmdutil.ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := clitest.ParseCmd(t, NewCmdConfig, tt.args)
			if code := cmdutil.ExitCode(err); code != tt.wantCode {
				t.Fatalf("exit code %d (err %v), want %d", code, err, tt.wantCode)
			}
			if tt.wantRun && (got == nil || got.Load == nil) {
				t.Fatalf("runF got %+v, want options with Load", got)
			}
		})
	}
}

func TestConfigShowRun(t *testing.T) {
	c, path := clitest.LoadConfig(t, "[browser]\nengine = \"cdp\"\ncdp = \"9222\"\n", map[string]string{"ANTHROPIC_API_KEY": "sk-ant-api03-abcdefghijkl4321"})
	load := func() (*config.Config, error) { return c, nil }

	t.Run("human", func(t *testing.T) {
		common, out, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, true)
		if err := configShowRun(context.Background(), &ConfigShowOptions{Common: common, Load: load}); err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{`engine = "cdp"`, "# from " + path, `api_key = "••••4321"`, "# from env ANTHROPIC_API_KEY", "# from default"} {
			if !strings.Contains(out.String(), w) {
				t.Errorf("output lacks %q:\n%s", w, out)
			}
		}
		if strings.Contains(out.String(), "abcdefghijkl") {
			t.Errorf("output shows the key:\n%s", out)
		}
	})

	t.Run("json", func(t *testing.T) {
		common, out, errOut := clitest.NewCommon(&clitest.FakeCaller{}, true, false)
		if err := configShowRun(context.Background(), &ConfigShowOptions{Common: common, Load: load}); err != nil {
			t.Fatal(err)
		}
		var env struct {
			OK   bool
			Data ConfigShowData
		}
		if err := json.Unmarshal(out.Bytes(), &env); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if !env.OK || errOut.Len() != 0 {
			t.Errorf("ok=%v stderr=%q", env.OK, errOut)
		}
		want := map[string]ConfigValue{
			"browser.engine":   {Value: "cdp", Source: path},
			"model.api_key":    {Value: "••••4321", Source: "env ANTHROPIC_API_KEY"},
			"browser.headless": {Value: true, Source: "default"},
		}
		for k, w := range want {
			if d := cmp.Diff(w, env.Data.Values[k]); d != "" {
				t.Errorf("%s (-want +got):\n%s", k, d)
			}
		}
		if d := cmp.Diff([]string{path}, env.Data.Files); d != "" {
			t.Errorf("files (-want +got):\n%s", d)
		}
	})

	t.Run("load error", func(t *testing.T) {
		common, _, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
		bad := errors.New(`config file /p/waymark.toml:3: unknown key "browser.headles"`)
		err := configShowRun(context.Background(), &ConfigShowOptions{Common: common, Load: func() (*config.Config, error) { return nil, bad }})
		if !errors.Is(err, bad) || cmdutil.ExitCode(err) != cmdutil.ExitFailed {
			t.Fatalf("err = %v (exit %d), want the load error, exit 1", err, cmdutil.ExitCode(err))
		}
	})
}
