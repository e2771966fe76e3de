// Package config reads waymark's settings. Each layer overrides the one
// before it:
//
//	defaults < the user's file < the project's ./waymark.toml < environment < flags
//
// The user's file is config.toml in waymark's folder of the user config dir
// (such as ~/.config/waymark/config.toml). Every value remembers where it
// came from ([Config.Sources]), so that `waymark config show` ([Show]) can
// say, and [ResolveEngine] turns the [browser] and [fallback] sections into
// the browser to use.
//
// The package reads no environment and no real folder by itself: the CLI
// passes them in [LoadOptions], and tests pass their own.
package config

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/apps"
)

// Engine is how waymark gets a browser.
type Engine string

// Engines.
const (
	// EngineChromium starts a local Chromium.
	EngineChromium Engine = "chromium"
	// EngineCDP attaches to the DevTools endpoint in browser.cdp.
	EngineCDP Engine = "cdp"
	// EngineAuto attaches to browser.cdp when it answers, and otherwise
	// starts a local Chromium.
	EngineAuto Engine = "auto"
)

// Config is waymark's merged configuration. Build it with [Load] (or
// [Default]); the zero value has no defaults and no sources.
type Config struct {
	Browser  Browser  `toml:"browser"`
	Fallback Fallback `toml:"fallback"`
	Session  Session  `toml:"session"`
	Policy   Policy   `toml:"policy"`
	Model    Model    `toml:"model"`
	Evidence Evidence `toml:"evidence"`
	Daemon   Daemon   `toml:"daemon"`
	MCP      MCP      `toml:"mcp"`
	Batch    Batch    `toml:"batch"`
	Pool     Pool     `toml:"pool"`
	Memory   Memory   `toml:"memory"`
	ATS      ATS      `toml:"ats"`
	// Apps are the user's applications ([[apps]], package apps): each
	// file's are added to those before it, the project's after the
	// user's, and they are known before the built-in ones.
	Apps []apps.App `toml:"apps"`

	files   []string          // the files read, lowest precedence first
	sources map[string]string // "section.key" → where its value came from
}

// Browser is the [browser] section.
type Browser struct {
	// Engine is "chromium", "cdp" or "auto"; the default is "auto", which is
	// a local Chromium unless CDP is set and answers.
	Engine Engine `toml:"engine"`
	// Executable is the Chromium to start; empty means search the usual
	// places. Env WAYMARK_BROWSER, flag --executable-path.
	Executable string `toml:"executable"`
	// CDP is a DevTools endpoint to attach to: a port, host:port, or an
	// http:// or ws:// URL; empty means none. Env WAYMARK_CDP, flag --cdp.
	CDP string `toml:"cdp"`
	// Headless hides the window of a started browser; the default is true.
	// Flag --headed sets it false.
	Headless bool `toml:"headless"`
	// Args are extra Chromium flags ("--lang=de"); empty means none. Env
	// WAYMARK_BROWSER_ARGS (one a line), flag --browser-arg.
	Args []string `toml:"args"`
}

// Fallback is the [fallback] section.
type Fallback struct {
	// CDPToLocal starts a local Chromium when the CDP endpoint does not
	// answer; false makes that an error. The default is true.
	CDPToLocal bool `toml:"cdp_to_local"`
}

// Session is the [session] section: defaults for each session.
type Session struct {
	// Name is the session commands use; the default is "default". Env
	// WAYMARK_SESSION, flag --session.
	Name string `toml:"name"`
	// Submits is "ask" (a step that would send, pay, delete or confirm
	// waits for approval) or "allow"; the default is "ask". The CLI's
	// plain element commands (click, dblclick, press), where a person
	// names the exact element, allow unless a file sets "ask" (issue 7);
	// flags --ask-submit and --allow-submit decide for one command.
	Submits string `toml:"submits"`
	// Timeout bounds each page call that waits ("30s" in the file): the
	// CLI's element actions, open and wait, and the MCP tools', when they
	// give no timeout of their own; zero means the daemon's defaults.
	// Flag --timeout.
	Timeout time.Duration `toml:"timeout"`
}

