package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/pilot"
)

// dialRecord is what cli.Deps.Dial was called with.
type dialRecord struct {
	G     cmdutil.GlobalOptions
	Start bool
	// Settings are the daemon settings of the configuration dialed with
	// (nil: none), which a running daemon's are compared with.
	Settings map[string]string
}

// runMain runs MainWith with a fake Caller behind cli.Deps.Dial, and the
// environment env with no config file.
func runMain(t *testing.T, ctx context.Context, fc cmdutil.Caller, env map[string]string, args ...string) (code int, stdout, stderr string, dials []dialRecord) {
	t.Helper()
	load := func(flags []config.Flag) (*config.Config, error) {
		return config.Load(config.LoadOptions{Getenv: func(k string) string { return env[k] }, Flags: flags})
	}
	return runMainConfig(t, ctx, fc, env, load, args...)
}

// runMainConfig is runMain with the configuration load returns.
func runMainConfig(t *testing.T, ctx context.Context, fc cmdutil.Caller, env map[string]string, load func([]config.Flag) (*config.Config, error), args ...string) (code int, stdout, stderr string, dials []dialRecord) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	state := t.TempDir() // the approvals record stop keeps, never the user's
	deps := cli.Deps{
		Config: load,
		Dial: func(_ context.Context, g cmdutil.GlobalOptions, cfg *config.Config, start bool) (cmdutil.Caller, error) {
			d := dialRecord{G: g, Start: start}
			if cfg != nil {
				d.Settings = cfg.DaemonSettings()
			}
			dials = append(dials, d)
			return fc, nil
		},
		Version: "v1.2.3",
		Getenv: func(k string) string {
			if k == "XDG_STATE_HOME" && env[k] == "" {
				return state
			}
			return env[k]
		},
	}
	code = cli.MainWith(ctx, args, ios, deps)
	return code, out.String(), errOut.String(), dials
}

