package batch

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/batch"
	"github.com/waymark-dev/waymark/internal/batchd"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/replay"

	"github.com/waymark-dev/waymark/calls"
)

// BatchOptions are the flags of `waymark batch ROUTINE`.
type BatchOptions struct {
	cmdutil.Common
	Routine     string
	Inputs      string
	Out         string
	Key         string
	ID          string
	Parallel    int
	Retries     int
	Submits     string
	KeepCookies bool
	Hand        bool
	Detach      bool
	// Poll is how often the command asks the daemon for new results;
	// zero means 300 ms.
	Poll time.Duration
}

// NewCmdBatch builds `waymark batch ROUTINE` and its status, results and
// cancel subcommands.
func NewCmdBatch(f *cmdutil.Factory, runF func(context.Context, *BatchOptions) error) *cobra.Command {
	opts := &BatchOptions{}
	cmd := &cobra.Command{
		Use:   "batch ROUTINE --inputs ROWS",
		Short: "Replay a routine once per input row, many at a time, in the daemon",
		Long: `Run a routine once for every row of --inputs (JSON Lines, one object a line;
or CSV with a header, by the .csv extension), --parallel rows at a time. The
batch runs in the daemon on NATS JetStream (embedded, or [batch] nats) and
survives this command: Ctrl-C stops following it, not the batch. Follow it
again with "waymark batch status ID" and "waymark batch results ID".

Each row's result goes to --out as a JSON line when it finishes: status (ok,
failed, uncertain, skipped, canceled, needs_secret), cause, step, data, heals, dur_ms.

A row stopped by the network, a timeout or a crashed browser runs again, up
to --retries; one stopped by its page (replaced, verify, sign-in …) does not.
A row whose worker died after pressing an approved submit is never run
again: it comes back uncertain, with the step it reached, for a person to
check. With --key FIELD, rows whose key is done already for this routine
(in this batch or an earlier one) are skipped.

A secret is named in the row, never given: {"password": {"secret": "env:PW"}},
{"secret": "file:/run/pw"} or {"secret": "prompt"}. This command reads it
(from this shell, this machine's files, this terminal) and hands it to the
daemon, which keeps it in memory for this batch only; a "waymark worker"
reads it where it runs. A row whose secret is not there waits as
needs_secret until "waymark batch resume ID".

On a terminal a progress bar shows on stderr; with --json each result is a
JSON line ("type": "row") before the envelope.`,
		Example: "  waymark batch checkout.json --inputs customers.jsonl --parallel 4 --out results.jsonl --key email --allow-submit\n" +
			"  waymark batch status\n  waymark batch results b1201-0930-1a2b3c4d --out results.jsonl",
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Routine = args[0]
			if opts.Inputs == "" {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "name the rows with --inputs FILE")
			}
			if opts.Parallel < 1 || opts.Parallel > 64 {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "--parallel must be from 1 to 64, got %d", opts.Parallel)
			}
			if opts.Retries < 0 {
				return cmdutil.UsageErrorf(cmdutil.HelpHint(cmd), "--retries must not be negative")
			}
			if err := cmdutil.CheckSubmits(cmd, opts.Submits); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return batchRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Inputs, "inputs", "", "the rows: a JSON Lines file (one object a line) or a .csv file with a header")
	cmd.Flags().StringVar(&opts.Out, "out", "", "append each row's result to this file as a JSON line")
	cmd.Flags().StringVar(&opts.Key, "key", "", "the row field that identifies a row: rows done already are skipped")
	cmd.Flags().StringVar(&opts.ID, "id", "", "the batch's id (letters, digits, dashes); default: a new one")
	cmd.Flags().IntVar(&opts.Parallel, "parallel", 4, "rows at a time (browser contexts)")
	cmd.Flags().IntVar(&opts.Retries, "retries", 2, "times a row stopped by the network, a timeout or a crashed browser runs again")
	cmdutil.AddSubmitsFlags(cmd, &opts.Submits,
		"steps that send, pay, delete or confirm: ask (the row stops as needs-approval) or allow (journaled, then pressed)",
		"approve the routine's submits for every row (same as --submits allow)")
	cmd.Flags().BoolVar(&opts.KeepCookies, "keep-cookies", false, "keep cookies and storage from one row to the next in a warm session")
	cmd.Flags().BoolVar(&opts.Hand, "hand", false, "act with a person's pointer paths and typing pace (for pages with hover menus and debounced fields); off, rows run at the browser's speed")
	cmd.Flags().BoolVar(&opts.Detach, "detach", false, "start the batch and print its id; do not follow it")
	cmd.AddCommand(newCmdBatchStatus(f), newCmdBatchResults(f), newCmdBatchCancel(f), newCmdBatchResume(f))
	return cmd
}

