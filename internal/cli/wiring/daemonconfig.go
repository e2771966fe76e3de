package wiring

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/daemon"
	"github.com/waymark-dev/waymark/internal/rpc"

	"github.com/waymark-dev/waymark/calls"
)

// This file is the one road from the configuration to the daemon's
// browser: [driverOptions] serves the daemon ([daemonDriverOptions]),
// `waymark doctor` and `waymark config show` alike, and
// [checkDaemonSettings] tells a command when the daemon that runs does not
// obey the settings it would start one with.

// daemonDriverOptions is [driverOptions] with the engine resolved: the CDP
// endpoint when one is configured and answers, else a local Chromium (or
// an error when [fallback] cdp_to_local is off).
func daemonDriverOptions(ctx context.Context, cfg *config.Config) (driver.Options, error) {
	opts, err := cmdutil.DriverOptions(cfg)
	if err != nil {
		return driver.Options{}, err
	}
	engine, err := config.ResolveEngine(ctx, cfg, config.ProbeCDP)
	if err != nil {
		return driver.Options{}, err
	}
	if engine != config.EngineCDP {
		opts.CDP = ""
	}
	return opts, nil
}

// daemonNetLog is the file the daemon's browser writes its NetLog to:
// [evidence] netlog_file (--netlog), else netlog.json beside the daemon's
// log when [evidence] netlog is on-failure or always, else "" (none).
// Chromium starts the file anew each time it starts.
func daemonNetLog(socket string, cfg *config.Config) (string, error) {
	if !cfg.Evidence.NetLogOn() {
		return "", nil
	}
	if f := cfg.Evidence.NetLogFile; f != "" {
		return filepath.Abs(f)
	}
	paths, err := daemon.PathsFor(socket)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(paths.Log), "netlog.json"), nil
}

// restartHint is how to give the daemon the settings of this command.
var restartHint = "run " + calls.Cmd("daemon restart") + " with the same flags, folder and environment to start the daemon with these settings (it closes every session)"

// DaemonSettingsError says the running daemon started with settings other
// than those this command's flags ask for. It is not calls.ErrUnavailable:
// a daemon answers, and commands that treat "no daemon" as an answer
// (session list, close) must not take it for one. Exit 3, code
// "daemon_settings".
type DaemonSettingsError struct {
	PID   int
	Diffs []config.SettingDiff
}

func (e *DaemonSettingsError) Error() string {
	return fmt.Sprintf("the running waymark daemon (pid %d) started with other settings, which it keeps until it restarts:\n%s",
		e.PID, config.DescribeDiffs(e.Diffs))
}

func (e *DaemonSettingsError) ErrorCode() string { return cmdutil.CodeDaemonSettings }
func (e *DaemonSettingsError) ErrorHint() string { return restartHint }

// checkDaemonSettings returns the judge of a daemon's hello for a command
// whose configuration is cfg (nil: nothing to compare). The daemon reads
// its browser and policy settings once, when it starts; a command run
// with others must not believe they hold. With strict set (a command
// that may start a daemon, that is one that works on pages), a setting
// this command's own flags ask for fails the command: the page would be
// reached under rules the user just said not to use. Any other difference
// (from a file or the environment, which the command did not name, or for
// a command that only lists or closes) is a warning on w.
func checkDaemonSettings(cfg *config.Config, w io.Writer, strict bool) func(rpc.Hello) error {
	if cfg == nil {
		return nil
	}
	return func(h rpc.Hello) error {
		diffs := cfg.DiffSettings(h.Settings)
		if len(diffs) == 0 {
			return nil
		}
		for _, d := range diffs {
			if strict && strings.HasPrefix(d.Source, "flag ") {
				return &DaemonSettingsError{PID: h.PID, Diffs: diffs}
			}
		}
		if w != nil {
			fmt.Fprintf(w, "waymark: warning: the running daemon (pid %d) started with other settings, which it keeps until it restarts:\n%s\nhint: %s\n",
				h.PID, config.DescribeDiffs(diffs), restartHint)
		}
		return nil
	}
}
