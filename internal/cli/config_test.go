package cli

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
		{name: "no subcommand", args: nil, wantCode: ExitUsage},
		{name: "unknown subcommand", args: []string{"shwo"}, wantCode: ExitUsage},
		{name: "show takes no args", args: []string{"show", "x"}, wantCode: ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseCmd(t, NewCmdConfig, tt.args)
			if code := ExitCode(err); code != tt.wantCode {
				t.Fatalf("exit code %d (err %v), want %d", code, err, tt.wantCode)
			}
			if tt.wantRun && (got == nil || got.Load == nil) {
				t.Fatalf("runF got %+v, want options with Load", got)
			}
		})
	}
}

func TestConfigFlags(t *testing.T) {
	g := GlobalOptions{Session: "s2", ExecutablePath: "/x/chrome", CDP: "9222", Headed: true, BrowserArgs: []string{"--a", "--b"}}
	tests := []struct {
		name    string
		changed []string
		want    []config.Flag
	}{
		{name: "none set: env and files decide", want: nil},
		{
			name:    "set flags become layers",
			changed: []string{"cdp", "headed", "browser-arg", "session", "executable-path"},
			want: []config.Flag{
				{Name: "--executable-path", Key: "browser.executable", Value: "/x/chrome"},
				{Name: "--cdp", Key: "browser.cdp", Value: "9222"},
				{Name: "--browser-arg", Key: "browser.args", Value: "--a\n--b"},
				{Name: "--session", Key: "session.name", Value: "s2"},
				{Name: "--headed", Key: "browser.headless", Value: "false"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changed := func(n string) bool {
				for _, c := range tt.changed {
					if c == n {
						return true
					}
				}
				return false
			}
			if d := cmp.Diff(tt.want, configFlags(changed, g)); d != "" {
				t.Errorf("flags (-want +got):\n%s", d)
			}
		})
	}
}

// testConfig loads a config from a project file in a temporary folder
// (mode 0600) and the given environment.
func testConfig(t *testing.T, file string, env map[string]string) (*config.Config, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, config.ProjectFile)
	if file != "" {
		if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, err := config.Load(config.LoadOptions{Dir: dir, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	return c, path
}

func TestConfigShowRun(t *testing.T) {
	c, path := testConfig(t, "[browser]\nengine = \"cdp\"\ncdp = \"9222\"\n", map[string]string{"ANTHROPIC_API_KEY": "sk-ant-api03-abcdefghijkl4321"})
	load := func() (*config.Config, error) { return c, nil }

	t.Run("human", func(t *testing.T) {
		common, out, _ := testCommon(&fakeCaller{}, false, true)
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
		common, out, errOut := testCommon(&fakeCaller{}, true, false)
		if err := configShowRun(context.Background(), &ConfigShowOptions{Common: common, Load: load}); err != nil {
			t.Fatal(err)
		}
		var env struct {
			OK   bool
			Data configShowData
		}
		if err := json.Unmarshal(out.Bytes(), &env); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if !env.OK || errOut.Len() != 0 {
			t.Errorf("ok=%v stderr=%q", env.OK, errOut)
		}
		want := map[string]configValue{
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
		common, _, _ := testCommon(&fakeCaller{}, false, false)
		bad := errors.New(`config file /p/waymark.toml:3: unknown key "browser.headles"`)
		err := configShowRun(context.Background(), &ConfigShowOptions{Common: common, Load: func() (*config.Config, error) { return nil, bad }})
		if !errors.Is(err, bad) || ExitCode(err) != ExitFailed {
			t.Fatalf("err = %v (exit %d), want the load error, exit 1", err, ExitCode(err))
		}
	})
}

// TestConfigShowThroughRoot runs `config show` under the real root command:
// a global flag set on the command line is a flag layer, over the project
// file read from the working directory.
func TestConfigShowThroughRoot(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "no-user-config"))
	t.Setenv("WAYMARK_CDP", "")
	t.Setenv("WAYMARK_SESSION", "")
	if err := os.WriteFile(config.ProjectFile, []byte("[browser]\ncdp = \"1111\"\nexecutable = \"/file/chrome\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, _, out, _ := testFactory(&fakeCaller{})
	g := &GlobalOptions{}
	root := NewCmdRoot(f, g, func(string) string { return "" })
	root.AddCommand(NewCmdConfig(f, nil))
	root.SetArgs([]string{"--cdp", "9333", "config", "show", "--json"})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	var env struct{ Data configShowData }
	if err := json.Unmarshal(out.Bytes(), &env); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	wd, _ := os.Getwd()
	want := map[string]configValue{
		"browser.cdp":        {Value: "9333", Source: "flag --cdp"},
		"browser.executable": {Value: "/file/chrome", Source: filepath.Join(wd, config.ProjectFile)},
		"session.name":       {Value: "default", Source: "default"},
	}
	for k, w := range want {
		if d := cmp.Diff(w, env.Data.Values[k]); d != "" {
			t.Errorf("%s (-want +got):\n%s", k, d)
		}
	}
}