func batchRun(ctx context.Context, opts *BatchOptions) error {
	// The workers press the recorded approvals of the routine and of the
	// sign-in routines it bundles only on the approval authority's word,
	// on the files as they are read here.
	spec, notes, err := batch.Bundle(approval.Default(opts.Env()), opts.Routine)
	if err != nil {
		return err
	}
	for _, n := range notes {
		opts.Note("note: %s", n)
	}
	in, err := os.Open(opts.Inputs)
	if err != nil {
		return cmdutil.UsageErrorf("", "read the rows: %v", err)
	}
	rows, err := batch.ReadRows(in, strings.EqualFold(filepath.Ext(opts.Inputs), ".csv"))
	in.Close()
	if err != nil {
		return err
	}
	refs, err := batch.RowRefs(spec, rows)
	if err != nil {
		return err
	}
	values, missing, err := batchSecrets(&opts.Common, refs)
	if err != nil {
		return err
	}
	spec.ID, spec.Key, spec.Retries, spec.Submits, spec.KeepCookies, spec.Hand = opts.ID, opts.Key, opts.Retries, opts.Submits, opts.KeepCookies, opts.Hand
	var st batch.Status
	c := opts.DaemonCalls()
	if err := c.Call(ctx, opts.Session, batchd.MethodSubmit, batchd.SubmitParams{Spec: *spec, Rows: rows, Parallel: opts.Parallel, Secrets: values}, &st); err != nil {
		return err
	}
	noteMissing(&opts.Common, st.ID, missing)
	if opts.Detach {
		return opts.Emit(st, func() error {
			fmt.Fprintln(opts.IO.Out, st.ID)
			opts.Note("batch %s: %d rows; follow it with waymark batch status %s", st.ID, st.Total, st.ID)
			return nil
		})
	}
	opts.Note("batch %s: %d rows, %d at a time", st.ID, st.Total, opts.Parallel)
	return followBatch(ctx, &opts.Common, st.ID, opts.Out, opts.Poll)
}

// batchRowEvent is one line of `batch --json` before the envelope.
type batchRowEvent struct {
	Type   string    `json:"type"` // "row"
	Result rowResult `json:"result"`
}

// rowResult is a row's result as the CLI writes it: with the exit status
// `waymark replay` would have ended with for it.
type rowResult struct {
	batch.Result
	Exit int `json:"exit"`
}

func withExit(r batch.Result) rowResult {
	return rowResult{Result: r, Exit: RowExit(r)}
}

// RowExit is a row's exit status: replay's for its cause; 1 for one the
// network, a timeout or a dead worker left failed or uncertain; 3 for a
// browser that crashed; 2 for a row that cannot run.
func RowExit(r batch.Result) int {
	switch r.Status {
	case batch.StatusOK, batch.StatusSkipped:
		return cmdutil.ExitOK
	case batch.StatusCanceled:
		return cmdutil.ExitCanceled
	case batch.StatusNeedsSecret:
		return cmdutil.ExitUsage // an input to give, as a missing --secret is
	}
	switch r.Cause {
	case batch.CauseBrowser:
		return cmdutil.ExitUnavailable
	case batch.CauseInput:
		return cmdutil.ExitUsage
	case batch.CauseNetwork, batch.CauseTimeout, batch.CauseWorker, "":
		return cmdutil.ExitFailed
	}
	return cmdutil.ReplayExit(replay.Cause(r.Cause))
}

