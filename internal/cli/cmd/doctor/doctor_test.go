package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/browser"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
)

func TestNewCmdDoctor(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantModels bool
		wantCode   int
	}{
		{name: "plain", args: nil},
		{name: "models", args: []string{"--models"}, wantModels: true},
		{name: "no args", args: []string{"browser"}, wantCode: cmdutil.ExitUsage},
		{name: "unknown flag", args: []string{"--model"}, wantCode: cmdutil.ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := clitest.ParseCmd(t, NewCmdDoctor, tt.args)
			if code := cmdutil.ExitCode(err); code != tt.wantCode {
				t.Fatalf("exit code %d (err %v), want %d", code, err, tt.wantCode)
			}
			if tt.wantCode != 0 {
				return
			}
			if got.Models != tt.wantModels {
				t.Errorf("options %+v, want Models=%v", got, tt.wantModels)
			}
		})
	}
}

func TestDoctorRun(t *testing.T) {
	down := func(context.Context, string) error { return errors.New("connection refused") }
	tests := []struct {
		name     string
		setup    func(o *DoctorOptions)
		wantCode int
		want     []string // lines or parts of lines on stdout
		wantHint string
	}{
		{
			name: "all present",
			want: []string{"✓ browser: /usr/bin/chromium (Chromium 148.0.7778.0)", "✓ headless: started headless", "✓ socket: ",
				"- cdp: no CDP endpoint configured", "- model: no model configured", "✓ disk: 20.0 GB free in", "✓ config: no config file",
				"✓ network: pages reach the network through the daemon's proxy"},
		},
		{
			name: "a proxy of the user's: a warning",
			setup: func(o *DoctorOptions) {
				o.Getenv = func(k string) string { return map[string]string{"HTTPS_PROXY": "http://corp:3128"}[k] }
			},
			want: []string{"! network: each navigation is checked before it goes, but a name that resolves differently", "HTTPS_PROXY routes traffic through a proxy of the user's"},
		},
		{
			name:  "proxy flags of the user's: a warning",
			setup: func(o *DoctorOptions) { o.BrowserArgs = []string{"--proxy-server=http://corp:3128"} },
			want:  []string{"! network: ", "the browser's own proxy flags (--proxy-server=http://corp:3128) are in charge"},
		},
		{
			name: "private_network all: nothing to refuse",
			setup: func(o *DoctorOptions) {
				o.LoadConfig = cfgWith(func(c *config.Config) { c.Policy.PrivateNetwork = "all" })
			},
			want: []string{`✓ network: private_network = "all" judges no address`},
		},
		{
			name: "missing browser",
			setup: func(o *DoctorOptions) {
				o.FindBrowser = func(string) (string, error) {
					return "", &browser.NotFoundError{Looked: []string{"chromium", "google-chrome"}}
				}
			},
			wantCode: cmdutil.ExitFailed,
			want:     []string{"✗ browser: no Chromium or Chrome found (looked for chromium, google-chrome) — fix: ", "✗ headless: no browser to start"},
			wantHint: "WAYMARK_BROWSER",
		},
		{
			name: "browser does not run",
			setup: func(o *DoctorOptions) {
				o.BrowserVersion = func(context.Context, string) (string, error) { return "", errors.New("exit status 127") }
			},
			wantCode: cmdutil.ExitFailed,
			want:     []string{"✗ browser: /usr/bin/chromium does not run: exit status 127 — fix: reinstall it"},
		},
		{
			name: "headless start fails",
			setup: func(o *DoctorOptions) {
				o.RenderPage = func(context.Context, string, []string) (string, error) {
					return "", errors.New("chrome failed to start")
				}
			},
			wantCode: cmdutil.ExitFailed,
			want:     []string{"✗ headless: /usr/bin/chromium did not start headless and render a page: chrome failed to start — fix: run "},
		},
		{
			name: "config error",
			setup: func(o *DoctorOptions) {
				o.LoadConfig = func() (*config.Config, error) {
					return nil, errors.New(`config file w.toml:2: unknown key "browser.x"`)
				}
			},
			wantCode: cmdutil.ExitFailed,
			want:     []string{`✗ config: config file w.toml:2: unknown key "browser.x" — fix: correct the file`, "✓ browser:"},
		},
		{
			name: "cdp endpoint down, fallback on: a warning",
			setup: func(o *DoctorOptions) {
				o.LoadConfig = cfgWith(func(c *config.Config) { c.Browser.CDP = "9222" })
				o.ProbeCDP = down
			},
			want: []string{"! cdp: 9222 does not answer (connection refused); a local Chromium is used instead", "✓ browser:"},
		},
		{
			name: "cdp endpoint down, fallback off",
			setup: func(o *DoctorOptions) {
				o.LoadConfig = cfgWith(func(c *config.Config) { c.Browser.CDP, c.Fallback.CDPToLocal = "9222", false })
				o.ProbeCDP = down
				o.FindBrowser = func(string) (string, error) { return "", &browser.NotFoundError{} }
			},
			wantCode: cmdutil.ExitFailed,
			want:     []string{"✗ cdp: CDP endpoint 9222 does not answer", "cdp_to_local = true", "- browser: no local Chromium, and none needed", "- headless: no browser to start"},
		},
		{
			name: "cdp endpoint up",
			setup: func(o *DoctorOptions) {
				o.LoadConfig = cfgWith(func(c *config.Config) { c.Browser.CDP = "9222" })
				o.ProbeCDP = func(context.Context, string) error { return nil }
			},
			want: []string{"✓ cdp: 9222 answers"},
		},
		{
			name:  "low disk warns",
			setup: func(o *DoctorOptions) { o.FreeSpace = func(string) (uint64, error) { return 100 << 20, nil } },
			want:  []string{"! disk: only 100 MB free in", "fix: free some space"},
		},
		{
			name: "model without --models",
			setup: func(o *DoctorOptions) {
				o.LoadConfig = cfgWith(func(c *config.Config) { c.Model.Provider = "anthropic" })
			},
			want: []string{"- model: skipped: pass --models to call anthropic"},
		},
		{
			name: "model without a key",
			setup: func(o *DoctorOptions) {
				o.Models = true
				o.LoadConfig = cfgWith(func(c *config.Config) { c.Model.Provider = "openai" })
			},
			wantCode: cmdutil.ExitFailed,
			want:     []string{"✗ model: no API key for openai — fix: set OPENAI_API_KEY in the environment"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, out := goodDoctor(t, false)
			if tt.setup != nil {
				tt.setup(o)
			}
			err := doctorRun(context.Background(), o)
			if code := cmdutil.ExitCode(err); code != tt.wantCode {
				t.Fatalf("exit code %d (err %v), want %d\n%s", code, err, tt.wantCode, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if err != nil {
				if !errors.Is(err, ErrChecksFailed) {
					t.Errorf("err %v is not ErrChecksFailed", err)
				}
				if cmdutil.ErrorHint(err) == "" || !strings.Contains(cmdutil.ErrorHint(err), tt.wantHint) {
					t.Errorf("hint %q, want one with %q", cmdutil.ErrorHint(err), tt.wantHint)
				}
			}
		})
	}
}

func TestDoctorSocketFolder(t *testing.T) {
	tests := []struct {
		name     string
		mode     os.FileMode // of $XDG_RUNTIME_DIR/waymark; 0: not made
		wantCode int
		want     string
	}{
		{name: "not made yet", want: "✓ socket: "},
		{name: "private", mode: 0o700, want: "folder mode 0700, yours; no daemon socket yet"},
		{name: "open to others", mode: 0o755, wantCode: cmdutil.ExitFailed, want: "is mode 0755: other users may reach the daemon — fix: chmod 700 "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt := t.TempDir()
			t.Setenv("XDG_RUNTIME_DIR", rt)
			if tt.mode != 0 {
				dir := filepath.Join(rt, "waymark")
				if err := os.Mkdir(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(dir, tt.mode); err != nil {
					t.Fatal(err)
				}
			}
			o, out := goodDoctor(t, false)
			o.Socket = "" // the per-user default, under XDG_RUNTIME_DIR
			err := doctorRun(context.Background(), o)
			if code := cmdutil.ExitCode(err); code != tt.wantCode {
				t.Fatalf("exit code %d (err %v), want %d\n%s", code, err, tt.wantCode, out)
			}
			if !strings.Contains(out.String(), tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, out)
			}
		})
	}
}

func TestDoctorModels(t *testing.T) {
	srv := fakeProvider(t, "sk-good", "claude-a", "claude-b")
	tests := []struct {
		name     string
		provider string
		key      string
		model    string
		act      string
		wantCode int
		want     []string
	}{
		{name: "anthropic, listed", provider: "anthropic", key: "sk-good", model: "claude-a", act: "claude-b",
			want: []string{"✓ model claude-a: offered by anthropic", "✓ model claude-b: offered by anthropic"}},
		{name: "openai, default model", provider: "openai", key: "sk-good",
			want: []string{"✓ model: openai answers (2 models; none configured"}},
		{name: "not listed warns", provider: "anthropic", key: "sk-good", model: "claude-z",
			want: []string{`! model claude-z: anthropic answers but does not list "claude-z"`}},
		{name: "bad key", provider: "anthropic", key: "sk-bad", model: "claude-a", wantCode: cmdutil.ExitFailed,
			want: []string{"✗ model: anthropic: the provider answered 401 Unauthorized — fix: check the key"}},
		{name: "rules", provider: "rules", want: []string{`✓ model: provider "rules" calls no API`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, out := goodDoctor(t, false)
			o.Models = true
			o.HTTPClient = srv.Client()
			base := srv.URL
			if tt.provider == "openai" {
				base += "/v1"
			}
			o.LoadConfig = cfgWith(func(c *config.Config) {
				c.Model.Provider, c.Model.APIKey, c.Model.BaseURL = tt.provider, tt.key, base
				c.Model.Model, c.Model.Purposes.Act = tt.model, tt.act
			})
			err := doctorRun(context.Background(), o)
			if code := cmdutil.ExitCode(err); code != tt.wantCode {
				t.Fatalf("exit code %d (err %v), want %d\n%s", code, err, tt.wantCode, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if strings.Contains(out.String(), tt.key) && tt.key != "" {
				t.Errorf("output shows the key:\n%s", out)
			}
		})
	}
}

func TestDoctorJSON(t *testing.T) {
	t.Run("pass", func(t *testing.T) {
		o, out := goodDoctor(t, true)
		if err := doctorRun(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		var env struct {
			OK   bool         `json:"ok"`
			Data doctorReport `json:"data"`
		}
		if err := json.Unmarshal(out.Bytes(), &env); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if !env.OK || !env.Data.OK || len(env.Data.Checks) < 7 {
			t.Errorf("envelope %+v", env)
		}
	})
	t.Run("fail leaves stdout to the error envelope", func(t *testing.T) {
		o, out := goodDoctor(t, true)
		o.FindBrowser = func(string) (string, error) { return "", &browser.NotFoundError{Looked: []string{"chromium"}} }
		err := doctorRun(context.Background(), o)
		if cmdutil.ExitCode(err) != cmdutil.ExitFailed || out.Len() != 0 {
			t.Fatalf("err %v, stdout %q; want exit 1 and nothing printed yet", err, out)
		}
		// With --json the message is all an agent reads: it names each
		// failure and its fix.
		for _, w := range []string{"2 of 8 checks failed", "browser: no Chromium", "(fix: ", "headless: no browser to start"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("message %q lacks %q", err, w)
			}
		}
		var de *DoctorError
		if !errors.As(err, &de) || de.ErrorCode() != "doctor_failed" || len(de.Checks) != 8 {
			t.Errorf("err %#v: want a *DoctorError with the checks", err)
		}
	})
}

// TestDoctorRealBrowser runs every real check but the model call against
// the machine's Chromium.
func TestDoctorRealBrowser(t *testing.T) {
	path := browsertest.Chrome(t)
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	common, out, _ := clitest.NewCommon(&clitest.FakeCaller{}, false, false)
	o := &DoctorOptions{
		Common:      common,
		BrowserArgs: browsertest.GuardArgs,
		LoadConfig:  cfgWith(func(c *config.Config) { c.Browser.Executable = path }),
	}
	err := doctorRun(context.Background(), o)
	if err != nil {
		t.Fatalf("doctor failed: %v\n%s", err, out)
	}
	for _, w := range []string{"✓ browser: " + path + " (", "✓ headless: started headless and rendered a test page", "✓ socket: "} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	t.Log("\n" + out.String())
}

// goodDoctor returns options whose every check passes without touching the
// machine: a found browser, a rendered page, a private socket folder of
// our own, plenty of disk.
func goodDoctor(t *testing.T, jsonOut bool) (*DoctorOptions, *bytes.Buffer) {
	t.Helper()
	common, out, _ := clitest.NewCommon(&clitest.FakeCaller{}, jsonOut, false)
	run := t.TempDir()
	common.Getenv = func(string) string { return "" }
	return &DoctorOptions{
		Common:         common,
		LoadConfig:     func() (*config.Config, error) { return config.Default(), nil },
		FindBrowser:    func(string) (string, error) { return "/usr/bin/chromium", nil },
		BrowserVersion: func(context.Context, string) (string, error) { return "Chromium 148.0.7778.0", nil },
		RenderPage: func(context.Context, string, []string) (string, error) {
			return "started headless and rendered a test page (1 ref)", nil
		},
		Socket:    filepath.Join(run, "daemon.sock"), // named by the user: its folder may be shared
		ProbeCDP:  func(context.Context, string) error { return errors.New("unexpected probe") },
		FreeSpace: func(string) (uint64, error) { return 20 << 30, nil },
	}, out
}

func cfgWith(edit func(c *config.Config)) func() (*config.Config, error) {
	return func() (*config.Config, error) {
		c := config.Default()
		edit(c)
		return c, nil
	}
}

// fakeProvider serves a model list at both providers' paths, refusing any
// other key than key.
func fakeProvider(t *testing.T, key string, ids ...string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") != key && r.Header.Get("Authorization") != "Bearer "+key {
			http.Error(w, `{"error":"invalid key"}`, http.StatusUnauthorized)
			return
		}
		if r.URL.Path != "/v1/models" && r.URL.Path != "/models" {
			http.NotFound(w, r)
			return
		}
		var data []string
		for _, id := range ids {
			data = append(data, fmt.Sprintf(`{"id":%q}`, id))
		}
		fmt.Fprintf(w, `{"data":[%s]}`, strings.Join(data, ","))
	}))
	t.Cleanup(srv.Close)
	return srv
}
