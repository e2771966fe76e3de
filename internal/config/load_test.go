package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// dirs makes a project dir and a user config dir with the given files
// (empty text: no file) and returns LoadOptions for them.
func dirs(t *testing.T, user, project string) (LoadOptions, string, string) {
	t.Helper()
	root := t.TempDir()
	opts := LoadOptions{Dir: filepath.Join(root, "project"), UserDir: filepath.Join(root, "config")}
	up := filepath.Join(opts.UserDir, "waymark", "config.toml")
	pp := filepath.Join(opts.Dir, ProjectFile)
	for _, f := range []struct{ path, text string }{{up, user}, {pp, project}} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
			t.Fatal(err)
		}
		if f.text != "" {
			if err := os.WriteFile(f.path, []byte(f.text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	return opts, up, pp
}

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDefaults(t *testing.T) {
	c, err := Load(LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Browser:  Browser{Engine: EngineAuto, Headless: true},
		Fallback: Fallback{CDPToLocal: true},
		Session:  Session{Name: "default", Submits: "ask"},
		Policy:   Policy{PrivateNetwork: "loopback"},
		Evidence: Evidence{NetLog: NetLogOff},
		Daemon:   Daemon{Idle: 30 * time.Minute},
		MCP:      MCP{Submits: "ask"},
	}
	if d := cmp.Diff(want, *c, cmpopts.IgnoreUnexported(Config{})); d != "" {
		t.Errorf("defaults (-want +got):\n%s", d)
	}
	for k, src := range c.Sources() {
		if src != SourceDefault {
			t.Errorf("source of %s = %q, want default", k, src)
		}
	}
	if len(c.Sources()) != len(keys) {
		t.Errorf("Sources has %d keys, want %d", len(c.Sources()), len(keys))
	}
}

func TestPrecedence(t *testing.T) {
	user := "[browser]\ncdp = \"1111\"\nexecutable = \"/user/chrome\"\n[session]\nname = \"user\"\n"
	project := "[browser]\ncdp = \"2222\"\n[evidence]\nfolder = \"proof\"\n"
	tests := []struct {
		name    string
		env     map[string]string
		flags   []Flag
		wantCDP string
		wantSrc string // source of browser.cdp; "" means the project file
	}{
		{name: "project file over user file", wantCDP: "2222"},
		{name: "env over files", env: map[string]string{"WAYMARK_CDP": "3333"}, wantCDP: "3333", wantSrc: "env WAYMARK_CDP"},
		{
			name: "flag over env", env: map[string]string{"WAYMARK_CDP": "3333"},
			flags:   []Flag{{Name: "--cdp", Key: "browser.cdp", Value: "4444"}},
			wantCDP: "4444", wantSrc: "flag --cdp",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, up, pp := dirs(t, user, project)
			opts.Getenv, opts.Flags = envOf(tt.env), tt.flags
			c, err := Load(opts)
			if err != nil {
				t.Fatal(err)
			}
			if c.Browser.CDP != tt.wantCDP {
				t.Errorf("cdp = %q, want %q", c.Browser.CDP, tt.wantCDP)
			}
			src := c.Sources()
			if tt.wantSrc == "" {
				tt.wantSrc = pp
			}
			if src["browser.cdp"] != tt.wantSrc {
				t.Errorf("source of browser.cdp = %q, want %q", src["browser.cdp"], tt.wantSrc)
			}
			// Keys only the user file sets keep it as their source.
			if c.Browser.Executable != "/user/chrome" || src["browser.executable"] != up {
				t.Errorf("executable = %q from %q, want /user/chrome from %s", c.Browser.Executable, src["browser.executable"], up)
			}
			if c.Evidence.Folder != "proof" || src["evidence.folder"] != pp {
				t.Errorf("evidence.folder = %q from %q", c.Evidence.Folder, src["evidence.folder"])
			}
			if d := cmp.Diff([]string{up, pp}, c.Files()); d != "" {
				t.Errorf("Files (-want +got):\n%s", d)
			}
		})
	}
}

func TestSections(t *testing.T) {
	file := `
[browser]
engine = "cdp"
executable = "/opt/chrome"
cdp = "ws://127.0.0.1:9222/devtools/browser/x"
headless = false
args = ["--lang=de", "--mute-audio"]

[fallback]
cdp_to_local = false

[session]
name = "checkout"
submits = "allow"
timeout = "45s"

[policy]
allow = ["https://shop.example/*"]
block = ["*/admin/*"]
private_network = "loopback"

[model]
provider = "openai"
model = "gpt-5"
base_url = "http://127.0.0.1:8080/v1"

[model.purposes]
act = "gpt-5-mini"
heal = "gpt-5"

[evidence]
folder = "out/evidence"

[daemon]
idle = "2h"

[mcp]
submits = "allow"
`
	opts, _, pp := dirs(t, "", file)
	c, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Browser: Browser{Engine: EngineCDP, Executable: "/opt/chrome", CDP: "ws://127.0.0.1:9222/devtools/browser/x",
			Headless: false, Args: []string{"--lang=de", "--mute-audio"}},
		Fallback: Fallback{CDPToLocal: false},
		Session:  Session{Name: "checkout", Submits: "allow", Timeout: 45 * time.Second},
		Policy:   Policy{Allow: []string{"https://shop.example/*"}, Block: []string{"*/admin/*"}, PrivateNetwork: "loopback"},
		Model: Model{Provider: "openai", Model: "gpt-5", BaseURL: "http://127.0.0.1:8080/v1",
			Purposes: Purposes{Act: "gpt-5-mini", Heal: "gpt-5"}},
		Evidence: Evidence{Folder: "out/evidence", NetLog: NetLogOff},
		Daemon:   Daemon{Idle: 2 * time.Hour},
		MCP:      MCP{Submits: "allow"},
	}
	if d := cmp.Diff(want, *c, cmpopts.IgnoreUnexported(Config{})); d != "" {
		t.Errorf("config (-want +got):\n%s", d)
	}
	src := c.Sources()
	for _, k := range []string{"browser.headless", "fallback.cdp_to_local", "session.timeout", "model.purposes.act"} {
		if src[k] != pp {
			t.Errorf("source of %s = %q, want %s", k, src[k], pp)
		}
	}
	if src["model.purposes.observe"] != SourceDefault || src["model.api_key"] != SourceDefault {
		t.Errorf("unset keys should keep source default: %v", src)
	}
	if got := c.Model.For("act"); got != "gpt-5-mini" {
		t.Errorf("For(act) = %q", got)
	}
	if got := c.Model.For("observe"); got != "gpt-5" {
		t.Errorf("For(observe) = %q, want the model", got)
	}
}

