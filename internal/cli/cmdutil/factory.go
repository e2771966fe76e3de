package cmdutil

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/envelope"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/config"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// Caller is the one [calls.Caller], named here because the CLI's
// signatures (Deps.Dial, Factory.Caller) carry it everywhere: it sends one
// call to the daemon for a session. Failures carry the categories of
// package calls so that [ExitCode] and the JSON envelope can tell them
// apart.
type Caller = calls.Caller

// ErrNoDaemon is what [Deps.Dial] returns, wrapped, when asked not to start
// a daemon and none answers. Commands that only make sense with a running
// daemon (daemon stop, daemon status, session list, close) treat it as an
// answer, not a failure.
var ErrNoDaemon = errors.New("no daemon running")

// GlobalOptions are the persistent flags, as typed on the command line:
// no environment and no config file is in them (config.Load merges those
// under the flags set, see [GlobalOptions.configFlags]). The same struct
// is what a command hands to [Deps.Dial] (which passes the browser flags
// set on to a daemon it starts) and what the hidden `waymark daemon`
// command runs with.
type GlobalOptions struct {
	Session        string   // --session; after the flags are parsed, the session of the configuration
	JSON           bool     // --json
	ExecutablePath string   // --executable-path; empty: not set here
	Headed         bool     // --headed
	AllowFiles     bool     // --allow-files
	CDP            string   // --cdp: a port or a ws:// or http:// URL; empty: not set here
	Socket         string   // --socket, else WAYMARK_SOCKET (hidden); empty: the per-user default
	BrowserArgs    []string // --browser-arg: extra Chromium flags
	NetLog         string   // --netlog: the file a started browser writes its NetLog to
	PrivateNetwork string   // --private-network: none, loopback or all; empty: not set here
	// Set names the flags of [configFlagTable] set on the command line
	// ("cdp", "headed"): only those are config layers and go to a daemon
	// this command starts.
	Set []string
}

// Factory holds what commands need, built lazily so that --help and usage
// errors never dial the daemon. Commands copy the fields they use into their
// Options when they run, after the global flags are parsed.
type Factory struct {
	IO *iostreams.IOStreams
	// Caller dials the daemon, starting it when none runs. It dials once a
	// process; later calls return the same Caller.
	Caller func(ctx context.Context) (Caller, error)
	// RunningCaller dials a daemon that already runs and never starts one:
	// with none it returns an error wrapping [ErrNoDaemon].
	RunningCaller func(ctx context.Context) (Caller, error)
	Session       string // the session every call is made for
	// SessionFromConfig is set when Session is [session] name of the
	// config file rather than --session's or WAYMARK_SESSION's: a person
	// did not name it for this command.
	SessionFromConfig bool
	JSON              bool          // print one JSON envelope instead of human text
	Globals           GlobalOptions // all the global flags, for the daemon command
	RunDaemon         func(ctx context.Context, g GlobalOptions, cfg *config.Config) error
	ServeDemo         func(ctx context.Context, addr string, ready func(url string)) error
	Now               func() time.Time
	Version           string
	// Config is the process's one configuration: the files, the
	// environment and the global flags set, merged once (a command's own
	// flags, such as --timeout, are weighed by the command). Nil means
	// the built-in defaults.
	Config func() (*config.Config, error)
	// Getenv reads the environment for what is not configuration: the
	// values of --secret NAME=env:VAR, proxy variables, the model's keys.
	// Nil means os.Getenv.
	Getenv func(string) string
}

// getenv is f.Getenv, or os.Getenv.
func (f *Factory) Env() func(string) string { return orOSEnv(f.Getenv) }

// config returns the configuration commands take their defaults from.
func (f *Factory) ReadConfig() (*config.Config, error) { return readConfig(f.Config) }

// config returns the process's configuration (the built-in defaults for a
// Common built by hand with no Config).
func (c *Common) ReadConfig() (*config.Config, error) { return readConfig(c.Config) }

func readConfig(read func() (*config.Config, error)) (*config.Config, error) {
	if read == nil {
		return config.Default(), nil
	}
	c, err := read()
	if err != nil {
		return nil, &ConfigError{Err: err}
	}
	return c, nil
}

// ConfigError is a config file or environment setting waymark cannot use.
// The message names the file and what to fix; --json reports code
// "bad_config" (exit 2).
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string     { return e.Err.Error() }
func (e *ConfigError) Unwrap() error     { return e.Err }
func (e *ConfigError) ErrorCode() string { return codeBadConfig }

// Common is what every command that talks to the daemon carries from the
// [Factory]. Each command's Options embeds it.
type Common struct {
	IO      *iostreams.IOStreams
	Caller  func(ctx context.Context) (Caller, error)
	Session string
	JSON    bool
	// Config is the Factory's reader of the configuration (once a
	// process); nil in tests that build a Common by hand.
	Config func() (*config.Config, error)
	// Getenv is the Factory's; nil means os.Getenv (see [Common.getenv]).
	Getenv func(string) string
}

