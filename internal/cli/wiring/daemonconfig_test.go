package wiring

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/daemon"
	"github.com/waymark-dev/waymark/internal/daemon/client"
)

type handlerFunc func(ctx context.Context, session, method string, params json.RawMessage) (any, error)

func (f handlerFunc) Handle(ctx context.Context, session, method string, params json.RawMessage) (any, error) {
	return f(ctx, session, method, params)
}

// runningDaemon serves a daemon in memory that started with the
// configuration of a command run with args (global flags) and no file,
// and counts the calls it handles.
func runningDaemon(t *testing.T, flags ...config.Flag) (dial func(context.Context) (net.Conn, error), handled *int) {
	t.Helper()
	cfg, err := config.Load(config.LoadOptions{Flags: flags})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	n := 0
	srv := daemon.New(daemon.Options{Version: "v1", Settings: cfg.DaemonSettings(), Handler: handlerFunc(func(context.Context, string, string, json.RawMessage) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		n++
		return struct{}{}, nil
	})})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	return func(context.Context) (net.Conn, error) {
		a, b := net.Pipe()
		wg.Go(func() { srv.ServeConn(ctx, b) })
		return a, nil
	}, &n
}

// TestDaemonSettingsMismatch: a command whose settings differ from those
// the running daemon started with is told so, never silently served under
// the daemon's: a warning for settings from a file or the environment, an
// error (and no call) for those its own flags ask for.
func TestDaemonSettingsMismatch(t *testing.T) {
	dial, handled := runningDaemon(t, config.Flag{Name: "--private-network", Key: "policy.private_network", Value: "all"})
	tests := []struct {
		name       string
		file       string
		flags      []config.Flag
		wantErr    bool
		wantStderr []string
	}{
		{name: "a command that asks for nothing", wantStderr: nil},
		{name: "the same flag", flags: []config.Flag{{Name: "--private-network", Key: "policy.private_network", Value: "all"}}},
		{name: "a file asks for other settings", file: "[policy]\nprivate_network = \"none\"\nblock = [\"*.ads.test\"]\n",
			wantStderr: []string{"warning: the running daemon", `policy.block = [] (running) but ["*.ads.test"] from`, `policy.private_network = "all" (running) but "none" from`, "waymark daemon restart"}},
		{name: "a file asks for another idle time", file: "[daemon]\nidle = \"2h\"\n",
			wantStderr: []string{"warning: the running daemon", `daemon.idle = "30m0s" (running) but "2h0m0s" from`}},
		{name: "a flag asks for other settings", flags: []config.Flag{{Name: "--headed", Key: "browser.headless", Value: "false"}},
			wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, _ := clitest.LoadConfig(t, tt.file, nil)
			if tt.flags != nil {
				var err error
				if cfg, err = config.Load(config.LoadOptions{Flags: tt.flags}); err != nil {
					t.Fatal(err)
				}
			}
			var stderr bytes.Buffer
			c := client.New(client.Options{Version: "v1", Dial: dial, CheckHello: checkDaemonSettings(cfg, &stderr, true)})
			defer c.Close()
			before := *handled
			err := c.Call(context.Background(), "default", calls.MethodOpen, nil, nil)
			switch {
			case tt.wantErr:
				var se *DaemonSettingsError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), `browser.headless = true (running) but false from flag --headed`) ||
					!strings.Contains(cmdutil.ErrorHint(err), "waymark daemon restart") || cmdutil.ErrorCode(err) != "daemon_settings" {
					t.Fatalf("err = %v (hint %q), want the difference and how to restart", err, cmdutil.ErrorHint(err))
				}
				// session list and close take "no daemon" for an answer;
				// this must not pass for one.
				if errors.Is(err, calls.ErrUnavailable) || errors.Is(err, cmdutil.ErrNoDaemon) {
					t.Errorf("err %v reads as no daemon", err)
				}
				if err := (noStartCaller{c}).Call(context.Background(), "default", "session.list", nil, nil); !errors.As(err, &se) || errors.Is(err, cmdutil.ErrNoDaemon) {
					t.Errorf("through the caller that never starts a daemon: %v", err)
				}
				if *handled != before {
					t.Error("the call was made under settings the user's flag refused")
				}
				if cmdutil.ExitCode(err) != cmdutil.ExitUnavailable {
					t.Errorf("exit %d", cmdutil.ExitCode(err))
				}
				// A command that only lists or closes is warned, not
				// refused.
				var warned bytes.Buffer
				lc := client.New(client.Options{Version: "v1", Dial: dial, CheckHello: checkDaemonSettings(cfg, &warned, false)})
				defer lc.Close()
				if err := lc.Call(context.Background(), "default", "session.list", nil, nil); err != nil || !strings.Contains(warned.String(), "warning: the running daemon") {
					t.Errorf("not strict: err %v, stderr %q", err, warned.String())
				}
			case err != nil:
				t.Fatal(err)
			}
			for _, w := range tt.wantStderr {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
				}
			}
			if tt.wantStderr == nil && stderr.Len() != 0 {
				t.Errorf("stderr: %s", stderr.String())
			}
		})
	}
}

// TestDaemonNetLog: the daemon's browser logs to --netlog's file, made
// absolute; to netlog.json beside the daemon's log when [evidence] netlog
// asks for one with no file; and not at all by default.
func TestDaemonNetLog(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	socket := filepath.Join(dir, "d.sock")
	for _, tc := range []struct {
		name, file string
		flags      []config.Flag
		want       string
	}{
		{name: "off by default", want: ""},
		{name: "on-failure: the state folder", file: "[evidence]\nnetlog = \"on-failure\"\n", want: filepath.Join(dir, "netlog.json")},
		{name: "--netlog names the file", flags: []config.Flag{{Name: "--netlog", Key: "evidence.netlog_file", Value: "n.json"}}, want: filepath.Join(dir, "n.json")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := clitest.LoadFile(t, tc.file, nil)(tc.flags)
			if err != nil {
				t.Fatal(err)
			}
			got, err := daemonNetLog(socket, cfg)
			if err != nil || got != tc.want {
				t.Errorf("daemonNetLog = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := clitest.LoadFile(t, "[evidence]\nnetlog = \"sometimes\"\n", nil)(nil); err == nil || !strings.Contains(err.Error(), "on-failure") {
		t.Errorf("a bad netlog mode: %v, want the allowed values", err)
	}
}

// TestOtherVersionIsNoNoDaemon: a daemon of another version answers, so
// the commands that take "no daemon" for an answer (session list, close,
// console) must not: before, `waymark session list` after a rebuild said
// "no open sessions" while the old daemon held two. The version error is
// said, with its hint, and exits 3 as before.
func TestOtherVersionIsNoNoDaemon(t *testing.T) {
	dial, handled := runningDaemon(t)
	c := client.New(client.Options{Version: "v2", Dial: dial})
	defer c.Close()
	err := (noStartCaller{c}).Call(context.Background(), "default", "session.list", nil, nil)
	if err == nil || errors.Is(err, cmdutil.ErrNoDaemon) || !strings.Contains(err.Error(), "runs version v1") {
		t.Fatalf("err = %v, want the daemon's other version, not no daemon", err)
	}
	if !strings.Contains(cmdutil.ErrorHint(err), "waymark daemon stop") || cmdutil.ExitCode(err) != cmdutil.ExitUnavailable {
		t.Errorf("hint %q, exit %d", cmdutil.ErrorHint(err), cmdutil.ExitCode(err))
	}
	if *handled != 0 {
		t.Error("the call reached a daemon of another version")
	}
}
