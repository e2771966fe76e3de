package cmdutil

import (
	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/policy"
)

// DriverOptions turns the configuration into the options of the browser a
// daemon starts or attaches to: the executable, headless, the extra
// flags, the URL policy and the CDP endpoint as configured (the engine is
// resolved by [daemonDriverOptions]; doctor weighs it itself). Such a
// browser serves callers in other processes (the CLI, the MCP server, a
// batch's rows), so it reads no file from its own working folder
// (RemoteCallers).
func DriverOptions(cfg *config.Config) (driver.Options, error) {
	access, err := policy.ParseAccess(cfg.Policy.PrivateNetwork)
	if err != nil {
		return driver.Options{}, err
	}
	pol, err := policy.New(policy.Options{Allow: cfg.Policy.Allow, Block: cfg.Policy.Block, PrivateNetwork: access, Files: cfg.Policy.Files})
	if err != nil {
		return driver.Options{}, err
	}
	return driver.Options{
		ExecPath: cfg.Browser.Executable,
		Headed:   !cfg.Browser.Headless,
		Args:     append([]string(nil), cfg.Browser.Args...),
		Policy:   pol,
		CDP:      cfg.Browser.CDP,
		Apps:     append([]apps.App(nil), cfg.Apps...),
		ATS:      driver.ATSOptions{GreenhouseAPI: cfg.ATS.GreenhouseAPI, AshbyAPI: cfg.ATS.AshbyAPI},
		// The daemon's folder is wherever its first command ran: a
		// relative path read from there would be another file of the
		// same name, or none.
		RemoteCallers: true,
	}, nil
}

// UrlPolicy is the configured URL policy, so a page it refuses is not
// listed; nil when the configuration cannot be read (the daemon checks
// every request against its own policy either way).
func (c *Common) UrlPolicy() *policy.Policy {
	cfg, err := c.ReadConfig()
	if err != nil {
		return nil
	}
	o, err := DriverOptions(cfg)
	if err != nil {
		return nil
	}
	return o.Policy
}