// Common copies the Factory's run-time fields; call it inside RunE, after the
// global flags have been parsed.
func (f *Factory) Common() Common {
	return Common{IO: f.IO, Caller: f.Caller, Session: f.Session, JSON: f.JSON, Config: f.Config, Getenv: f.Getenv}
}

// getenv is c.Getenv, or os.Getenv.
func (c *Common) Env() func(string) string { return orOSEnv(c.Getenv) }

// orOSEnv is the one place a command picks its reader of the
// environment: getenv, or os.Getenv when nil.
func orOSEnv(getenv func(string) string) func(string) string {
	if getenv == nil {
		return os.Getenv
	}
	return getenv
}

// session is the command's session on the daemon, which is dialled
// (lazily) on the first call.
func (c *Common) Remote() calls.Remote {
	return calls.Remote{Caller: DialOnCall{Dial: c.Caller}, Session: c.Session}
}

// Daemon makes the calls the daemon answers itself (session list, daemon
// stop, …) for the command's session, dialling (lazily) on the first.
func (c *Common) Daemon() rpc.Daemon {
	return rpc.Daemon{Caller: DialOnCall{Dial: c.Caller}, Session: c.Session}
}

// DialOnCall dials the daemon on each call (the Factory keeps the first
// good connection), so that a command or the MCP server starts without a
// browser and a failed start is an error of the call, with its hint.
type DialOnCall struct {
	Dial func(ctx context.Context) (Caller, error)
}

func (d DialOnCall) Call(ctx context.Context, session, method string, params, result any) error {
	c, err := d.Dial(ctx)
	if err != nil {
		return err
	}
	return c.Call(ctx, session, method, params, result)
}

// Emit prints a command's result: with --json the envelope with data on
// stdout; otherwise whatever human writes.
func (c *Common) Emit(data any, human func() error) error {
	if c.JSON {
		return WriteEnvelope(c.IO.Out, Envelope{OK: true, Data: orEmpty(data)})
	}
	if human == nil {
		return nil
	}
	return human()
}

// Said prints one line of what a command did (what an action chose, where
// it landed) to stdout, where a harness reading stdout finds it; --json
// prints the envelope instead. Diagnostics (progress, which model, a
// warning) go to stderr through note.
func (c *Common) Said(format string, args ...any) {
	if c.JSON {
		return
	}
	fmt.Fprintf(c.IO.Out, format+"\n", args...)
}

// Note prints one line of progress or confirmation to stderr; --json keeps
// stderr quiet so that the envelope is all there is to read.
func (c *Common) Note(format string, args ...any) {
	if c.JSON {
		return
	}
	fmt.Fprintf(c.IO.ErrOut, format+"\n", args...)
}

// Envelope is the one JSON object a --json run prints (internal/cli/envelope
// owns it, with the front).
type Envelope = envelope.Envelope

// ErrorBody is a failure in the envelope.
type ErrorBody = envelope.ErrorBody

// WriteEnvelope writes e as one line of JSON.
func WriteEnvelope(w io.Writer, e Envelope) error { return envelope.Write(w, e) }

// orEmpty turns a missing result (nil, or a raw JSON null or nothing) into
// {}, so that "data" is always an object or value a reader can index.
func orEmpty(data any) any {
	switch d := data.(type) {
	case nil:
		return struct{}{}
	case json.RawMessage:
		if s := strings.TrimSpace(string(d)); s == "" || s == "null" {
			return struct{}{}
		}
	}
	return data
}

// timeoutMS turns a --timeout duration into the wire's milliseconds; zero
// stays zero (the daemon's default).
func timeoutMS(d time.Duration) (int, error) {
	if d < 0 {
		return 0, UsageErrorf("", "--timeout must not be negative, got %s", d)
	}
	ms := int(d / time.Millisecond)
	if d > 0 && ms == 0 {
		ms = 1
	}
	return ms, nil
}

// CommandTimeout is a command's --timeout in the wire's milliseconds: the
// flag when given, else [session] timeout from the config, else zero (the
// daemon's default).
func (f *Factory) CommandTimeout(cmd *cobra.Command, flag time.Duration) (int, error) {
	if cmd.Flags().Changed("timeout") {
		return timeoutMS(flag)
	}
	d, err := f.SessionTimeout()
	if err != nil {
		return 0, err
	}
	return timeoutMS(d)
}

// SessionTimeout is [session] timeout of the config (never negative: the
// config refuses that): zero when unset.
func (f *Factory) SessionTimeout() (time.Duration, error) {
	cfg, err := f.ReadConfig()
	if err != nil {
		return 0, err
	}
	return cfg.Session.Timeout, nil
}

// AddTimeoutFlag registers --timeout on cmd.
func AddTimeoutFlag(cmd *cobra.Command, d *time.Duration, what string) {
	cmd.Flags().DurationVar(d, "timeout", 0, "how long to wait for "+what+" (e.g. 10s; unset: [session] timeout of the config file; 0: the built-in default)")
}

// DaemonCalls dials the daemon (starting it) on the first call.
func (c *Common) DaemonCalls() Caller { return DialOnCall{Dial: c.Caller} }
