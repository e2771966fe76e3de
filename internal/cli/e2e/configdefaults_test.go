package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
)

// actParams returns the ActRequest of the only act call fc saw.
func actParams(t *testing.T, fc *clitest.FakeCaller) calls.ActRequest {
	t.Helper()
	if len(fc.Calls) != 1 || fc.Calls[0].Method != calls.MethodAct {
		t.Fatalf("calls = %+v, want one act", fc.Calls)
	}
	return fc.Calls[0].Params.(calls.ActRequest)
}

func TestConfigSessionName(t *testing.T) {
	const file = "[session]\nname = \"work\"\n"
	tests := []struct {
		name string
		file string
		env  map[string]string
		args []string
		want string
	}{
		{name: "from the file", file: file, args: []string{"click", "e1"}, want: "work"},
		{name: "env wins", file: file, env: map[string]string{"WAYMARK_SESSION": "envsess"}, args: []string{"click", "e1"}, want: "envsess"},
		{name: "flag wins", file: file, args: []string{"--session", "flagsess", "click", "e1"}, want: "flagsess"},
		{name: "no file", args: []string{"click", "e1"}, want: "default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := &clitest.FakeCaller{}
			code, _, stderr, dials := runMainConfig(t, context.Background(), fc, tt.env, clitest.LoadFile(t, tt.file, tt.env), tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := fc.Calls[0].Session; got != tt.want {
				t.Errorf("session = %q, want %q", got, tt.want)
			}
			if got := dials[0].G.Session; got != tt.want {
				t.Errorf("dialed with session %q, want %q", got, tt.want)
			}
		})
	}
}

func TestConfigSessionNameInvalid(t *testing.T) {
	fc := &clitest.FakeCaller{}
	code, _, stderr, _ := runMainConfig(t, context.Background(), fc, nil, clitest.LoadFile(t, "[session]\nname = \"a b\"\n", nil), "click", "e1")
	if code != cmdutil.ExitUsage || !strings.Contains(stderr, `bad session name "a b" in [session] name`) || !strings.Contains(stderr, config.ProjectFile) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if len(fc.Calls) != 0 {
		t.Errorf("calls made: %+v", fc.Calls)
	}
}