func TestEnv(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		env   map[string]string
		want  func(c *Config) []any // got values, compared with wantV
		wantV []any
		srcs  map[string]string
	}{
		{
			name: "browser, session, policy, model",
			env: map[string]string{
				"WAYMARK_BROWSER": "/env/chrome", "WAYMARK_SESSION": "e", "WAYMARK_MODEL": "m1",
				"WAYMARK_PRIVATE_NETWORK": "all", "WAYMARK_BROWSER_ARGS": "--a\n\n--b\n",
			},
			want: func(c *Config) []any {
				return []any{c.Browser.Executable, c.Session.Name, c.Model.Model, c.Policy.PrivateNetwork, c.Browser.Args}
			},
			wantV: []any{"/env/chrome", "e", "m1", "all", []string{"--a", "--b"}},
			srcs:  map[string]string{"browser.executable": "env WAYMARK_BROWSER", "browser.args": "env WAYMARK_BROWSER_ARGS"},
		},
		{
			name:  "anthropic key picks the provider",
			env:   map[string]string{"ANTHROPIC_API_KEY": "sk-ant-123456789", "OPENAI_API_KEY": "sk-oa"},
			want:  func(c *Config) []any { return []any{c.Model.Provider, c.Model.APIKey} },
			wantV: []any{"anthropic", "sk-ant-123456789"},
			srcs:  map[string]string{"model.provider": "env ANTHROPIC_API_KEY", "model.api_key": "env ANTHROPIC_API_KEY"},
		},
		{
			name:  "file provider picks the key",
			file:  "[model]\nprovider = \"openai\"\n",
			env:   map[string]string{"ANTHROPIC_API_KEY": "sk-ant", "OPENAI_API_KEY": "sk-oa", "OPENAI_BASE_URL": "http://llm.local/v1"},
			want:  func(c *Config) []any { return []any{c.Model.Provider, c.Model.APIKey, c.Model.BaseURL} },
			wantV: []any{"openai", "sk-oa", "http://llm.local/v1"},
			srcs:  map[string]string{"model.api_key": "env OPENAI_API_KEY", "model.base_url": "env OPENAI_BASE_URL"},
		},
		{
			name:  "OPENAI_BASE_URL ignored for anthropic",
			file:  "[model]\nprovider = \"anthropic\"\n",
			env:   map[string]string{"OPENAI_BASE_URL": "http://llm.local/v1"},
			want:  func(c *Config) []any { return []any{c.Model.BaseURL} },
			wantV: []any{""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, _, _ := dirs(t, "", tt.file)
			opts.Getenv = envOf(tt.env)
			c, err := Load(opts)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.wantV, tt.want(c)); d != "" {
				t.Errorf("values (-want +got):\n%s", d)
			}
			src := c.Sources()
			for k, v := range tt.srcs {
				if src[k] != v {
					t.Errorf("source of %s = %q, want %q", k, src[k], v)
				}
			}
		})
	}
}