func TestMainExitCodes(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	stale := calls.Errorf(calls.ErrStaleRef, `run "waymark snapshot" again`, "no element [ref=e53] on the page now")

	tests := []struct {
		name       string
		ctx        context.Context
		errs       map[string]error
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{
			name:       "ok",
			args:       []string{"click", "e1"},
			wantCode:   0,
			wantStdout: "clicked\n",
		},
		{
			name:       "stale ref prints the hint",
			errs:       map[string]error{calls.MethodAct: stale},
			args:       []string{"click", "e53"},
			wantCode:   1,
			wantStderr: "error: no element [ref=e53] on the page now\nhint: run \"waymark snapshot\" again\n",
		},
		{
			name:       "stale ref without a hint gets the default",
			errs:       map[string]error{calls.MethodAct: fmt.Errorf("click e53: %w", calls.ErrStaleRef)},
			args:       []string{"click", "e53"},
			wantCode:   1,
			wantStderr: "error: click e53: ref is no longer on the page\nhint: run `waymark snapshot -i` again for fresh refs\n",
		},
		{
			name:       "stale ref json",
			errs:       map[string]error{calls.MethodAct: stale},
			args:       []string{"--json", "click", "e53"},
			wantCode:   1,
			wantStdout: `{"ok":false,"error":{"code":"stale_ref","message":"no element [ref=e53] on the page now","hint":"run \"waymark snapshot\" again"}}` + "\n",
		},
		{
			name:     "unavailable",
			errs:     map[string]error{calls.MethodOpen: calls.Errorf(calls.ErrUnavailable, "install Chromium", "no Chromium found")},
			args:     []string{"open", "a.test"},
			wantCode: 3, wantStderr: "error: no Chromium found\nhint: install Chromium\n",
		},
		{
			name:       "browser gone",
			errs:       map[string]error{calls.MethodOpen: calls.FromCode("browser_gone", "the browser exited", "")},
			args:       []string{"--json", "open", "a.test"},
			wantCode:   3,
			wantStdout: `{"ok":false,"error":{"code":"browser_gone","message":"the browser exited","hint":"run the command again: a fresh browser starts"}}` + "\n",
		},
		{
			name:     "bad input is what the user gave: 2, as usage",
			errs:     map[string]error{calls.MethodOpen: calls.Errorf(calls.ErrBadInput, "", "bad URL")},
			args:     []string{"open", "::"},
			wantCode: 2, wantStderr: "error: bad URL\n",
		},
		{
			name:     "bad flag",
			args:     []string{"click", "e1", "--bogus"},
			wantCode: 2, wantStderr: "error: unknown flag: --bogus\nhint: run `waymark click --help` for usage\n",
		},
		{
			name:       "bad flag json",
			args:       []string{"--json", "click", "e1", "--bogus"},
			wantCode:   2,
			wantStdout: `{"ok":false,"error":{"code":"usage","message":"unknown flag: --bogus","hint":"run ` + "`waymark click --help`" + ` for usage"}}` + "\n",
		},
		{
			name:     "wrong arg count",
			args:     []string{"fill", "e1"},
			wantCode: 2, wantStderr: "error: waymark fill takes 2 argument(s), got 1\nhint: usage: `waymark fill TARGET TEXT [flags]`\n",
		},
		{
			name:     "unknown command suggests",
			args:     []string{"clik", "e1"},
			wantCode: 2, wantStderr: "error: unknown command \"clik\" for \"waymark\"\nhint: did you mean `waymark click`?\n",
		},
		{
			name:     "unknown subcommand suggests",
			args:     []string{"tab", "swich", "1"},
			wantCode: 2, wantStderr: "error: unknown command \"swich\" for \"waymark tab\"\nhint: did you mean `waymark tab switch`?\n",
		},
		{
			name:     "bad session name",
			args:     []string{"--session", "../etc", "click", "e1"},
			wantCode: 2, wantStderr: "error: bad session name \"../etc\"\nhint: use letters, digits, '.', '_' or '-' (up to 64)\n",
		},
		{
			name:     "bad cdp",
			args:     []string{"--cdp", "localhost", "snapshot"},
			wantCode: 2, wantStderr: "error: bad --cdp \"localhost\"\nhint: give a port (9222) or a URL (ws://127.0.0.1:9222/devtools/browser/…, http://127.0.0.1:9222)\n",
		},
		{
			name:     "canceled",
			ctx:      canceled,
			args:     []string{"click", "e1"},
			wantCode: 130, wantStderr: "error: canceled\n",
		},
		{
			name:       "canceled json",
			ctx:        canceled,
			args:       []string{"--json", "click", "e1"},
			wantCode:   130,
			wantStdout: `{"ok":false,"error":{"code":"canceled","message":"canceled"}}` + "\n",
		},
		{
			name:     "canceled while the call breaks the connection",
			ctx:      canceled,
			errs:     map[string]error{calls.MethodAct: errors.New("read unix: connection reset")},
			args:     []string{"click", "e1"},
			wantCode: 130, wantStderr: "error: canceled\n",
		},
		{
			name:     "internal error",
			errs:     map[string]error{calls.MethodAct: errors.New("boom")},
			args:     []string{"--json", "click", "e1"},
			wantCode: 1, wantStdout: `{"ok":false,"error":{"code":"internal","message":"boom"}}` + "\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			fc := &clitest.FakeCaller{Errs: tt.errs}
			if strings.HasPrefix(tt.name, "canceled while") {
				// The fake answers a canceled ctx itself; make it fail
				// the way a torn connection does.
				fc = &clitest.FakeCaller{Reply: func(string, any) (any, error) { return nil, tt.errs[calls.MethodAct] }}
			}
			code, stdout, stderr, _ := runMain(t, ctx, fc, nil, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d", code, tt.wantCode)
			}
			if diff := cmp.Diff(tt.wantStdout, stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantStderr, stderr); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExitCode(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{calls.ErrStaleRef, 1},
		{calls.ErrTimeout, 1},
		{calls.ErrBadInput, 2},
		{&cmdutil.ConfigError{Err: errors.New("open permissions")}, 2},
		{fmt.Errorf("openai: %w; set OPENAI_API_KEY", pilot.ErrNoKey), 2},
		{fmt.Errorf("the server failed (HTTP 502): %w", pilot.ErrModelUnavailable), 3},
		{fmt.Errorf("decide: %w", pilot.ErrBreaker), 1},
		{errors.New("anything"), 1},
		{&cmdutil.UsageError{Err: errors.New("x")}, 2},
		{fmt.Errorf("dial: %w", calls.ErrUnavailable), 3},
		{calls.ErrBrowserGone, 3},
		{fmt.Errorf("%w: no socket", cmdutil.ErrNoDaemon), 3},
		{context.Canceled, 130},
		{calls.FromCode("canceled", "canceled by the user", ""), 130},
	}
	for _, tt := range tests {
		if got := cmdutil.ExitCode(tt.err); got != tt.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

func TestMainGlobalOptions(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	env := map[string]string{"WAYMARK_SESSION": "envsess", "WAYMARK_BROWSER": "bin/chrome", "WAYMARK_CDP": "9222", "WAYMARK_SOCKET": "w.sock"}

	fc := &clitest.FakeCaller{}
	code, _, stderr, dials := runMain(t, context.Background(), fc, env, "click", "e1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The environment is configuration, not flags: it reaches the dial in
	// the configuration, and the daemon reads it itself.
	want := []dialRecord{{G: cmdutil.GlobalOptions{Session: "envsess", Socket: dir + "/w.sock"}, Start: true}}
	if diff := cmp.Diff(want, dials, cmpopts.IgnoreFields(dialRecord{}, "Settings")); diff != "" {
		t.Errorf("dials (-want +got):\n%s", diff)
	}
	if s := dials[0].Settings; s["browser.executable"] != `"bin/chrome"` || s["browser.cdp"] != `"9222"` {
		t.Errorf("dialed with settings %v, want the environment's executable and cdp", s)
	}
	if fc.Calls[0].Session != "envsess" {
		t.Errorf("session = %q, want envsess", fc.Calls[0].Session)
	}

	// Flags win over the environment; a bare executable name is left for
	// a PATH lookup.
	fc = &clitest.FakeCaller{}
	_, _, _, dials = runMain(t, context.Background(), fc, env,
		"--session", "flagsess", "--executable-path", "chromium", "--headed", "--cdp", "ws://127.0.0.1:9222/devtools/browser/x", "--json", "snapshot")
	want = []dialRecord{{G: cmdutil.GlobalOptions{Session: "flagsess", JSON: true, ExecutablePath: "chromium", Headed: true, CDP: "ws://127.0.0.1:9222/devtools/browser/x", Socket: dir + "/w.sock",
		Set: []string{"session", "executable-path", "headed", "cdp"}}, Start: true}}
	if diff := cmp.Diff(want, dials, cmpopts.IgnoreFields(dialRecord{}, "Settings")); diff != "" {
		t.Errorf("dials (-want +got):\n%s", diff)
	}
	if fc.Calls[0].Session != "flagsess" {
		t.Errorf("session = %q, want flagsess", fc.Calls[0].Session)
	}
}

func TestMainDialsOnceAndOnlyWhenNeeded(t *testing.T) {
	_, _, _, dials := runMain(t, context.Background(), &clitest.FakeCaller{}, nil, "click", "--help")
	if len(dials) != 0 {
		t.Errorf("--help dialed %d times", len(dials))
	}
	_, _, _, dials = runMain(t, context.Background(), &clitest.FakeCaller{}, nil, "click")
	if len(dials) != 0 {
		t.Errorf("a usage error dialed %d times", len(dials))
	}
	// The daemon commands never start one.
	for _, args := range [][]string{{"daemon", "stop"}, {"daemon", "status"}, {"session", "list"}, {"close"}, {"downloads"}} {
		_, _, _, dials = runMain(t, context.Background(), &clitest.FakeCaller{}, nil, args...)
		if len(dials) != 1 || dials[0].Start {
			t.Errorf("%v: dials = %+v, want one without start", args, dials)
		}
	}
}

func TestMainHelpAndVersion(t *testing.T) {
	code, stdout, _, _ := runMain(t, context.Background(), &clitest.FakeCaller{}, nil)
	if code != 0 || !strings.Contains(stdout, "waymark snapshot -i") {
		t.Errorf("bare waymark: exit %d, stdout %q", code, stdout)
	}
	code, stdout, _, _ = runMain(t, context.Background(), &clitest.FakeCaller{}, nil, "--json", "version")
	var env struct {
		OK   bool
		Data map[string]string
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 0 || !env.OK || env.Data["version"] != "v1.2.3" {
		t.Errorf("version --json: exit %d, %q (%v)", code, stdout, err)
	}
}

// failingModel is a model server (OpenAI's wire, on loopback) that fails
// every request and counts them, for tests that check a command asked no
// model (or did); env points waymark at it, as a user's environment would.
func failingModel(t *testing.T) (env map[string]string, calls *atomic.Int32) {
	t.Helper()
	calls = new(atomic.Int32)
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		http.Error(w, "no model call is expected", http.StatusInternalServerError)
	}))
	t.Cleanup(model.Close)
	return map[string]string{"WAYMARK_MODEL": "openai:test", "OPENAI_BASE_URL": model.URL + "/v1", "OPENAI_API_KEY": "test"}, calls
}
