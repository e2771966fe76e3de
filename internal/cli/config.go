package cli

import (
	"context"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/internal/config"
)

// ConfigShowOptions are the flags of `waymark config show`.
type ConfigShowOptions struct {
	Common
	// Load reads the merged configuration; the command wires files, the
	// environment and the global flags that were set.
	Load func() (*config.Config, error)
}

// NewCmdConfig builds `waymark config show`.
func NewCmdConfig(f *Factory, runF func(context.Context, *ConfigShowOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config show",
		Short: "Show the configuration and where each value comes from",
		Long: `waymark reads ./waymark.toml, then the user's config file
(` + config.UserFile + ` in the user config folder, such as ~/.config), then the
environment, then flags; each overrides the one before. "config show" prints
the merged result with the source of each value. API keys are masked.`,
		Args:        cobra.ArbitraryArgs,
		RunE:        groupRunE,
		Annotations: map[string]string{configOptional: "reports the config's errors"},
	}
	opts := &ConfigShowOptions{}
	cmd.AddCommand(&cobra.Command{
		Use:   "show",
		Short: "Print the merged configuration with the source of each value",
		Args:  exactArgs(0),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Common = f.common()
			opts.Load = func() (*config.Config, error) { return loadConfig(c, f.Globals) }
			if runF != nil {
				return runF(c.Context(), opts)
			}
			return configShowRun(c.Context(), opts)
		},
	})
	return cmd
}

// configShowData is the --json data of `config show`.
type configShowData struct {
	Files  []string               `json:"files"`
	Values map[string]configValue `json:"values"` // "section.key" → value and source
}

type configValue struct {
	Value  any    `json:"value"`
	Source string `json:"source"`
}

func configShowRun(_ context.Context, opts *ConfigShowOptions) error {
	c, err := opts.Load()
	if err != nil {
		return err
	}
	data := configShowData{Files: c.Files(), Values: map[string]configValue{}}
	if data.Files == nil {
		data.Files = []string{}
	}
	for _, e := range c.Entries() {
		data.Values[e.Key] = configValue{Value: e.Value, Source: e.Source}
	}
	return opts.emit(data, func() error { return config.Show(opts.IO.Out, c) })
}

// loadConfig reads the configuration for a command: the files of the
// working directory and the user config folder, the environment, and the
// global flags set on cmd's command line.
func loadConfig(cmd *cobra.Command, g GlobalOptions) (*config.Config, error) {
	wd, _ := os.Getwd()         // no working dir: no project file
	ud, _ := os.UserConfigDir() // no $HOME: no user file
	return config.Load(config.LoadOptions{
		Getenv:  os.Getenv,
		Dir:     wd,
		UserDir: ud,
		Flags:   configFlags(cmd.Flags().Changed, g),
	})
}

// configFlags turns the global flags the user set into config layers. The
// global flags take their defaults from the environment too; only those
// set on the command line count as flags here (the environment is read by
// [config.Load] itself).
func configFlags(changed func(name string) bool, g GlobalOptions) []config.Flag {
	var out []config.Flag
	add := func(flag, key, value string) {
		if changed(flag) {
			out = append(out, config.Flag{Name: "--" + flag, Key: key, Value: value})
		}
	}
	add("executable-path", "browser.executable", g.ExecutablePath)
	add("cdp", "browser.cdp", g.CDP)
	add("browser-arg", "browser.args", strings.Join(g.BrowserArgs, "\n"))
	add("session", "session.name", g.Session)
	if g.Headed {
		add("headed", "browser.headless", "false")
	}
	return out
}
