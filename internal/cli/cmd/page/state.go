package page

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// StateOptions are the flags of `waymark state save|load FILE`.
type StateOptions struct {
	cmdutil.Common
	Op   string // "save" or "load"
	Path string
}

// NewCmdState builds `waymark state save|load FILE`.
func NewCmdState(f *cmdutil.Factory, runF func(context.Context, *StateOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "state save|load FILE",
		Short: "Save or load the session's cookies and storage",
		Long: `Save the session's cookies and the local storage of its open origins to a
file, or load such a file into the session (to start signed in). The file
holds credentials: it is written readable by you alone. A value the page
kept of a secret typed in the session (--secret) is saved as its mark, as
every reply shows it; type the secret again after loading.`,
		Example: "  waymark state save auth.json\n  waymark --session ci state load auth.json",
		Args:    cobra.ArbitraryArgs,
		RunE:    cmdutil.GroupRunE,
	}
	for _, op := range []struct{ name, short string }{
		{"save", "Write the session's cookies and storage to FILE"},
		{"load", "Load cookies and storage from FILE into the session"},
	} {
		opts := &StateOptions{Op: op.name}
		cmd.AddCommand(&cobra.Command{
			Use:   op.name + " FILE",
			Short: op.short,
			Args:  cmdutil.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				opts.Common = f.Common()
				opts.Path = args[0]
				if runF != nil {
					return runF(cmd.Context(), opts)
				}
				if opts.Op == "save" {
					return stateSaveRun(cmd.Context(), opts)
				}
				return stateLoadRun(cmd.Context(), opts)
			},
		})
	}
	return cmd
}

func stateSaveRun(ctx context.Context, opts *StateOptions) error {
	st, err := opts.Remote().StateSave(ctx)
	if err != nil {
		return err
	}
	if st.Format == "" {
		st.Format = calls.StateFormat
	}
	if st.Cookies == nil {
		st.Cookies = []calls.Cookie{} // "cookies": [] reads better than null
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	path, err := filepath.Abs(opts.Path)
	if err != nil {
		return err
	}
	if err := cmdutil.WriteFileAtomic(path, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return opts.Emit(stateSummary(path, *st), func() error {
		opts.Note("saved %d cookie(s) and the storage of %d origin(s) to %s", len(st.Cookies), len(st.Origins), path)
		return nil
	})
}

func stateSummary(path string, st calls.State) map[string]any {
	return map[string]any{"path": path, "cookies": len(st.Cookies), "origins": len(st.Origins)}
}

func stateLoadRun(ctx context.Context, opts *StateOptions) error {
	path, err := filepath.Abs(opts.Path)
	if err != nil {
		return err
	}
	st, err := readState(path)
	if err != nil {
		return err
	}
	if _, err := opts.Remote().StateLoad(ctx, st); err != nil {
		return err
	}
	return opts.Emit(stateSummary(path, st), func() error {
		opts.Note("loaded %d cookie(s) and the storage of %d origin(s) from %s", len(st.Cookies), len(st.Origins), path)
		return nil
	})
}

// readState reads a state file, refusing anything but the formats this
// version knows (only waymark.state/1 so far).
func readState(path string) (calls.State, error) {
	var st calls.State
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st, calls.Errorf(calls.ErrBadInput, "make one with "+calls.Cmd("state save FILE"), "no state file %s", path)
	}
	if err != nil {
		return st, calls.Errorf(calls.ErrBadInput, "", "read %s: %v", path, err)
	}
	// Look at the format before the rest, so a file of another kind gets
	// "not a state file" rather than a decoding error about its fields.
	var head struct {
		Format *string `json:"format"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return st, calls.Errorf(calls.ErrBadInput, "give a file written by "+calls.Cmd("state save"), "%s is not a waymark state file: %v", path, err)
	}
	switch {
	case head.Format == nil:
		return st, calls.Errorf(calls.ErrBadInput, "give a file written by "+calls.Cmd("state save"), "%s is not a waymark state file: it has no \"format\" field", path)
	case *head.Format != calls.StateFormat:
		return st, calls.Errorf(calls.ErrBadInput, "this waymark reads "+calls.StateFormat+"; a newer waymark may read it", "%s has format %q, not %q", path, *head.Format, calls.StateFormat)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, calls.Errorf(calls.ErrBadInput, "", "%s: bad state file: %v", path, err)
	}
	return st, nil
}