// A config file that cannot be read stops the commands that take defaults
// from it, with its error, and not those that report or need none.
func TestConfigUnreadable(t *testing.T) {
	load := clitest.LoadFile(t, "[session]\nsesion = \"work\"\n", nil)
	fc := &clitest.FakeCaller{}
	code, _, stderr, _ := runMainConfig(t, context.Background(), fc, nil, load, "click", "e1")
	if code != cmdutil.ExitUsage || !strings.Contains(stderr, `unknown key "session.sesion"`) {
		t.Errorf("click: exit %d, stderr %q", code, stderr)
	}
	code, stdout, _, _ := runMainConfig(t, context.Background(), &clitest.FakeCaller{}, nil, load, "--json", "click", "e1")
	if code != cmdutil.ExitUsage || !strings.Contains(stdout, `"code":"bad_config"`) {
		t.Errorf("click --json: exit %d, stdout %q", code, stdout)
	}
	if len(fc.Calls) != 0 {
		t.Errorf("click with a bad config made calls: %+v", fc.Calls)
	}
	// With the session given, a command still needs the file's other
	// settings (the submit gate, the timeout).
	code, _, stderr, _ = runMainConfig(t, context.Background(), &clitest.FakeCaller{}, nil, load, "--session", "s", "click", "e1")
	if code != cmdutil.ExitUsage || !strings.Contains(stderr, `unknown key "session.sesion"`) {
		t.Errorf("click --session: exit %d, stderr %q", code, stderr)
	}
	for _, args := range [][]string{{"version"}, {"daemon", "stop"}, {"help", "click"}} {
		code, _, stderr, _ = runMainConfig(t, context.Background(), &clitest.FakeCaller{}, nil, load, args...)
		if code != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestConfigSubmits(t *testing.T) {
	tests := []struct {
		name     string
		file     string
		args     []string
		want     string
		wantCode int
	}{
		{name: "default: allow", args: []string{"click", "e1"}, want: ""},
		{name: "--ask-submit", args: []string{"click", "e1", "--ask-submit"}, want: "ask"},
		{name: "file ask", file: "[session]\nsubmits = \"ask\"\n", args: []string{"click", "e1"}, want: "ask"},
		{name: "file ask, press", file: "[session]\nsubmits = \"ask\"\n", args: []string{"press", "Enter"}, want: "ask"},
		{name: "file ask, dblclick", file: "[session]\nsubmits = \"ask\"\n", args: []string{"dblclick", "e1"}, want: "ask"},
		{name: "file ask, --allow-submit", file: "[session]\nsubmits = \"ask\"\n", args: []string{"click", "e1", "--allow-submit"}, want: ""},
		{name: "file ask, fill is never gated", file: "[session]\nsubmits = \"ask\"\n", args: []string{"fill", "e1", "x"}, want: ""},
		{name: "file allow", file: "[session]\nsubmits = \"allow\"\n", args: []string{"click", "e1"}, want: ""},
		{name: "both flags", args: []string{"click", "e1", "--ask-submit", "--allow-submit"}, wantCode: cmdutil.ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := &clitest.FakeCaller{}
			code, _, stderr, _ := runMainConfig(t, context.Background(), fc, nil, clitest.LoadFile(t, tt.file, nil), tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d: %s", code, tt.wantCode, stderr)
			}
			if tt.wantCode != 0 {
				return
			}
			if got := actParams(t, fc).Submits; got != tt.want {
				t.Errorf("submits = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestConfigTimeout(t *testing.T) {
	const file = "[session]\ntimeout = \"12s\"\n"
	tests := []struct {
		name string
		file string
		args []string
		want int
	}{
		{name: "click from the file", file: file, args: []string{"click", "e1"}, want: 12000},
		{name: "click flag wins", file: file, args: []string{"click", "e1", "--timeout", "2s"}, want: 2000},
		{name: "click flag 0 is the built-in default", file: file, args: []string{"click", "e1", "--timeout", "0"}, want: 0},
		{name: "click no file", args: []string{"click", "e1"}, want: 0},
		{name: "open from the file", file: file, args: []string{"open", "shop.test"}, want: 12000},
		{name: "wait from the file", file: file, args: []string{"wait", "--text", "Done"}, want: 12000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := &clitest.FakeCaller{}
			code, _, stderr, _ := runMainConfig(t, context.Background(), fc, nil, clitest.LoadFile(t, tt.file, nil), tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if len(fc.Calls) != 1 {
				t.Fatalf("calls = %+v", fc.Calls)
			}
			var got int
			switch p := fc.Calls[0].Params.(type) {
			case calls.ActRequest:
				got = p.TimeoutMS
			case calls.OpenRequest:
				got = p.TimeoutMS
			case calls.WaitRequest:
				got = p.TimeoutMS
			default:
				t.Fatalf("params %T", p)
			}
			if got != tt.want {
				t.Errorf("timeout_ms = %d, want %d", got, tt.want)
			}
		})
	}

	fc := &clitest.FakeCaller{}
	code, _, stderr, _ := runMainConfig(t, context.Background(), fc, nil, clitest.LoadFile(t, "[session]\ntimeout = \"-1s\"\n", nil), "click", "e1")
	if code != cmdutil.ExitUsage || !strings.Contains(stderr, `session.timeout = "-1s": must not be negative`) || len(fc.Calls) != 0 {
		t.Errorf("negative timeout: exit %d, stderr %q, calls %+v", code, stderr, fc.Calls)
	}
}

// A bad CDP endpoint from the environment or a file is refused as the flag
// is, naming where it came from.
func TestConfigBadCDP(t *testing.T) {
	env := map[string]string{"WAYMARK_CDP": "localhost"}
	fc := &clitest.FakeCaller{}
	code, _, stderr, _ := runMainConfig(t, context.Background(), fc, env, clitest.LoadFile(t, "", env), "click", "e1")
	if code != cmdutil.ExitUsage || !strings.Contains(stderr, `bad cdp "localhost" (from env WAYMARK_CDP)`) || len(fc.Calls) != 0 {
		t.Errorf("exit %d, stderr %q, calls %v", code, stderr, fc.Calls)
	}
}