// followBatch prints a batch's results as they come until it is done,
// appending each to out (when set).
func followBatch(ctx context.Context, opts *cmdutil.Common, id, out string, poll time.Duration) error {
	if poll <= 0 {
		poll = 300 * time.Millisecond
	}
	var w io.Writer
	if out != "" {
		f, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return cmdutil.UsageErrorf("", "--out: %v", err)
		}
		defer f.Close()
		w = f
	}
	c := opts.DaemonCalls()
	bar := !opts.JSON && opts.IO.IsStderrTTY()
	var after uint64
	for {
		var rep batchd.ResultsReply
		err := c.Call(ctx, opts.Session, batchd.MethodResults, batchd.ResultsParams{ID: id, After: after}, &rep)
		if err != nil {
			if ctx.Err() != nil {
				opts.Note("\nstopped following; the batch goes on in the daemon: waymark batch status %s", id)
				return &cmdutil.ExitError{Code: 130, Msg: "canceled", Silent: true}
			}
			return err
		}
		after = rep.Rev
		for _, r := range rep.Results {
			if w != nil {
				if err := cmdutil.WriteJSONLine(w, withExit(r)); err != nil {
					return fmt.Errorf("--out: %w", err)
				}
			}
			switch {
			case opts.JSON:
				_ = cmdutil.WriteJSONLine(opts.IO.Out, batchRowEvent{Type: "row", Result: withExit(r)})
			case !bar:
				fmt.Fprintln(opts.IO.ErrOut, BatchRowLine(r))
			}
		}
		if bar {
			fmt.Fprint(opts.IO.ErrOut, "\r"+ProgressBar(rep.Status, 30))
		}
		if rep.Status.State != batch.StateRunning {
			if bar {
				fmt.Fprintln(opts.IO.ErrOut)
			}
			return batchEnd(opts, rep.Status)
		}
		select {
		case <-ctx.Done():
			opts.Note("\nstopped following; the batch goes on in the daemon: waymark batch status %s", id)
			return &cmdutil.ExitError{Code: 130, Msg: "canceled", Silent: true}
		case <-time.After(poll):
		}
	}
}

// batchEnd reports a finished batch: exit 0 when no row failed or is
// uncertain.
func batchEnd(opts *cmdutil.Common, st batch.Status) error {
	ok := st.Failed == 0 && st.Uncertain == 0 && st.NeedsSecret == 0 && st.State == batch.StateDone
	msg := fmt.Sprintf("batch %s %s: %d ok, %d failed, %d uncertain, %d skipped, %d canceled", st.ID, st.State, st.OK, st.Failed, st.Uncertain, st.Skipped, st.Canceled)
	hint := "read the rows that did not pass: " + calls.Cmd("batch results") + " " + st.ID
	if st.NeedsSecret > 0 {
		msg += fmt.Sprintf(", %d waiting for a secret", st.NeedsSecret)
		hint = "set the secrets they name, then run: " + calls.Cmd("batch resume") + " " + st.ID
	}
	if opts.JSON {
		env := cmdutil.Envelope{OK: ok, Data: st}
		if !ok {
			env.Error = &cmdutil.ErrorBody{Code: cmdutil.CodeBatchIncomplete, Message: msg, Hint: hint}
		}
		if err := cmdutil.WriteEnvelope(opts.IO.Out, env); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(opts.IO.ErrOut, msg)
		if st.NeedsSecret > 0 {
			fmt.Fprintln(opts.IO.ErrOut, "hint: "+hint)
		}
	}
	if !ok {
		return &cmdutil.ExitError{Code: cmdutil.ExitFailed, Msg: msg, Silent: true}
	}
	return nil
}

func BatchRowLine(r batch.Result) string {
	line := fmt.Sprintf("row %-5d %-9s %6dms", r.N, r.Status, r.DurMS)
	if r.Key != "" {
		line += "  " + r.Key
	}
	if r.Cause != "" {
		line += "  " + r.Cause
	}
	if r.Step != "" {
		line += " at " + r.Step
	}
	if r.Message != "" && r.Status != batch.StatusOK {
		line += ": " + r.Message
	}
	return line
}

// ProgressBar is the terminal's one line: done of total, the counts, the
// rate and the time left.
func ProgressBar(st batch.Status, width int) string {
	filled := 0
	if st.Total > 0 {
		filled = st.Done * width / st.Total
	}
	s := "[" + strings.Repeat("#", filled) + strings.Repeat(".", width-filled) + "] " +
		fmt.Sprintf("%d/%d  ok %d  failed %d  uncertain %d", st.Done, st.Total, st.OK, st.Failed, st.Uncertain)
	if st.Skipped > 0 {
		s += fmt.Sprintf("  skipped %d", st.Skipped)
	}
	if st.RatePerMin > 0 {
		s += fmt.Sprintf("  %.0f rows/min", st.RatePerMin)
	}
	if st.LeftMS > 0 {
		s += "  " + (time.Duration(st.LeftMS) * time.Millisecond).Round(time.Second).String() + " left"
	}
	return s + "   "
}

