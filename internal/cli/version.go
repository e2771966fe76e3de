package cli

import (
	"context"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
)

// VersionOptions are the flags of `waymark version`.
type VersionOptions struct {
	Common
	Version string
}

// NewCmdVersion builds `waymark version`.
func NewCmdVersion(f *Factory, runF func(context.Context, *VersionOptions) error) *cobra.Command {
	opts := &VersionOptions{}
	return &cobra.Command{
		Use:         "version",
		Short:       "Print waymark's version",
		Args:        exactArgs(0),
		Annotations: map[string]string{configOptional: "uses none"},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.common()
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
	return opts.emit(data, func() error {
		_, err := fmt.Fprintf(opts.IO.Out, "waymark %s (%s, %s/%s)\n", opts.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
		return err
	})
}
