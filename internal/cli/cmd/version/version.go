package version

import (
	"context"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// VersionOptions are the flags of `waymark version`.
type VersionOptions struct {
	cmdutil.Common
	Version string
}

// NewCmdVersion builds `waymark version`.
func NewCmdVersion(f *cmdutil.Factory, runF func(context.Context, *VersionOptions) error) *cobra.Command {
	opts := &VersionOptions{}
	return &cobra.Command{
		Use:         "version",
		Short:       "Print waymark's version",
		Args:        cmdutil.ExactArgs(0),
		Annotations: map[string]string{cmdutil.ConfigOptional: "uses none"},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Version = f.Version
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return versionRun(cmd.Context(), opts)
		},
	}
}

func versionRun(_ context.Context, opts *VersionOptions) error {
	data := map[string]string{"version": opts.Version, "go": runtime.Version(), "os": runtime.GOOS, "arch": runtime.GOARCH}
	return opts.Emit(data, func() error {
		_, err := fmt.Fprintf(opts.IO.Out, "waymark %s (%s, %s/%s)\n", opts.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return err
	})
}
