package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/internal/textdist"
)

// key describes one setting. The table below drives files, environment,
// flags, validation and [Show] alike, so a new key is one line here plus its
// field.
type key struct {
	name    string            // "browser.engine"
	allowed []string          // for enums: the values allowed; empty: any
	empty   bool              // for enums: "" is allowed too
	secret  bool              // masked by Show
	daemon  bool              // read once when the daemon starts (its browser, its policy, its idle timer): see [Config.DaemonSettings]
	field   func(*Config) any // a pointer to the field
}

// keys in the order Show prints them.
var keys = []key{
	{name: "browser.engine", daemon: true, allowed: []string{"chromium", "cdp", "auto"}, field: func(c *Config) any { return &c.Browser.Engine }},
	{name: "browser.executable", daemon: true, field: func(c *Config) any { return &c.Browser.Executable }},
	{name: "browser.cdp", daemon: true, field: func(c *Config) any { return &c.Browser.CDP }},
	{name: "browser.headless", daemon: true, field: func(c *Config) any { return &c.Browser.Headless }},
	{name: "browser.args", daemon: true, field: func(c *Config) any { return &c.Browser.Args }},
	{name: "fallback.cdp_to_local", daemon: true, field: func(c *Config) any { return &c.Fallback.CDPToLocal }},
	{name: "session.name", field: func(c *Config) any { return &c.Session.Name }},
	{name: "session.submits", allowed: []string{"ask", "allow"}, field: func(c *Config) any { return &c.Session.Submits }},
	{name: "session.timeout", field: func(c *Config) any { return &c.Session.Timeout }},
	{name: "policy.allow", daemon: true, field: func(c *Config) any { return &c.Policy.Allow }},
	{name: "policy.block", daemon: true, field: func(c *Config) any { return &c.Policy.Block }},
	{name: "policy.files", daemon: true, field: func(c *Config) any { return &c.Policy.Files }},
	{name: "policy.private_network", daemon: true, allowed: []string{"none", "loopback", "all"}, field: func(c *Config) any { return &c.Policy.PrivateNetwork }},
	{name: "model.provider", allowed: []string{"anthropic", "openai", "rules"}, empty: true, field: func(c *Config) any { return &c.Model.Provider }},
	{name: "model.model", field: func(c *Config) any { return &c.Model.Model }},
	{name: "model.base_url", field: func(c *Config) any { return &c.Model.BaseURL }},
	{name: "model.api_key", secret: true, field: func(c *Config) any { return &c.Model.APIKey }},
	{name: "model.vision", allowed: []string{"auto", "always", "never"}, empty: true, field: func(c *Config) any { return &c.Model.Vision }},
	{name: "model.pictures", allowed: []string{"yes", "no"}, empty: true, field: func(c *Config) any { return &c.Model.Pictures }},
	{name: "model.purposes.act", field: func(c *Config) any { return &c.Model.Purposes.Act }},
	{name: "model.purposes.observe", field: func(c *Config) any { return &c.Model.Purposes.Observe }},
	{name: "model.purposes.extract", field: func(c *Config) any { return &c.Model.Purposes.Extract }},
	{name: "model.purposes.heal", field: func(c *Config) any { return &c.Model.Purposes.Heal }},
	{name: "model.purposes.decide", field: func(c *Config) any { return &c.Model.Purposes.Decide }},
	{name: "evidence.folder", field: func(c *Config) any { return &c.Evidence.Folder }},
	{name: "evidence.netlog", daemon: true, allowed: []string{NetLogOff, NetLogOnFailure, NetLogAlways}, field: func(c *Config) any { return &c.Evidence.NetLog }},
	{name: "evidence.netlog_file", daemon: true, field: func(c *Config) any { return &c.Evidence.NetLogFile }},
	{name: "mcp.submits", allowed: []string{"ask", "allow"}, field: func(c *Config) any { return &c.MCP.Submits }},
	{name: "daemon.idle", daemon: true, field: func(c *Config) any { return &c.Daemon.Idle }},
	{name: "batch.nats", daemon: true, field: func(c *Config) any { return &c.Batch.NATS }},
	{name: "batch.creds", daemon: true, field: func(c *Config) any { return &c.Batch.Creds }},
	{name: "batch.tls_ca", daemon: true, field: func(c *Config) any { return &c.Batch.TLSCA }},
	{name: "batch.tls_cert", daemon: true, field: func(c *Config) any { return &c.Batch.TLSCert }},
	{name: "batch.tls_key", daemon: true, field: func(c *Config) any { return &c.Batch.TLSKey }},
	{name: "batch.listen", daemon: true, field: func(c *Config) any { return &c.Batch.Listen }},
	{name: "pool.endpoints", daemon: true, field: func(c *Config) any { return &c.Pool.Endpoints }},
	{name: "memory.dir", field: func(c *Config) any { return &c.Memory.Dir }},
	{name: "ats.greenhouse_api", daemon: true, field: func(c *Config) any { return &c.ATS.GreenhouseAPI }},
	{name: "ats.ashby_api", daemon: true, field: func(c *Config) any { return &c.ATS.AshbyAPI }},
}