// Policy is the [policy] section: where pages may go.
type Policy struct {
	// Allow lists URL globs a page may visit; empty means any not blocked.
	Allow []string `toml:"allow"`
	// Block lists URL globs a page may not visit; empty means none.
	Block []string `toml:"block"`
	// PrivateNetwork is what private addresses pages may reach: "none",
	// "loopback" (the default: 127.0.0.0/8, ::1, localhost, so local
	// development servers work; issue 7) or "all".
	// Env WAYMARK_PRIVATE_NETWORK.
	PrivateNetwork string `toml:"private_network"`
	// Files lets pages be opened from local files (file: URLs of this
	// machine); off by default. A page from the web never reaches a file
	// either way (package policy, Options.Files).
	// Env WAYMARK_ALLOW_FILES, flag --allow-files.
	Files bool `toml:"files"`
}

// Model is the [model] section.
type Model struct {
	// Provider is "anthropic", "openai" or "rules"; empty means no model
	// (commands that need one refuse). Without one in a file, a set
	// ANTHROPIC_API_KEY (else OPENAI_API_KEY) picks its provider.
	Provider string `toml:"provider"`
	// Model is the model name for every purpose without its own; empty
	// means the provider's default. Env WAYMARK_MODEL.
	Model string `toml:"model"`
	// BaseURL is the provider's API address; empty means its public one.
	// Env OPENAI_BASE_URL for the openai provider.
	BaseURL string `toml:"base_url"`
	// Purposes names a model per purpose; an empty one uses Model.
	Purposes Purposes `toml:"purposes"`
	// APIKey is the provider's key; empty means none. Env ANTHROPIC_API_KEY
	// or OPENAI_API_KEY by provider. A file may hold it only if the file
	// is mode 0600 or stricter.
	APIKey string `toml:"api_key"`
	// Vision says when the page's picture goes with act's, extract's and
	// run's questions: "auto" (the default, also when empty: only when
	// the outline is thin for what the view shows), "always" or "never".
	// The flag --vision of act, extract and run, and the vision argument
	// of the MCP tools, say it for one call.
	Vision string `toml:"vision"`
	// Pictures says whether the model reads pictures: "yes" or "no";
	// empty leaves it to the provider (Anthropic's models and OpenAI's
	// own API read them; a server at base_url is taken as text-only).
	// A model that reads none is never sent one.
	Pictures string `toml:"pictures"`
}

// Purposes is the [model.purposes] section: a model name per purpose,
// empty meaning [Model].Model.
type Purposes struct {
	Act     string `toml:"act"`
	Observe string `toml:"observe"`
	Extract string `toml:"extract"`
	Heal    string `toml:"heal"`
	Decide  string `toml:"decide"`
}

// For returns the model for a purpose ("act", "observe", "extract", "heal",
// "decide"): its own when set, else Model.
func (m Model) For(purpose string) string {
	var p string
	switch purpose {
	case "act":
		p = m.Purposes.Act
	case "observe":
		p = m.Purposes.Observe
	case "extract":
		p = m.Purposes.Extract
	case "heal":
		p = m.Purposes.Heal
	case "decide":
		p = m.Purposes.Decide
	}
	if p == "" {
		return m.Model
	}
	return p
}

// Memory is the [memory] section.
type Memory struct {
	// Dir is the folder where the pilot keeps notes about sites, one
	// Markdown file per host (package memory): a heal is shown the notes
	// on its site and keeps what it learned. Empty (the default) keeps
	// none; "~/" is the home folder.
	Dir string `toml:"dir"`
}