func TestFlags(t *testing.T) {
	c, err := Load(LoadOptions{Flags: []Flag{
		{Name: "--headed", Key: "browser.headless", Value: "false"},
		{Name: "--browser-arg", Key: "browser.args", Value: "--x\n--y"},
		{Name: "--timeout", Key: "session.timeout", Value: "2m"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Browser.Headless || c.Session.Timeout != 2*time.Minute || len(c.Browser.Args) != 2 {
		t.Errorf("flags not applied: %+v %+v", c.Browser, c.Session)
	}
	if got := c.Sources()["browser.headless"]; got != "flag --headed" {
		t.Errorf("source = %q", got)
	}
	if _, err := Load(LoadOptions{Flags: []Flag{{Name: "--x", Key: "browser.nope", Value: "1"}}}); err == nil {
		t.Error("a flag for an unknown key loaded")
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name   string
		file   string
		env    map[string]string
		want   []string // substrings of the error
		wantAs any
	}{
		{
			name: "unknown key", file: "[browser]\nheadless = true\nheadles = false\n",
			want:   []string{`unknown key "browser.headles"`, ProjectFile + ":3", `did you mean "browser.headless"?`},
			wantAs: new(*UnknownKeyError),
		},
		{
			name: "key in the wrong section", file: "[browser]\ntimeout = \"3s\"\n",
			want: []string{`unknown key "browser.timeout"`, `did you mean "session.timeout"?`},
		},
		{
			name: "unknown section", file: "[brwser]\nengine = \"cdp\"\n",
			want: []string{`unknown key "brwser"`, ":1", `did you mean "browser"?`},
		},
		{
			name: "unknown purpose lists the known ones", file: "[model.purposes]\nsummarize = \"m\"\n",
			want: []string{`unknown key "model.purposes.summarize"`, "[model.purposes] knows act, observe, extract, heal, decide"},
		},
		{
			name: "bad engine", file: "[browser]\nengine = \"firefox\"\n",
			want:   []string{`browser.engine = "firefox" is not allowed`, `"chromium", "cdp", "auto"`, ProjectFile},
			wantAs: new(*ValueError),
		},
		{
			name: "bad private_network from env", env: map[string]string{"WAYMARK_PRIVATE_NETWORK": "lan"},
			want: []string{"env WAYMARK_PRIVATE_NETWORK", `"none", "loopback", "all"`},
		},
		{name: "bad submits", file: "[session]\nsubmits = \"yes\"\n", want: []string{`"ask", "allow"`}},
		{name: "bad provider", file: "[model]\nprovider = \"llama\"\n", want: []string{`"anthropic", "openai", "rules"`}},
		{name: "syntax error", file: "[browser\n", want: []string{ProjectFile + ":2", "table name"}},
		{name: "wrong type", file: "[browser]\nheadless = \"yes\"\n", want: []string{ProjectFile + ":2", "browser.headless wants a boolean, not a string"}},
		{name: "bad duration", file: "[session]\ntimeout = \"soon\"\n", want: []string{ProjectFile + ":2", "session.timeout", "soon", "30s"}},
		{name: "negative duration", file: "[session]\ntimeout = \"-5s\"\n", want: []string{ProjectFile, `session.timeout = "-5s"`, "must not be negative"},
			wantAs: new(*ValueError)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, _, _ := dirs(t, "", tt.file)
			opts.Getenv = envOf(tt.env)
			_, err := Load(opts)
			if err == nil {
				t.Fatal("Load succeeded")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			switch as := tt.wantAs.(type) {
			case **UnknownKeyError:
				if !errors.As(err, as) {
					t.Errorf("error %T is not an *UnknownKeyError", err)
				}
			case **ValueError:
				if !errors.As(err, as) {
					t.Errorf("error %T is not a *ValueError", err)
				}
			}
		})
	}
}

func TestUnreadableFile(t *testing.T) {
	if runtime.GOOS == "windows" || os.Getuid() == 0 {
		t.Skip("needs Unix modes enforced (not root)")
	}
	opts, _, pp := dirs(t, "", "[browser]\n")
	if err := os.Chmod(pp, 0o000); err != nil {
		t.Fatal(err)
	}
	_, err := Load(opts)
	if err == nil || !strings.Contains(err.Error(), pp) || !strings.Contains(err.Error(), "permission") {
		t.Fatalf("err = %v, want one naming %s and the permission", err, pp)
	}
}

// TestUnreadableFolder also runs as root: a folder in the file's place
// cannot be read as a file by anyone.
func TestUnreadableFolder(t *testing.T) {
	opts, _, pp := dirs(t, "", "")
	if err := os.Mkdir(pp, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := Load(opts)
	if err == nil || !strings.Contains(err.Error(), pp) {
		t.Fatalf("err = %v, want one naming %s", err, pp)
	}
}

func TestAPIKeyFileMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	tests := []struct {
		mode    os.FileMode
		wantErr bool
	}{
		{0o644, true},
		{0o640, true},
		{0o600, false},
		{0o400, false},
	}
	for _, tt := range tests {
		t.Run(tt.mode.String(), func(t *testing.T) {
			opts, _, pp := dirs(t, "", "[model]\nprovider = \"anthropic\"\napi_key = \"sk-ant-file-0000\"\n")
			if err := os.Chmod(pp, tt.mode); err != nil {
				t.Fatal(err)
			}
			c, err := Load(opts)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), "chmod 600") || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
					t.Fatalf("err = %v, want a refusal saying chmod 600 or use the environment", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Model.APIKey != "sk-ant-file-0000" || c.Sources()["model.api_key"] != pp {
				t.Errorf("api_key = %q from %q", c.Model.APIKey, c.Sources()["model.api_key"])
			}
		})
	}
}

func TestEveryKeyCopies(t *testing.T) {
	// Each key of the table must have a field type copyTo and parse handle.
	src, dst := Default(), Default()
	for _, k := range keys {
		k.copyTo(dst, src)
	}
}

func TestLoadApps(t *testing.T) {
	opts, _, pp := dirs(t, `
[[apps]]
name = "Team grid"
kind = "sheet"
hosts = ["grid.corp.example"]
name_box = "#ref-box"
grid = "#cells"
`, `
[[apps]]
name = "Wiki"
kind = "doc"
marker = ".wiki-editor"
editor = ".wiki-editor [contenteditable]"
`)
	c, err := Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Apps) != 2 || c.Apps[0].Name != "Team grid" || c.Apps[0].NameBox != "#ref-box" || c.Apps[1].Editor != ".wiki-editor [contenteditable]" {
		t.Fatalf("apps = %+v", c.Apps)
	}
	for _, bad := range []struct{ text, want string }{
		{"[[apps]]\nname = \"Bad\"\nkind = \"table\"\nhosts = [\"x\"]\n", `kind is "table"`},
		{"[[apps]]\nname = \"Typo\"\nkind = \"sheet\"\nhosts = [\"x\"]\nname_bx = \"#n\"\n", "name_bx"},
		{"[[apps]]\nname = \"Nowhere\"\nkind = \"sheet\"\nname_box = \"#n\"\n", "hosts"},
	} {
		if err := os.WriteFile(pp, []byte(bad.text), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(LoadOptions{Dir: opts.Dir}); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v", bad.text, err)
		}
	}
}
