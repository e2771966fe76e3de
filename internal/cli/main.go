// Package cli is waymark's command line, as the binaries start it: [Main]
// runs the command tree of internal/cli/root with the real parts of
// internal/cli/wiring (the daemon client, the daemon, the demo site).
//
// The rest lives below, as gh's pkg/cmd does:
//
//	internal/cli/root        the root command, its groups, MainWith
//	internal/cli/cmd/<noun>  one package per command or group of commands
//	internal/cli/cmdutil     what every command shares: Factory, envelope, exit codes
//	internal/cli/envelope    the exit statuses and the --json envelope, which the front links too
//	internal/cli/pilotflags  what the pilot's commands share: --model, --secret, --var
//	internal/cli/wiring      the daemon's composition root and the front's runner
//	internal/cli/clitest     the commands' test fakes
//	internal/cli/e2e         the tests that run the whole CLI through [MainWith]
//
// A command package imports cmdutil (and pilotflags), never a sibling.
package cli

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/cli/root"
	"github.com/waymark-dev/waymark/internal/cli/wiring"
)

// Deps are the parts of waymark the CLI uses but does not hold (see
// [root.Deps]).
type Deps = root.Deps

// Main runs waymark with the real streams and [wiring.DefaultDeps], and
// returns the exit status. SIGINT and SIGTERM cancel the command's context;
// a second signal kills the process the usual way.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { // exits when ctx is done: at the first signal or when Main returns
		<-ctx.Done()
		stop()
	}()
	return MainWith(ctx, args, iostreams.System(stdin, stdout, stderr), wiring.DefaultDeps())
}

// MainWith runs waymark with the given streams and dependencies and returns
// the exit status; the zero parts of deps are the real binary's
// ([wiring.DefaultDeps]). Tests call it with fakes.
func MainWith(ctx context.Context, args []string, streams *iostreams.IOStreams, deps Deps) int {
	def := wiring.DefaultDeps()
	if deps.Dial == nil {
		deps.Dial = def.Dial
	}
	if deps.RunDaemon == nil {
		deps.RunDaemon = def.RunDaemon
	}
	if deps.ServeDemo == nil {
		deps.ServeDemo = def.ServeDemo
	}
	if deps.Version == "" {
		deps.Version = def.Version
	}
	return root.MainWith(ctx, args, streams, deps)
}
