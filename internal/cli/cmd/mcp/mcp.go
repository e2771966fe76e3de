package mcp

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/pilotflags"
	"github.com/waymark-dev/waymark/internal/mcp"
	"github.com/waymark-dev/waymark/model/rules"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// MCPOptions are the flags of `waymark mcp`.
type MCPOptions struct {
	cmdutil.Common
	HTTP      string // --http: serve streamable HTTP on this loopback address; empty: stdio
	AllowEval bool   // --allow-eval: offer the eval tool
	SiteTools bool   // --site-tools: offer sitemap and api_call
	Apps      bool   // --apps: list the sheet and doc tools from the start
	Model     pilotflags.ModelFlags
	// Vision is --vision: when the page's picture goes with the pilot
	// tools' questions (act, extract, run); empty: [model] vision.
	Vision  string
	Version string
	// AllowCapture (--allow-capture) offers the capture tool.
	AllowCapture bool
	// Timeout bounds each page call that waits: [session] timeout of the
	// config file; zero means the daemon's defaults.
	Timeout time.Duration
	// NamedSession is set when a person named the session (--session,
	// WAYMARK_SESSION, [session] name): every client shares it and it
	// outlives the server. Otherwise each client gets a session of its
	// own, closed when it leaves.
	NamedSession bool
	// Secrets (--secret NAME=env:VAR|file:PATH) are the sign-in routines'
	// secrets (a recipe's relogin), for api_call and replay.
	Secrets []string
}

