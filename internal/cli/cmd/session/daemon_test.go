package session

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/rpc"
)

func TestDaemonRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var got cmdutil.GlobalOptions
	var gotCfg *config.Config
	cfg := config.Default()
	opts := &DaemonRunOptions{
		Common:  cmdutil.Common{Config: func() (*config.Config, error) { return cfg, nil }},
		Globals: cmdutil.GlobalOptions{Socket: "/run/w.sock", Headed: true},
		RunDaemon: func(ctx context.Context, g cmdutil.GlobalOptions, c *config.Config) error {
			got, gotCfg = g, c
			cancel() // a signal
			<-ctx.Done()
			return ctx.Err()
		},
	}
	if err := daemonRun(ctx, opts); err != nil {
		t.Errorf("stopped by a signal: %v, want nil", err)
	}
	if !reflect.DeepEqual(got, opts.Globals) || gotCfg != cfg {
		t.Errorf("options %+v, %p, want %+v, %p", got, gotCfg, opts.Globals, cfg)
	}

	boom := errors.New("socket in use")
	opts.RunDaemon = func(context.Context, cmdutil.GlobalOptions, *config.Config) error { return boom }
	if err := daemonRun(context.Background(), opts); !errors.Is(err, boom) {
		t.Errorf("err = %v, want %v", err, boom)
	}
}

func TestIOStreamsTest(t *testing.T) {
	ios, in, out, errOut := iostreams.Test()
	if ios.IsStdinTTY() || ios.IsStdoutTTY() || ios.IsStderrTTY() {
		t.Error("test streams claim a terminal")
	}
	if ios.In != in || ios.Out != out || ios.ErrOut != errOut {
		t.Error("streams are not the returned buffers")
	}
	ios.SetStdoutTTY(true) // Out now writes control characters visibly, to out
	if !ios.IsStdoutTTY() {
		t.Error("SetStdoutTTY did not stick")
	}
}

// TestDaemonRestart: restart stops the running daemon, waits until it no
// longer answers, and starts one through the starting Caller (which hands
// the daemon this command's flags).
func TestDaemonRestart(t *testing.T) {
	running := &clitest.FakeCaller{Errs: map[string]error{rpc.MethodDaemonStatus: fmt.Errorf("%w: gone", cmdutil.ErrNoDaemon)}}
	starting := &clitest.FakeCaller{Results: map[string]any{rpc.MethodDaemonStatus: rpc.DaemonStatus{PID: 77, Settings: map[string]string{"browser.headless": "false"}}}}
	common, out, errOut := clitest.NewCommon(starting, false, false)
	opts := &DaemonCtlOptions{Common: common, Op: "restart", Running: func(context.Context) (cmdutil.Caller, error) { return running, nil }}
	if err := daemonRestartRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := running.Methods(); !slices.Equal(got, []string{rpc.MethodDaemonStop, rpc.MethodDaemonStatus}) {
		t.Errorf("running daemon got %v, want stop then status until it is gone", got)
	}
	if got := starting.Methods(); !slices.Equal(got, []string{rpc.MethodDaemonStatus}) {
		t.Errorf("starting caller got %v, want status (which starts a daemon)", got)
	}
	if !strings.Contains(errOut.String(), "daemon restarted (pid 77)") || out.Len() != 0 {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}

	// With none running, restart starts one and says so.
	running = &clitest.FakeCaller{Errs: map[string]error{rpc.MethodDaemonStop: fmt.Errorf("%w: none", cmdutil.ErrNoDaemon)}}
	common, _, errOut = clitest.NewCommon(starting, false, false)
	opts = &DaemonCtlOptions{Common: common, Op: "restart", Running: func(context.Context) (cmdutil.Caller, error) { return running, nil }}
	if err := daemonRestartRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "no daemon was running; started one (pid 77)") {
		t.Errorf("stderr %q", errOut)
	}
}