func lookupKey(name string) (key, bool) {
	for _, k := range keys {
		if k.name == name {
			return k, true
		}
	}
	return key{}, false
}

// section and leaf split "model.purposes.act" into "model.purposes" and "act".
func (k key) section() string { s, _ := splitKey(k.name); return s }
func (k key) leaf() string    { _, l := splitKey(k.name); return l }

func splitKey(name string) (section, leaf string) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", name
	}
	return name[:i], name[i+1:]
}

// ValueError is a value waymark cannot use: an enum outside its values, a
// bool or duration that does not parse.
type ValueError struct {
	Key     string   // "browser.engine"
	Value   string   // as given
	Source  string   // a file path, "env NAME" or "flag --name"
	Allowed []string // the values allowed, for enums
	Err     error    // the parse error, for other kinds
}

func (e *ValueError) Error() string {
	if len(e.Allowed) > 0 {
		return fmt.Sprintf("%s: %s = %q is not allowed; use one of %s", e.Source, e.Key, e.Value, quoteList(e.Allowed))
	}
	return fmt.Sprintf("%s: %s = %q: %v", e.Source, e.Key, e.Value, e.Err)
}

func (e *ValueError) Unwrap() error { return e.Err }

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// check validates the value now in c for k: an enum's value, a duration's
// sign.
func (k key) check(c *Config, source string) error {
	if d, ok := k.field(c).(*time.Duration); ok && *d < 0 {
		return &ValueError{Key: k.name, Value: d.String(), Source: source, Err: fmt.Errorf("must not be negative; want a duration such as 30s")}
	}
	if len(k.allowed) == 0 {
		return nil
	}
	var v string
	switch p := k.field(c).(type) {
	case *string:
		v = *p
	case *Engine:
		v = string(*p)
	}
	if (v == "" && k.empty) || slices.Contains(k.allowed, v) {
		return nil
	}
	return &ValueError{Key: k.name, Value: v, Source: source, Allowed: k.allowed}
}

// copyTo copies k's value from src to dst.
func (k key) copyTo(dst, src *Config) {
	switch d := k.field(dst).(type) {
	case *string:
		*d = *k.field(src).(*string)
	case *Engine:
		*d = *k.field(src).(*Engine)
	case *bool:
		*d = *k.field(src).(*bool)
	case *time.Duration:
		*d = *k.field(src).(*time.Duration)
	case *[]string:
		*d = slices.Clone(*k.field(src).(*[]string))
	default:
		panic(fmt.Sprintf("config: key %s has an unhandled type %T", k.name, d)) // programmer error in the table
	}
}

// parse sets k in c from its text form, as the environment and flags give
// it: lists one item a line, bools as strconv.ParseBool reads them,
// durations as time.ParseDuration does.
func (k key) parse(c *Config, raw, source string) error {
	switch d := k.field(c).(type) {
	case *string:
		*d = raw
	case *Engine:
		*d = Engine(raw)
	case *bool:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return &ValueError{Key: k.name, Value: raw, Source: source, Err: fmt.Errorf("want true or false")}
		}
		*d = b
	case *time.Duration:
		t, err := time.ParseDuration(raw)
		if err != nil {
			return &ValueError{Key: k.name, Value: raw, Source: source, Err: fmt.Errorf("want a duration such as 30s or 2m")}
		}
		*d = t
	case *[]string:
		*d = SplitLines(raw)
	}
	if err := k.check(c, source); err != nil {
		return err
	}
	c.sources[k.name] = source
	return nil
}

// SplitLines splits a list given one item a line, dropping empty lines:
// how lists come in environment variables (WAYMARK_BROWSER_ARGS).
func SplitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// closest returns the known key or section nearest to name, or "" when
// none is close. A leaf that exists in another section ("[browser]
// timeout") counts as close.
func closest(name string) string {
	_, leaf := splitKey(name)
	best, bestD := "", 1<<30
	consider := func(known string, d int) {
		if d < bestD {
			best, bestD = known, d
		}
	}
	for _, s := range sections() {
		consider(s, textdist.Distance(name, s))
	}
	for _, k := range keys {
		consider(k.name, textdist.Distance(name, k.name))
		consider(k.name, textdist.Distance(leaf, k.leaf())+1)
	}
	if bestD > 3 || bestD*3 > len(name)+2 {
		return ""
	}
	return best
}

// sections returns the known section names in table order.
func sections() []string {
	var out []string
	for _, k := range keys {
		if s := k.section(); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// leavesOf returns the keys of a section, without the section.
func leavesOf(section string) []string {
	var out []string
	for _, k := range keys {
		if k.section() == section {
			out = append(out, k.leaf())
		}
	}
	return out
}
