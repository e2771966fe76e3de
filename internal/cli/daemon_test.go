package cli

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/config"
)

func TestDaemonRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var got GlobalOptions
	var gotCfg *config.Config
	cfg := config.Default()
	opts := &DaemonRunOptions{
		Common:  Common{Config: func() (*config.Config, error) { return cfg, nil }},
		Globals: GlobalOptions{Socket: "/run/w.sock", Headed: true},
		RunDaemon: func(ctx context.Context, g GlobalOptions, c *config.Config) error {
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
	opts.RunDaemon = func(context.Context, GlobalOptions, *config.Config) error { return boom }
	if err := daemonRun(context.Background(), opts); !errors.Is(err, boom) {
		t.Errorf("err = %v, want %v", err, boom)
	}
}

func TestIOStreamsTest(t *testing.T) {
	ios, in, out, errOut := iostreams.Test()
	if ios.IsStdinTTY() || ios.IsStdoutTTY() || ios.IsStderrTTY() {
		t.Error("test streams claim a terminal")
	}
	ios.SetStdoutTTY(true)
	if !ios.IsStdoutTTY() {
		t.Error("SetStdoutTTY did not stick")
	}
	if ios.In != in || ios.Out != out || ios.ErrOut != errOut {
		t.Error("streams are not the returned buffers")
	}
}