func newCmdBatchStatus(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "status [ID]",
		Short: "Show a batch's progress, or every batch's",
		Args:  cmdutil.ArgsRange(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := f.Common()
			c := opts.DaemonCalls()
			if len(args) == 0 {
				var list batchd.StatusList
				if err := c.Call(cmd.Context(), opts.Session, batchd.MethodStatus, batchd.IDParams{}, &list); err != nil {
					return err
				}
				return opts.Emit(list, func() error {
					if len(list.Batches) == 0 {
						opts.Note("no batches")
						return nil
					}
					rows := make([][]string, 0, len(list.Batches))
					for _, b := range list.Batches {
						rows = append(rows, []string{b.ID, b.Name, b.State, fmt.Sprintf("%d/%d", b.Done, b.Total), strconv.Itoa(b.OK), strconv.Itoa(b.Failed), strconv.Itoa(b.Uncertain)})
					}
					return cmdutil.PrintTable(opts.IO.Out, opts.IO.IsStdoutTTY(), []string{"ID", "ROUTINE", "STATE", "DONE", "OK", "FAILED", "UNCERTAIN"}, rows)
				})
			}
			var st batch.Status
			if err := c.Call(cmd.Context(), opts.Session, batchd.MethodStatus, batchd.IDParams{ID: args[0]}, &st); err != nil {
				return err
			}
			return opts.Emit(st, func() error {
				fmt.Fprintln(opts.IO.Out, ProgressBar(st, 30))
				fmt.Fprintf(opts.IO.Out, "%s: %s\n", st.ID, st.State)
				return nil
			})
		},
	}
}

func newCmdBatchResults(f *cmdutil.Factory) *cobra.Command {
	var out string
	var follow bool
	cmd := &cobra.Command{
		Use:   "results ID",
		Short: "Print a batch's results, one JSON line a row",
		Args:  cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := f.Common()
			if follow {
				return followBatch(cmd.Context(), &opts, args[0], out, 0)
			}
			var rep batchd.ResultsReply
			if err := opts.DaemonCalls().Call(cmd.Context(), opts.Session, batchd.MethodResults, batchd.ResultsParams{ID: args[0]}, &rep); err != nil {
				return err
			}
			if out != "" {
				f, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
				if err != nil {
					return cmdutil.UsageErrorf("", "--out: %v", err)
				}
				for _, r := range rep.Results {
					if err := cmdutil.WriteJSONLine(f, withExit(r)); err != nil {
						f.Close()
						return err
					}
				}
				if err := f.Close(); err != nil {
					return err
				}
			}
			data := batchResultsJSON{Status: rep.Status, Results: make([]rowResult, 0, len(rep.Results))}
			for _, r := range rep.Results {
				data.Results = append(data.Results, withExit(r))
			}
			return opts.Emit(data, func() error {
				if out != "" {
					opts.Note("wrote %d results to %s", len(rep.Results), out)
					return nil
				}
				for _, r := range rep.Results {
					if err := cmdutil.WriteJSONLine(opts.IO.Out, withExit(r)); err != nil {
						return err
					}
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "write the results to this file instead of stdout")
	cmd.Flags().BoolVar(&follow, "follow", false, "go on printing results as rows finish, until the batch is done")
	return cmd
}

// batchResultsJSON is the data of `batch results --json`.
type batchResultsJSON struct {
	Status  batch.Status `json:"status"`
	Results []rowResult  `json:"results"`
}

func newCmdBatchCancel(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "cancel ID",
		Short: "Cancel a batch: rows not started are dropped; rows running finish",
		Args:  cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := f.Common()
			var st batch.Status
			if err := opts.DaemonCalls().Call(cmd.Context(), opts.Session, batchd.MethodCancel, batchd.IDParams{ID: args[0]}, &st); err != nil {
				return err
			}
			return opts.Emit(st, func() error {
				opts.Note("batch %s canceled: %d rows canceled, %d done before", st.ID, st.Canceled, st.Done-st.Canceled)
				return nil
			})
		},
	}
}
