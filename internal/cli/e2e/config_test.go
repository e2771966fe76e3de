package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
	configcmd "github.com/waymark-dev/waymark/internal/cli/cmd/config"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/config"
)

// TestConfigFlags: the global flags set on the command line, and only
// those, become config layers and the command line of a daemon this
// command starts; the session is not the daemon's.
func TestConfigFlags(t *testing.T) {
	g := cmdutil.GlobalOptions{Session: "s2", ExecutablePath: "/x/chrome", CDP: "9222", Headed: true, BrowserArgs: []string{"--a", "--b"}, PrivateNetwork: "all", NetLog: "/x/net.json"}
	tests := []struct {
		name     string
		set      []string
		want     []config.Flag
		wantArgs []string
	}{
		{name: "none set: env and files decide", want: nil},
		{
			name: "set flags become layers",
			set:  []string{"cdp", "headed", "browser-arg", "session", "executable-path", "private-network", "netlog"},
			want: []config.Flag{
				{Name: "--session", Key: "session.name", Value: "s2"},
				{Name: "--executable-path", Key: "browser.executable", Value: "/x/chrome"},
				{Name: "--headed", Key: "browser.headless", Value: "false"},
				{Name: "--cdp", Key: "browser.cdp", Value: "9222"},
				{Name: "--browser-arg", Key: "browser.args", Value: "--a\n--b"},
				{Name: "--private-network", Key: "policy.private_network", Value: "all"},
				{Name: "--netlog", Key: "evidence.netlog_file", Value: "/x/net.json"},
			},
			wantArgs: []string{"--executable-path=/x/chrome", "--headed=true", "--cdp=9222", "--browser-arg=--a", "--browser-arg=--b", "--private-network=all", "--netlog=/x/net.json"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := g
			g.NoteSet(func(n string) bool { return slices.Contains(tt.set, n) })
			if d := cmp.Diff(tt.want, g.ConfigFlags()); d != "" {
				t.Errorf("flags (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.wantArgs, g.DaemonArgs()); d != "" {
				t.Errorf("daemon args (-want +got):\n%s", d)
			}
		})
	}
}

// TestConfigPrecedence: for every global flag that sets a key, a project
// file < the environment < the flag, as `config show` reports it through
// the real root command and the process's one loader.
func TestConfigPrecedence(t *testing.T) {
	tests := []struct {
		key                 string
		file                string // the project file's line, in its section
		env                 string // the variable; "" for a key with none
		envValue, flag      string
		fileVal, envVal     any
		flagArgs            []string
		flagVal, flagSource any
	}{
		{key: "browser.executable", file: "[browser]\nexecutable = \"/file/chrome\"", env: "WAYMARK_BROWSER", envValue: "/env/chrome",
			fileVal: "/file/chrome", envVal: "/env/chrome", flagArgs: []string{"--executable-path", "/flag/chrome"}, flagVal: "/flag/chrome", flagSource: "flag --executable-path"},
		{key: "browser.cdp", file: "[browser]\ncdp = \"1111\"", env: "WAYMARK_CDP", envValue: "2222",
			fileVal: "1111", envVal: "2222", flagArgs: []string{"--cdp", "3333"}, flagVal: "3333", flagSource: "flag --cdp"},
		{key: "browser.headless", file: "[browser]\nheadless = true",
			fileVal: true, flagArgs: []string{"--headed"}, flagVal: false, flagSource: "flag --headed"},
		{key: "browser.args", file: "[browser]\nargs = [\"--file\"]", env: "WAYMARK_BROWSER_ARGS", envValue: "--env1\n--env2",
			fileVal: []any{"--file"}, envVal: []any{"--env1", "--env2"}, flagArgs: []string{"--browser-arg", "--flag"}, flagVal: []any{"--flag"}, flagSource: "flag --browser-arg"},
		{key: "policy.private_network", file: "[policy]\nprivate_network = \"none\"", env: "WAYMARK_PRIVATE_NETWORK", envValue: "loopback",
			fileVal: "none", envVal: "loopback", flagArgs: []string{"--private-network", "all"}, flagVal: "all", flagSource: "flag --private-network"},
		{key: "session.name", file: "[session]\nname = \"file\"", env: "WAYMARK_SESSION", envValue: "envs",
			fileVal: "file", envVal: "envs", flagArgs: []string{"--session", "flags"}, flagVal: "flags", flagSource: "flag --session"},
	}
	show := func(t *testing.T, file string, env map[string]string, args ...string) map[string]configcmd.ConfigValue {
		t.Helper()
		code, stdout, stderr, _ := runMainConfig(t, context.Background(), &clitest.FakeCaller{}, env, clitest.LoadFile(t, file, env), append(args, "config", "show", "--json")...)
		if code != 0 {
			t.Fatalf("exit %d: %s%s", code, stdout, stderr)
		}
		var out struct{ Data configcmd.ConfigShowData }
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%v: %s", err, stdout)
		}
		return out.Data.Values
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			file := tt.file + "\n"
			if got := show(t, file, nil)[tt.key]; !cmp.Equal(got.Value, tt.fileVal) || !strings.HasSuffix(got.Source, config.ProjectFile) {
				t.Errorf("file: %+v, want %v from the file", got, tt.fileVal)
			}
			var env map[string]string
			if tt.env != "" {
				env = map[string]string{tt.env: tt.envValue}
				if got := show(t, file, env)[tt.key]; !cmp.Equal(got.Value, tt.envVal) || got.Source != "env "+tt.env {
					t.Errorf("env over file: %+v, want %v from env %s", got, tt.envVal, tt.env)
				}
			}
			if got := show(t, file, env, tt.flagArgs...)[tt.key]; !cmp.Equal(got.Value, tt.flagVal) || got.Source != tt.flagSource {
				t.Errorf("flag over env and file: %+v, want %v from %s", got, tt.flagVal, tt.flagSource)
			}
		})
	}
}

