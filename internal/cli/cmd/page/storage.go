package page

import (
	"context"
	"fmt"
	"sort"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// StorageOptions are the flags of `waymark storage …`.
type StorageOptions struct {
	cmdutil.Common
	Request calls.StorageRequest
}

// NewCmdStorage builds `waymark storage local|session get|set|clear`.
func NewCmdStorage(f *cmdutil.Factory, runF func(context.Context, *StorageOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "storage local|session get [KEY]|set KEY VALUE|clear",
		Short: "Read and write the page's local or session storage",
		Long:  "Read and write the storage of the current page's origin.",
		Example: `  waymark storage local get
  waymark storage local get cart
  waymark storage session set step 2
  waymark storage local clear`,
		Args: cobra.ArbitraryArgs,
		RunE: cmdutil.GroupRunE,
	}
	cmd.AddCommand(newStorageAreaCmd(f, runF, "local"), newStorageAreaCmd(f, runF, "session"))
	return cmd
}

func newStorageAreaCmd(f *cmdutil.Factory, runF func(context.Context, *StorageOptions) error, area string) *cobra.Command {
	opts := &StorageOptions{}
	run := func(cmd *cobra.Command, req calls.StorageRequest) error {
		opts.Common = f.Common()
		req.Area = area
		opts.Request = req
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return storageRun(cmd.Context(), opts)
	}
	cmd := &cobra.Command{
		Use:   area + " get [KEY]|set KEY VALUE|clear",
		Short: "The origin's " + area + "Storage",
		Args:  cobra.ArbitraryArgs,
		RunE:  cmdutil.GroupRunE,
	}
	cmd.AddCommand(
		&cobra.Command{
			Use:   "get [KEY]",
			Short: "Print one item's value, or every item",
			Args:  cmdutil.ArgsRange(0, 1),
			RunE: func(cmd *cobra.Command, args []string) error {
				req := calls.StorageRequest{Op: "get"}
				if len(args) == 1 {
					req.Key = args[0]
				}
				return run(cmd, req)
			},
		},
		&cobra.Command{
			Use:   "set KEY VALUE",
			Short: "Set an item",
			Args:  cmdutil.ExactArgs(2),
			RunE: func(cmd *cobra.Command, args []string) error {
				return run(cmd, calls.StorageRequest{Op: "set", Key: args[0], Value: args[1]})
			},
		},
		&cobra.Command{
			Use:   "clear",
			Short: "Remove every item",
			Args:  cmdutil.ExactArgs(0),
			RunE: func(cmd *cobra.Command, args []string) error {
				return run(cmd, calls.StorageRequest{Op: "clear"})
			},
		},
	)
	return cmd
}

func storageRun(ctx context.Context, opts *StorageOptions) error {
	items, err := opts.Remote().Storage(ctx, opts.Request)
	if err != nil {
		return err
	}
	r := opts.Request
	return opts.Emit(items, func() error {
		switch {
		case r.Op == "set":
			opts.Note("set %s storage %q", r.Area, r.Key)
		case r.Op == "clear":
			opts.Note("cleared %s storage", r.Area)
		case r.Key != "":
			v, ok := items.Items[r.Key]
			if !ok {
				// Nothing on stdout: a missing key and an empty value
				// differ for a script.
				opts.Note("no %q in %s storage", r.Key, r.Area)
				return nil
			}
			_, err := fmt.Fprintln(opts.IO.Out, v)
			return err
		default:
			keys := make([]string, 0, len(items.Items))
			for k := range items.Items {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			rows := make([][]string, len(keys))
			for i, k := range keys {
				rows[i] = []string{k, items.Items[k]}
			}
			return cmdutil.PrintTable(opts.IO.Out, opts.IO.IsStdoutTTY(), []string{"KEY", "VALUE"}, rows)
		}
		return nil
	})
}
