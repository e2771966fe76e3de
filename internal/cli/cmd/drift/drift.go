package drift

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// DriftOptions are the flags of `waymark drift`.
type DriftOptions struct {
	cmdutil.Common
	File string
}

// NewCmdDrift builds `waymark drift FILE`.
func NewCmdDrift(f *cmdutil.Factory, runF func(context.Context, *DriftOptions) error) *cobra.Command {
	opts := &DriftOptions{}
	cmd := &cobra.Command{
		Use:   "drift FILE",
		Short: "Check that a routine's elements still resolve, acting on nothing",
		Long: `Open each page of a routine and check that every step's element is still
there, without clicking or typing anything. Each step is found, moved (a
replay heals it with no model), replaced, missing or ambiguous; a step on a
page that only acting reaches is unreached. For schedulers, the exit status
says what a replay would do, apart from the codes of a check that could not
run (1 failed, 2 usage, 3 unavailable):

  0  every element was found
  20 some moved: a replay would heal them with no model
  21 some are replaced, missing or ambiguous, a page landed elsewhere, or
     steps come before any page opens (a routine with no start URL): a
     replay would stop

A step behind an action (a click, a submit) is reported unreached and does
not change the status: drift never acts to reach it.`,
		Example: "  waymark drift checkout.json\n  waymark drift checkout.json --json",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.File = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return driftRun(cmd.Context(), opts)
		},
	}
	return cmd
}

func driftRun(ctx context.Context, opts *DriftOptions) error {
	r, err := routine.Load(opts.File)
	if err != nil {
		return err
	}
	caller, err := opts.Caller(ctx)
	if err != nil {
		return err
	}
	rep, err := replay.Drift(ctx, calls.Remote{Caller: caller, Session: opts.Session}, r)
	if err != nil {
		return err
	}
	code := cmdutil.DriftExit(rep)
	if opts.JSON {
		env := cmdutil.Envelope{OK: code == 0, Data: driftJSON{rep, code}}
		if code != 0 {
			// One rule for every command: ok is false when the exit status is not 0.
			env.Error = &cmdutil.ErrorBody{Code: cmdutil.DriftCode(code), Message: driftSummary(rep), Hint: driftHint(code)}
		}
		if err := cmdutil.WriteEnvelope(opts.IO.Out, env); err != nil {
			return err
		}
	} else {
		fmt.Fprint(opts.IO.Out, driftTable(rep))
		opts.Note("%s", driftSummary(rep))
	}
	if code != 0 {
		return &cmdutil.ExitError{Code: code, Msg: driftSummary(rep), Silent: true}
	}
	return nil
}

func driftHint(code int) string {
	if code == cmdutil.DriftExitMoved {
		return "a replay heals the moved elements with no model; run " + calls.Cmd("replay") + " with --keep-heals always to save them"
	}
	return "look at the steps marked replaced, missing, ambiguous, unreached or elsewhere, and record the routine again or fix them"
}

type driftJSON struct {
	*replay.DriftReport
	ExitCode int `json:"exit_code"`
}

// driftTable is one line per step: path, status, locator, and what
// changed; tab-separated so scripts can cut it.
func driftTable(rep *replay.DriftReport) string {
	var b strings.Builder
	for _, s := range rep.Steps {
		name := s.Path
		if s.ID != "" {
			name = s.ID
		}
		extra := s.Reason
		if s.NewLocator != "" {
			extra = "now " + s.NewLocator
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", name, s.Status, s.Locator, extra)
	}
	return b.String()
}

func driftSummary(rep *replay.DriftReport) string {
	var parts []string
	for _, st := range []string{"found", "moved", "replaced", "missing", "ambiguous", replay.DriftUnreached, replay.DriftElsewhere} {
		if n := rep.Counts[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%s v%d: no elements to check", rep.Name, rep.Version)
	}
	return fmt.Sprintf("%s v%d: %s", rep.Name, rep.Version, strings.Join(parts, ", "))
}