// TestConfigShowMatchesDaemon: `config show` prints what a daemon started
// with the same flags applies. --private-network was left out of the flag
// table config show and doctor used, so they printed "loopback" while the
// daemon obeyed "all".
func TestConfigShowMatchesDaemon(t *testing.T) {
	args := []string{"--private-network", "all", "--headed", "--browser-arg", "--lang=de"}
	code, stdout, stderr, _ := runMainConfig(t, context.Background(), &clitest.FakeCaller{}, nil, clitest.LoadFile(t, "", nil), append(args, "config", "show", "--json")...)
	if code != 0 {
		t.Fatalf("config show: exit %d: %s", code, stderr)
	}
	var shown struct{ Data configcmd.ConfigShowData }
	if err := json.Unmarshal([]byte(stdout), &shown); err != nil {
		t.Fatal(err)
	}
	if got := shown.Data.Values["policy.private_network"]; got.Value != "all" || got.Source != "flag --private-network" {
		t.Errorf("config show: policy.private_network = %+v, want all from flag --private-network", got)
	}

	// The hidden daemon command, with the same flags, gets the same
	// configuration, and the driver's options follow it.
	var daemonCfg *config.Config
	ios, _, _, _ := iostreams.Test()
	deps := cli.Deps{
		Config: clitest.LoadFile(t, "", nil),
		RunDaemon: func(_ context.Context, _ cmdutil.GlobalOptions, cfg *config.Config) error {
			daemonCfg = cfg
			return nil
		},
		Getenv: func(string) string { return "" },
	}
	if code := cli.MainWith(context.Background(), append(args, "daemon"), ios, deps); code != 0 || daemonCfg == nil {
		t.Fatalf("daemon: exit %d, config %v", code, daemonCfg)
	}
	opts, err := cmdutil.DriverOptions(daemonCfg)
	if err != nil {
		t.Fatal(err)
	}
	if string(opts.Policy.Access()) != shown.Data.Values["policy.private_network"].Value || !opts.Headed || !slices.Equal(opts.Args, []string{"--lang=de"}) {
		t.Errorf("daemon applies access %q, headed %v, args %q; config show says %+v", opts.Policy.Access(), opts.Headed, opts.Args, shown.Data.Values)
	}
	for _, e := range daemonCfg.Entries() {
		want, _ := json.Marshal(configcmd.ConfigValue{Value: e.Value, Source: e.Source})
		got, _ := json.Marshal(shown.Data.Values[e.Key])
		if string(got) != string(want) {
			t.Errorf("%s: the daemon has %s, config show printed %s", e.Key, want, got)
		}
	}
}
