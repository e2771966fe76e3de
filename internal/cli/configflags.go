package cli

import (
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/waymark-dev/waymark/internal/config"
)

// configFlag is a global flag that sets a config key.
type configFlag struct {
	name  string                        // "cdp"
	key   string                        // "browser.cdp"
	value func(g *GlobalOptions) string // its value as a config layer
	// args is the flag on the command line of a daemon this command
	// starts; nil means "--name value".
	args func(g *GlobalOptions) []string
}

// configFlagTable is the one table of the global flags that set config
// keys: it registers them ([GlobalOptions.addConfigFlags]), turns those set
// into config layers ([GlobalOptions.configFlags]) and into the command
// line of a daemon this command starts ([GlobalOptions.daemonArgs]).
var configFlagTable = []configFlag{
	{name: "session", key: "session.name", value: func(g *GlobalOptions) string { return g.Session }},
	{name: "executable-path", key: "browser.executable", value: func(g *GlobalOptions) string { return g.ExecutablePath }},
	{name: "headed", key: "browser.headless", value: func(g *GlobalOptions) string { return strconv.FormatBool(!g.Headed) },
		args: func(g *GlobalOptions) []string { return []string{"--headed=" + strconv.FormatBool(g.Headed)} }},
	{name: "cdp", key: "browser.cdp", value: func(g *GlobalOptions) string { return g.CDP }},
	{name: "browser-arg", key: "browser.args", value: func(g *GlobalOptions) string { return strings.Join(g.BrowserArgs, "\n") },
		args: func(g *GlobalOptions) []string {
			var out []string
			for _, a := range g.BrowserArgs {
				out = append(out, "--browser-arg="+a)
			}
			return out
		}},
	{name: "private-network", key: "policy.private_network", value: func(g *GlobalOptions) string { return g.PrivateNetwork }},
}

// addConfigFlags registers the flags of [configFlagTable] on fs, with no
// defaults of their own: what is not set comes from the environment, the
// config files or the built-in defaults, through config.Load.
func (g *GlobalOptions) addConfigFlags(fs *pflag.FlagSet) {
	fs.StringVar(&g.Session, "session", "", "the named session to use (env WAYMARK_SESSION, [session] name; default \"default\")")
	fs.StringVar(&g.ExecutablePath, "executable-path", "", "the Chromium to launch when the daemon starts (env WAYMARK_BROWSER, [browser] executable)")
	fs.BoolVar(&g.Headed, "headed", false, "show the browser window when the daemon starts it ([browser] headless = false)")
	fs.StringVar(&g.CDP, "cdp", "", "attach to a running browser: a DevTools port or a ws:// or http:// URL (env WAYMARK_CDP, [browser] cdp)")
	fs.StringArrayVar(&g.BrowserArgs, "browser-arg", nil, "an extra Chromium flag for a browser the daemon starts, repeatable; replaces env WAYMARK_BROWSER_ARGS (one a line) and [browser] args")
	fs.StringVar(&g.PrivateNetwork, "private-network", "", `private addresses pages may reach: "none", "loopback" (default) or "all" (env WAYMARK_PRIVATE_NETWORK, [policy] private_network)`)
}

// noteSet records in g.Set which flags of [configFlagTable] were set on
// the command line; changed is pflag's FlagSet.Changed.
func (g *GlobalOptions) noteSet(changed func(name string) bool) {
	g.Set = nil
	for _, f := range configFlagTable {
		if changed(f.name) {
			g.Set = append(g.Set, f.name)
		}
	}
}

func (g *GlobalOptions) isSet(name string) bool { return slices.Contains(g.Set, name) }

// configFlags turns the global flags set on the command line into config
// layers, the last ones config.Load applies: a flag left alone leaves the
// key to the environment and the files.
func (g *GlobalOptions) configFlags() []config.Flag {
	var out []config.Flag
	for _, f := range configFlagTable {
		if g.isSet(f.name) {
			out = append(out, config.Flag{Name: "--" + f.name, Key: f.key, Value: f.value(g)})
		}
	}
	return out
}

// daemonArgs is the command line, after "daemon", of a daemon this command
// starts: the browser and policy flags set here (the session is not the
// daemon's). The daemon merges them over the same files and environment,
// since it starts in this command's folder with its environment.
func (g *GlobalOptions) daemonArgs() []string {
	var out []string
	for _, f := range configFlagTable {
		if f.name == "session" || !g.isSet(f.name) {
			continue
		}
		if f.args != nil {
			out = append(out, f.args(g)...)
			continue
		}
		out = append(out, "--"+f.name+"="+f.value(g))
	}
	return out
}
