package batch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/batch"
	"github.com/waymark-dev/waymark/internal/batchd"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/secret"
)

// batchSecrets reads the secrets a batch's rows name, here, where the
// person who runs the batch has them (their shell's environment, their
// files, their terminal), for the daemon: its own environment is clean
// (secret.Environ), so it runs the rows with what this command hands over
// and keeps it in memory for this batch only. A reference that is not
// here is listed in missing: its rows wait as needs_secret.
func batchSecrets(opts *cmdutil.Common, refs []secret.Ref) (values map[string]string, missing []string, err error) {
	po := &pilotflags.PilotOptions{Common: *opts}
	src := secret.Sources{Getenv: opts.Env(), ReadFile: os.ReadFile, Prompt: func(name string) (string, error) {
		if !opts.IO.IsStdinTTY() {
			return "", &secret.RefError{Ref: "prompt", Reason: "there is no terminal to type " + name + " at", Err: secret.ErrUnset}
		}
		return po.Prompt(name)
	}}
	values = map[string]string{}
	for _, ref := range refs {
		v, err := ref.Resolve(src, ref.String())
		switch {
		case errors.Is(err, secret.ErrUnset):
			missing = append(missing, err.Error())
			continue
		case err != nil:
			return nil, nil, err
		}
		values[ref.String()] = v.Reveal()
	}
	return values, missing, nil
}

// noteMissing tells the person which secrets were not there, and how the
// rows that wait for them go on.
func noteMissing(opts *cmdutil.Common, id string, missing []string) {
	if len(missing) == 0 {
		return
	}
	opts.Note("not set here: %s; the rows that name it wait as needs_secret: set it, then run: waymark batch resume %s", strings.Join(missing, "; "), id)
}

func newCmdBatchResume(f *cmdutil.Factory) *cobra.Command {
	var out string
	var detach bool
	cmd := &cobra.Command{
		Use:   "resume ID",
		Short: "Hand over the secrets of a batch's rows that wait for them (needs_secret), and run them",
		Long: `Rows whose secret was not there when they ran wait as needs_secret: the
daemon keeps the secrets a batch command handed over in memory only, so a
daemon started again has none, and a variable that was not set is not
there either. Resume reads the secrets those rows name here, as the batch
command did (env:VAR from this shell, file:PATH, prompt at this terminal),
hands them to the daemon and runs the rows; then it follows the batch.`,
		Example: "  PIN_ANN=4821 waymark batch resume b1201-0930-1a2b3c4d",
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := f.Common()
			return batchResume(cmd.Context(), &opts, args[0], out, detach)
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "append each row's result to this file as a JSON line")
	cmd.Flags().BoolVar(&detach, "detach", false, "resume the rows and print the batch's status; do not follow it")
	return cmd
}

func batchResume(ctx context.Context, opts *cmdutil.Common, id, out string, detach bool) error {
	c := opts.DaemonCalls()
	var held batchd.HeldReply
	if err := c.Call(ctx, opts.Session, batchd.MethodHeld, batchd.IDParams{ID: id}, &held); err != nil {
		return err
	}
	refs := make([]secret.Ref, 0, len(held.Refs))
	for _, s := range held.Refs {
		r, err := secret.ParseRef(s)
		if err != nil {
			return fmt.Errorf("the daemon named %q: %w", s, err)
		}
		refs = append(refs, r)
	}
	values, missing, err := batchSecrets(opts, refs)
	if err != nil {
		return err
	}
	var st batch.Status
	if err := c.Call(ctx, opts.Session, batchd.MethodResume, batchd.ResumeParams{ID: id, Secrets: values}, &st); err != nil {
		return err
	}
	noteMissing(opts, id, missing)
	if detach {
		return opts.Emit(st, func() error {
			fmt.Fprintln(opts.IO.Out, ProgressBar(st, 30))
			fmt.Fprintf(opts.IO.Out, "%s: %s\n", st.ID, st.State)
			return nil
		})
	}
	return followBatch(ctx, opts, id, out, 0)
}
