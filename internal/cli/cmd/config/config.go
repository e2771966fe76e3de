package config

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/config"
)

// ConfigShowOptions are the flags of `waymark config show`.
type ConfigShowOptions struct {
	cmdutil.Common
	// Load returns the merged configuration: the process's one reading of
	// the files, the environment and the global flags set, the same one
	// a daemon this command would start runs with.
	Load func() (*config.Config, error)
}

// NewCmdConfig builds `waymark config show`.
func NewCmdConfig(f *cmdutil.Factory, runF func(context.Context, *ConfigShowOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config show",
		Short: "Show the configuration and where each value comes from",
		Long: `waymark reads the user's config file (` + config.UserFile + ` in the user
config folder, such as ~/.config), then ./waymark.toml, then the environment,
then the global flags; each overrides the one before. "config show" prints
the merged result with the source of each value: what a daemon started by
the same command would run with. API keys are masked.`,
		Args:        cobra.ArbitraryArgs,
		RunE:        cmdutil.GroupRunE,
		Annotations: map[string]string{cmdutil.ConfigOptional: "reports the config's errors"},
	}
	opts := &ConfigShowOptions{}
	cmd.AddCommand(&cobra.Command{
		Use:   "show",
		Short: "Print the merged configuration with the source of each value",
		Args:  cmdutil.ExactArgs(0),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Load = f.ReadConfig
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return configShowRun(c.Context(), opts)
		},
	})
	return cmd
}

// ConfigShowData is the --json data of `config show`.
type ConfigShowData struct {
	Files  []string               `json:"files"`
	Values map[string]ConfigValue `json:"values"` // "section.key" → value and source
}

type ConfigValue struct {
	Value  any    `json:"value"`
	Source string `json:"source"`
}

func configShowRun(_ context.Context, opts *ConfigShowOptions) error {
	c, err := opts.Load()
	if err != nil {
		return err
	}
	data := ConfigShowData{Files: c.Files(), Values: map[string]ConfigValue{}}
	if data.Files == nil {
		data.Files = []string{}
	}
	for _, e := range c.Entries() {
		data.Values[e.Key] = ConfigValue{Value: e.Value, Source: e.Source}
	}
	return opts.Emit(data, func() error { return config.Show(opts.IO.Out, c) })
}