// MemoryDir is Dir with "~/" expanded; "" when memory is off.
func (m Memory) MemoryDir() string {
	if rest, ok := strings.CutPrefix(m.Dir, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return m.Dir
}

// Evidence is the [evidence] section.
type Evidence struct {
	// Folder is where `waymark test` makes a folder for each run's
	// evidence; empty means ./waymark-evidence. Flag --out names a run's
	// folder itself.
	Folder string `toml:"folder"`
	// NetLog is when a browser the daemon starts writes Chromium's NetLog
	// (the wire below DevTools; package netlog): "off" (the default),
	// "on-failure" (to a file in the daemon's state folder, read when a
	// replay or test step fails as blocked, unreachable or timed out) or
	// "always". The capture mode is Default: no cookies, no credentials.
	NetLog string `toml:"netlog"`
	// NetLogFile is the file the NetLog goes to; empty means netlog.json
	// in the daemon's state folder. Setting it turns the log on even
	// when NetLog is "off". Flag --netlog.
	NetLogFile string `toml:"netlog_file"`
}

// NetLog modes.
const (
	NetLogOff       = "off"
	NetLogOnFailure = "on-failure"
	NetLogAlways    = "always"
)

// NetLogOn reports whether a started browser writes a NetLog.
func (e Evidence) NetLogOn() bool {
	return e.NetLogFile != "" || (e.NetLog != "" && e.NetLog != NetLogOff)
}

// Daemon is the [daemon] section.
type Daemon struct {
	// Idle is how long the daemon waits with no client connected before it
	// closes the browser and exits; the default is 30 minutes, 0 never.
	Idle time.Duration `toml:"idle"`
}

// MCP is the [mcp] section: what `waymark mcp` lets its clients do.
type MCP struct {
	// Submits decides a click or key that would send, pay, delete or
	// confirm when the MCP client cannot ask its person (it has no
	// elicitation): "ask" (the default) refuses it, "allow" lets it
	// through. A client that can ask always asks.
	Submits string `toml:"submits"`
}

// Batch is the [batch] section: where batches run (package batch).
type Batch struct {
	// NATS is a NATS URL ("nats://host:4222", several joined by commas)
	// whose JetStream holds the batches; empty means the daemon's embedded
	// server, with its store under the state folder.
	NATS string `toml:"nats"`
	// Creds is a NATS credentials file for NATS; empty means none.
	Creds string `toml:"creds"`
	// TLSCA, TLSCert and TLSKey are PEM files for a NATS server on TLS:
	// the authority to trust, and a client certificate and key.
	TLSCA   string `toml:"tls_ca"`
	TLSCert string `toml:"tls_cert"`
	TLSKey  string `toml:"tls_key"`
	// Listen is a loopback address where the embedded server takes
	// workers of other processes ("127.0.0.1:4222"); empty means none:
	// only the daemon's own worker, in-process.
	Listen string `toml:"listen"`
}

// Pool is the [pool] section: the browsers batch rows run in.
type Pool struct {
	// Endpoints are the browsers, each "URL max=N" (a CDP endpoint, or
	// "local" for the daemon's or worker's own browser) with at most N
	// sessions at once; empty means the local browser alone.
	Endpoints []string `toml:"endpoints"`
}

// ATS is the [ats] section: where the applicant tracking systems'
// public job-board APIs answer, read once per form for the form's
// published definition (driver/ats.go). Empty means the vendor's own.
type ATS struct {
	// GreenhouseAPI is the Greenhouse Job Board API's base URL
	// ("https://boards-api.greenhouse.io").
	GreenhouseAPI string `toml:"greenhouse_api"`
	// AshbyAPI is the base URL of Ashby's hosted job pages, whose
	// posting API the page itself reads ("https://jobs.ashbyhq.com").
	AshbyAPI string `toml:"ashby_api"`
}

// DefaultIdle is [daemon] idle when nothing sets it.
const DefaultIdle = 30 * time.Minute

// SourceDefault is the source of a value nothing set.
const SourceDefault = "default"

// Default returns the built-in defaults, each with source "default".
func Default() *Config {
	c := &Config{
		Browser:  Browser{Engine: EngineAuto, Headless: true},
		Fallback: Fallback{CDPToLocal: true},
		Session:  Session{Name: "default", Submits: "ask"},
		Policy:   Policy{PrivateNetwork: "loopback"},
		Evidence: Evidence{NetLog: NetLogOff},
		Daemon:   Daemon{Idle: DefaultIdle},
		MCP:      MCP{Submits: "ask"},
		sources:  map[string]string{},
	}
	for _, k := range keys {
		c.sources[k.name] = SourceDefault
	}
	return c
}

// Sources returns where each value came from, keyed by "section.key"
// ("browser.cdp", "model.purposes.act"): "default", a file's path,
// "env NAME" or "flag --name". The map is a copy.
func (c *Config) Sources() map[string]string {
	out := make(map[string]string, len(c.sources))
	for k, v := range c.sources {
		out[k] = v
	}
	return out
}

// Files returns the config files that were read, lowest precedence first.
func (c *Config) Files() []string { return append([]string(nil), c.files...) }
