package cli

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/iostreams"
)

func TestDaemonRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var got DaemonOptions
	opts := &DaemonRunOptions{
		Options: DaemonOptions{Socket: "/run/w.sock", Headed: true},
		RunDaemon: func(ctx context.Context, o DaemonOptions) error {
			got = o
			cancel() // a signal
			<-ctx.Done()
			return ctx.Err()
		},
	}
	if err := daemonRun(ctx, opts); err != nil {
		t.Errorf("stopped by a signal: %v, want nil", err)
	}
	if !reflect.DeepEqual(got, opts.Options) {
		t.Errorf("options %+v, want %+v", got, opts.Options)
	}

	boom := errors.New("socket in use")
	opts.RunDaemon = func(context.Context, DaemonOptions) error { return boom }
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
