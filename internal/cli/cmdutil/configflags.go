package cmdutil

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/waymark-dev/waymark/internal/config"
)

// configFlag is a global flag that sets a config key.
type configFlag struct {
	name string                                    // "cdp"
	key  string                                    // "browser.cdp"
	add  func(fs *pflag.FlagSet, g *GlobalOptions) // registers it, with no default of its own
	// value is its value as a config layer.
	value func(g *GlobalOptions) string
	// args is the flag on the command line of a daemon this command
	// starts; nil means "--name=value".
	args func(g *GlobalOptions) []string
}

// configFlagTable is the one table of the global flags that set config
// keys: it registers them ([GlobalOptions.addConfigFlags]), turns those set
// into config layers ([GlobalOptions.configFlags]) and into the command
// line of a daemon this command starts ([GlobalOptions.daemonArgs]). The
// flags have no defaults of their own: what is not set comes from the
// environment, the config files or the built-in defaults, through
// config.Load.
var configFlagTable = []configFlag{
	{name: "session", key: "session.name",
		add: func(fs *pflag.FlagSet, g *GlobalOptions) {
			fs.StringVar(&g.Session, "session", "", `the named session to use (env WAYMARK_SESSION, [session] name; default "default")`)
		},
		value: func(g *GlobalOptions) string { return g.Session }},
	{name: "executable-path", key: "browser.executable",
		add: func(fs *pflag.FlagSet, g *GlobalOptions) {
			fs.StringVar(&g.ExecutablePath, "executable-path", "", "the Chromium to launch when the daemon starts (env WAYMARK_BROWSER, [browser] executable)")
		},
		value: func(g *GlobalOptions) string { return g.ExecutablePath }},
	{name: "headed", key: "browser.headless",
		add: func(fs *pflag.FlagSet, g *GlobalOptions) {
			fs.BoolVar(&g.Headed, "headed", false, "show the browser window when the daemon starts it ([browser] headless = false)")
		},
		value: func(g *GlobalOptions) string { return strconv.FormatBool(!g.Headed) },
		args:  func(g *GlobalOptions) []string { return []string{"--headed=" + strconv.FormatBool(g.Headed)} }},
	{name: "cdp", key: "browser.cdp",
		add: func(fs *pflag.FlagSet, g *GlobalOptions) {
			fs.StringVar(&g.CDP, "cdp", "", "attach to a running browser: a DevTools port or a ws:// or http:// URL (env WAYMARK_CDP, [browser] cdp)")
		},
		value: func(g *GlobalOptions) string { return g.CDP }},
	{name: "browser-arg", key: "browser.args",
		add: func(fs *pflag.FlagSet, g *GlobalOptions) {
			fs.StringArrayVar(&g.BrowserArgs, "browser-arg", nil, "a Chromium flag for a browser the daemon starts, repeatable; replaces env WAYMARK_BROWSER_ARGS (one a line) and [browser] args")
		},
		value: func(g *GlobalOptions) string { return strings.Join(g.BrowserArgs, "\n") },
		args: func(g *GlobalOptions) []string {
			var out []string
			for _, a := range g.BrowserArgs {
				out = append(out, "--browser-arg="+a)
			}
			return out
		}},
	{name: "private-network", key: "policy.private_network",
		add: func(fs *pflag.FlagSet, g *GlobalOptions) {
			fs.StringVar(&g.PrivateNetwork, "private-network", "", `private addresses pages may reach: "none", "loopback" (default) or "all" (env WAYMARK_PRIVATE_NETWORK, [policy] private_network)`)
		},
		value: func(g *GlobalOptions) string { return g.PrivateNetwork }},
	{name: "allow-files", key: "policy.files",
		add: func(fs *pflag.FlagSet, g *GlobalOptions) {
			fs.BoolVar(&g.AllowFiles, "allow-files", false, "let the daemon's browser open local files, file:///… (env WAYMARK_ALLOW_FILES, [policy] files = true); a page from the web still never reaches one")
		},
		value: func(g *GlobalOptions) string { return strconv.FormatBool(g.AllowFiles) },
		args:  func(g *GlobalOptions) []string { return []string{"--allow-files=" + strconv.FormatBool(g.AllowFiles)} }},
	{name: "netlog", key: "evidence.netlog_file",
		add: func(fs *pflag.FlagSet, g *GlobalOptions) {
			fs.StringVar(&g.NetLog, "netlog", "", `a browser the daemon starts writes Chromium's NetLog to FILE (no cookies or credentials; read it with "waymark netlog summarize"; [evidence] netlog_file)`)
		},
		// The daemon starts in this command's folder, but the path is
		// made absolute so that the daemon's settings name one file.
		value: func(g *GlobalOptions) string { return absPath(g.NetLog) }},
}

// absPath is p made absolute, or p when it cannot be.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// AddConfigFlags registers the flags of [configFlagTable] on fs.
func (g *GlobalOptions) AddConfigFlags(fs *pflag.FlagSet) {
	for _, f := range configFlagTable {
		f.add(fs, g)
	}
}

// NoteSet records in g.Set which flags of [configFlagTable] were set on
// the command line; changed is pflag's FlagSet.Changed.
func (g *GlobalOptions) NoteSet(changed func(name string) bool) {
	g.Set = nil
	for _, f := range configFlagTable {
		if changed(f.name) {
			g.Set = append(g.Set, f.name)
		}
	}
}

func (g *GlobalOptions) IsSet(name string) bool { return slices.Contains(g.Set, name) }

// ConfigFlags turns the global flags set on the command line into config
// layers, the last ones config.Load applies: a flag left alone leaves the
// key to the environment and the files.
func (g *GlobalOptions) ConfigFlags() []config.Flag {
	var out []config.Flag
	for _, f := range configFlagTable {
		if g.IsSet(f.name) {
			out = append(out, config.Flag{Name: "--" + f.name, Key: f.key, Value: f.value(g)})
		}
	}
	return out
}

// DaemonArgs is the command line, after "daemon", of a daemon this command
// starts: the browser and policy flags set here (the session is not the
// daemon's). The daemon merges them over the same files and environment,
// since it starts in this command's folder with its environment.
func (g *GlobalOptions) DaemonArgs() []string {
	var out []string
	for _, f := range configFlagTable {
		if f.name == "session" || !g.IsSet(f.name) {
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
