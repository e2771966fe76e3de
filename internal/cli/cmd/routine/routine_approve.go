package routine

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// RoutineApproveOptions are the arguments of `waymark routine approve`.
type RoutineApproveOptions struct {
	cmdutil.Common
	File string
}

// NewCmdRoutine builds `waymark routine approve FILE`: a person approves,
// on a terminal, the submits a routine file records, after an edit or for
// a file they did not record themselves. It is the one way besides
// `record stop` into the approval authority, and it runs only in the
// calling process, with a person at its terminal: never in the daemon,
// never for an MCP client.
func NewCmdRoutine(f *cmdutil.Factory, runF func(context.Context, *RoutineApproveOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "routine approve FILE",
		Short: "Approve the submits a routine file records, on a terminal",
	}
	opts := &RoutineApproveOptions{}
	approve := &cobra.Command{
		Use:   "approve FILE",
		Short: "Approve the submits a routine file records, on a terminal",
		Long: `Show the submits a routine records as approved (steps that send, pay,
delete or confirm, pressed by a person while recording) and ask you, on this
terminal, whether a replay may press them without asking. Yes binds your
approval to the file as it is now: any later change to the file drops it, and
a replay asks again until you approve the file once more.

Recording by hand (waymark record stop) approves the file it writes; use this
after you edited a recorded routine, or for one someone else recorded.`,
		Example: "  waymark routine approve checkout.json",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.File = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return routineApproveRun(cmd.Context(), opts)
		},
	}
	cmd.AddCommand(approve)
	return cmd
}

func routineApproveRun(ctx context.Context, opts *RoutineApproveOptions) error {
	if opts.JSON || !opts.IO.IsStdinTTY() || !opts.IO.IsStderrTTY() {
		return cmdutil.UsageErrorf("run it yourself in a terminal: a program cannot approve a submit",
			"waymark routine approve asks a person at a terminal, and there is none (stdin and stderr are not a terminal, or --json)")
	}
	auth := approval.Default(opts.Env())
	r, trust, err := auth.Load(opts.File)
	if err != nil {
		return err
	}
	rec := approval.RecordedIn(r)
	if len(rec) == 0 {
		opts.Note("%s records no approved submit: nothing to approve", opts.File)
		return nil
	}
	if trust.Holds(r) {
		opts.Note("%s is approved as it is: a replay presses its %s without asking while the page matches", opts.File, cmdutil.Count(len(rec), "recorded submit"))
		return nil
	}
	w := opts.IO.ErrOut
	fmt.Fprintf(w, "%s: %s.\n", opts.File, trust.Reason(r))
	fmt.Fprintf(w, "It records %s that a replay would press without asking while the page matches:\n", cmdutil.Count(len(rec), "approved submit"))
	for _, a := range rec {
		fmt.Fprintf(w, "  %s\n", a.Describe())
	}
	fmt.Fprintf(w, "Approve them for %s as it is now? [y/N] ", opts.File)
	yes, err := readYes(ctx, opts.Common)
	if err != nil {
		return err
	}
	if !yes {
		return &cmdutil.ExitError{Code: cmdutil.ExitFailed, Msg: "not approved: a replay asks before each of these submits"}
	}
	if err := auth.Grant(opts.File, "routine approve"); err != nil {
		return err
	}
	opts.Note("approved: a replay presses them without asking while %s is as it is now and the page matches", opts.File)
	return nil
}

// readYes reads the person's answer from the terminal: y or yes.
func readYes(ctx context.Context, c cmdutil.Common) (bool, error) {
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(c.IO.In).ReadString('\n')
		lines <- line
	}()
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case line := <-lines:
		answer := strings.ToLower(strings.TrimSpace(line))
		return answer == "y" || answer == "yes", nil
	}
}
