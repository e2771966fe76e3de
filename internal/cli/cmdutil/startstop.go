package cmdutil

import (
	"context"

	"github.com/spf13/cobra"
)

// StartStop describes the start and stop of a command that turns something
// on in the session and, at stop, writes what it gathered to a file:
// capture, trace and record. start takes no argument, stop the FILE; each
// runs with its own options, whose Common is the Factory's when it runs.
type StartStop[T any] struct {
	StartShort, StopShort string
	Start, Stop           *T
	Common                func(*T) *Common // the options' Common
	File                  func(*T) *string // where stop's FILE goes
	RunStart, RunStop     func(context.Context, *T) error
}

// StartStopCommands builds the start and stop subcommands of s; runF, when
// not nil, runs in place of s's runs (tests catch the options with it).
// The caller adds their flags and attaches them to the group.
func StartStopCommands[T any](f *Factory, runF func(context.Context, *T) error, s StartStop[T]) (start, stop *cobra.Command) {
	runner := func(run func(context.Context, *T) error) func(context.Context, *T) error {
		if runF != nil {
			return runF
		}
		return run
	}
	start = &cobra.Command{
		Use:   "start",
		Short: s.StartShort,
		Args:  ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			*s.Common(s.Start) = f.Common()
			return runner(s.RunStart)(cmd.Context(), s.Start)
		},
	}
	stop = &cobra.Command{
		Use:   "stop FILE",
		Short: s.StopShort,
		Args:  ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			*s.Common(s.Stop) = f.Common()
			*s.File(s.Stop) = args[0]
			return runner(s.RunStop)(cmd.Context(), s.Stop)
		},
	}
	return start, stop
}