// NewCmdMCP builds `waymark mcp [--http ADDR] [--allow-eval]`.
func NewCmdMCP(f *cmdutil.Factory, runF func(context.Context, *MCPOptions) error) *cobra.Command {
	opts := &MCPOptions{}
	cmd := &cobra.Command{
		Use:   "mcp [--http ADDR] [--allow-eval]",
		Short: "Serve the browser to an agent over MCP",
		Long: `Serve waymark's browser tools over the Model Context Protocol, on stdin and
stdout (for an agent that starts waymark itself), or with --http on a loopback
address with the streamable HTTP transport (the endpoint is /mcp). The daemon
starts on the first tool call. Each client gets a session of its own, closed
when the client leaves (stdin ends; an HTTP client ends its MCP session or is
silent for 30 minutes); with --session (or WAYMARK_SESSION, [session] name)
every client shares that session and it stays open, and an HTTP client may
name one with /mcp?session=NAME. eval (JavaScript in the page) is offered only
with --allow-eval.

The model's tools come with the model of --model (or the environment, as for
waymark act): act and replay always (with no key, the rules model does plain
instructions), observe, extract and run with a model key or server.

A click or Enter that would send, pay, delete or confirm is put to the person:
a client with elicitation asks them, and it is pressed only if they accept;
with a client that cannot ask, [mcp] submits of the config file decides: "ask"
(the default) refuses it, "allow" lets it through. The agent cannot approve
it itself. A replay presses the submits the person pressed while recording it
by hand, while the page is as it was then.`,
		Example: "  waymark mcp\n  waymark mcp --http 127.0.0.1:8931 --session agent",
		Args:    cmdutil.ExactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Common = f.Common()
			opts.Version = f.Version
			opts.NamedSession = cmd.Flags().Changed("session") || f.SessionFromConfig || opts.Env()("WAYMARK_SESSION") != ""
			t, err := f.SessionTimeout()
			if err != nil {
				return err
			}
			opts.Timeout = t
			if opts.HTTP != "" {
				if err := mcp.CheckAddr(opts.HTTP); err != nil {
					return cmdutil.UsageErrorf("give a loopback address, e.g. --http 127.0.0.1:8931", "%v", err)
				}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return mcpRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.HTTP, "http", "", "serve streamable HTTP on this loopback address (e.g. 127.0.0.1:8931) instead of stdio")
	cmd.Flags().BoolVar(&opts.AllowEval, "allow-eval", false, "offer the eval tool, which runs JavaScript in the page")
	cmd.Flags().BoolVar(&opts.AllowCapture, "allow-capture", false, "offer the capture tool, which writes the session's network (redacted) to files the client names")
	cmd.Flags().BoolVar(&opts.SiteTools, "site-tools", false, "offer the sitemap and api_call tools, which read a site's page list and its own JSON API without browsing")
	cmd.Flags().StringArrayVar(&opts.Secrets, "secret", nil, "a secret of the sign-in routine a recipe names (relogin), NAME=env:VAR or NAME=file:PATH: typed when api_call or replay signs in again, never shown to the client")
	cmd.Flags().BoolVar(&opts.Apps, "apps", false, "list the spreadsheet and document tools from the start (else they appear once a look finds such an application)")
	cmd.Flags().StringVar(&opts.Model.Model, "model", "", `the model of act, observe, extract and run: "rules" (no key), anthropic:NAME, openai:NAME, or a model name (env WAYMARK_MODEL)`)
	cmd.Flags().StringVar(&opts.Model.BaseURL, "base-url", "", "an OpenAI-compatible server: Ollama, vLLM, llama.cpp, LM Studio (env OPENAI_BASE_URL)")
	cmd.Flags().StringVar(&opts.Vision, "vision", "", `send the model the page's picture with act, extract and run: auto (when the outline is thin for what the view shows), always, or never (default: [model] vision, else auto); only to a model that reads pictures`)
	return cmd
}

func mcpRun(ctx context.Context, opts *MCPOptions) error {
	caller := cmdutil.DialOnCall{Dial: opts.Caller}
	tools, desc, err := mcpPilotTools(caller, opts)
	if err != nil {
		return err
	}
	cfg, err := opts.ReadConfig()
	if err != nil {
		return err
	}
	session := "" // each client its own
	if opts.NamedSession {
		session = opts.Session
	}
	// A sign-in's secrets, from this shell: stdin carries the protocol,
	// so none is typed.
	signIn, err := (&pilotflags.PilotOptions{Common: opts.Common, Secrets: opts.Secrets, ReadSecret: func(name string) (string, error) {
		return "", cmdutil.UsageErrorf("give it as env:VAR or file:PATH", "--secret %s: waymark mcp reads no secret from the terminal", name)
	}}).Vars(opts.Env())
	if err != nil {
		return err
	}
	so := mcp.Options{
		Approvals: approval.Default(opts.Env()),
		Secrets:   signIn.Secrets,
		Caller:    caller,
		Session:   session,
		AllowEval: opts.AllowEval,
		SiteTools: opts.SiteTools,
		Apps:      opts.Apps,
		Submits:   cfg.MCP.Submits,
		Version:   opts.Version,
		Timeout:   opts.Timeout,
		Extra:     []func(*sdk.Server){tools},
	}
	so.AllowCapture = opts.AllowCapture
	if opts.HTTP == "" {
		// stdout carries the protocol: nothing else may be printed there.
		return mcp.ServeIO(ctx, opts.IO.In, opts.IO.Out, so)
	}
	ln, err := mcp.Listen(opts.HTTP)
	if err != nil {
		return err
	}
	who := "a session of its own for each client"
	if session != "" {
		who = fmt.Sprintf("session %q", session)
	}
	fmt.Fprintf(opts.IO.ErrOut, "serving MCP at http://%s/mcp with %s (model: %s); Ctrl-C to stop\n", ln.Addr(), who, desc)
	return mcp.ServeListener(ctx, ln, so)
}

// mcpPilotTools builds the model's tools over the daemon: act and replay
// with any model, observe, extract and run with one other than the rules
// model. Replays heal with the model, unless it is the rules model, which
// cannot. It returns the model's description.
func mcpPilotTools(caller cmdutil.Caller, opts *MCPOptions) (func(*sdk.Server), string, error) {
	getenv := opts.Env()
	m, desc, err := pilotflags.NewModel(opts.Model, opts.ModelConfig(), getenv, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, "", err
	}
	_, isRules := m.(rules.Model)
	heal := m
	if isRules {
		heal = nil
	}
	// --vision, else [model] vision (checked by the loader). It is the
	// server's, not a tool argument: the tool list has no room for one
	// (size_test.go's budget against Playwright MCP's list).
	vision, err := pilot.ParseVision(cmp.Or(opts.Vision, opts.ModelConfig().Vision))
	if err != nil {
		return nil, "", cmdutil.UsageErrorf("write --vision auto, --vision always or --vision never", "bad --vision %q", opts.Vision)
	}
	newPilot := func(_ context.Context, session string) (*pilot.Pilot, error) {
		return pilot.New(calls.Remote{Caller: caller, Session: session}, m, &pilot.Options{Vision: vision}), nil
	}
	mem := opts.MemoryStore() // [memory] dir: notes about sites, shared with the CLI's replays
	replayer := func(ctx context.Context, session string, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		o.Model, o.Memory = heal, mem
		s := calls.Remote{Caller: caller, Session: session}
		o.Sheet = pilotflags.SheetAtStep(s)
		return replay.Run(ctx, s, r, o)
	}
	sheetOf := func(ctx context.Context, session string) (pilot.SheetDump, error) {
		return pilotflags.SheetDumpOf(ctx, calls.Remote{Caller: caller, Session: session})
	}
	return mcp.PilotTools(newPilot, replayer, mcp.PilotOptions{Session: opts.Session, ActOnly: isRules, Sheet: sheetOf,
		Approvals: approval.Default(getenv)}), desc, nil
}
