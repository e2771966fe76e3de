package config

import (
	"fmt"
	"strings"
)

// DaemonSettings are the settings a daemon reads once, when it starts
// (the browser it launches or attaches to, the URL policy it judges
// every page by, and how long it waits idle before it exits), keyed by "section.key" with values as [Show] prints
// them. The daemon sends its own in its hello; a command compares them
// with the ones it would start a daemon with ([DiffSettings]), so that a
// setting the running daemon does not obey is never silently ignored.
func (c *Config) DaemonSettings() map[string]string {
	out := map[string]string{}
	for _, e := range c.Entries() {
		if k, _ := lookupKey(e.Key); k.daemon {
			out[e.Key] = tomlValue(e.Value)
		}
	}
	return out
}

// SettingDiff is one daemon setting that differs between a running
// daemon and what a command asked for.
type SettingDiff struct {
	Key     string // "policy.private_network"
	Running string // the daemon's value, as Show prints it; "" when it did not say
	Wanted  string // this command's value
	Source  string // where the wanted value came from (see [Config.Sources])
}

func (d SettingDiff) String() string {
	running := d.Running
	if running == "" {
		running = "(not reported)"
	}
	return fmt.Sprintf("%s = %s (running) but %s from %s", d.Key, running, d.Wanted, d.Source)
}

// DiffSettings compares the settings a running daemon reported with the
// ones c holds, in the order [Show] prints keys. Only keys a file, the
// environment or a flag set in c count: one left at its default asks for
// nothing, and whatever the daemon was started with serves it. A daemon
// that reported none (an older one) gives no differences.
func (c *Config) DiffSettings(running map[string]string) []SettingDiff {
	if running == nil {
		return nil
	}
	wanted := c.DaemonSettings()
	var out []SettingDiff
	for _, k := range keys {
		w, ok := wanted[k.name]
		if !ok || running[k.name] == w || c.sources[k.name] == SourceDefault || c.sources[k.name] == "" {
			continue
		}
		out = append(out, SettingDiff{Key: k.name, Running: running[k.name], Wanted: w, Source: c.sources[k.name]})
	}
	return out
}

// DescribeDiffs is the diffs one a line, indented, for a message.
func DescribeDiffs(diffs []SettingDiff) string {
	lines := make([]string, len(diffs))
	for i, d := range diffs {
		lines[i] = "  " + d.String()
	}
	return strings.Join(lines, "\n")
}
