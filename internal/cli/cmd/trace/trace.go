package trace

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/testplan"
)

// TraceOptions are the flags of `waymark trace start|stop`.
type TraceOptions struct {
	cmdutil.Common
	Op   string // "start" or "stop"
	File string // stop: where the trace goes; show: the HTML file
	From string // show: the JSON trace
}

// NewCmdTrace builds `waymark trace start|stop`.
func NewCmdTrace(f *cmdutil.Factory, runF func(context.Context, *TraceOptions) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace start|stop|show",
		Short: "Trace every command of a session, with screenshots",
		Long: `Trace a session: after waymark trace start, the daemon keeps every command
made on the session (from any process: the CLI, an MCP server, a replay), how it
ended, a screenshot before and after each command that may change the page
(the element acted on outlined in red), and the console messages and requests
of the pages meanwhile. waymark trace stop FILE writes it: FILE.html is one
self-contained page in the format of waymark test's report, any other name a
JSON trace (format waymark.trace/1, screenshots as base64), which waymark
trace show writes as the HTML page later.

Secrets typed into the session (fill --secret) and what looks like a secret
are masked in the trace's text; screenshots black out the fields a secret was
typed into.`,
		Example: "  waymark trace start\n" +
			"  waymark open shop.example && waymark click @e5\n" +
			"  waymark trace stop trace.html",
		Args: cobra.ArbitraryArgs,
		RunE: cmdutil.GroupRunE,
	}
	start, stop := &TraceOptions{Op: "start"}, &TraceOptions{Op: "stop"}
	startCmd, stopCmd := cmdutil.StartStopCommands(f, runF, cmdutil.StartStop[TraceOptions]{
		StartShort: "Start tracing the session",
		StopShort:  "Stop tracing and write the trace to FILE (.html or .json)",
		Start:      start,
		Stop:       stop,
		Common:     func(o *TraceOptions) *cmdutil.Common { return &o.Common },
		File:       func(o *TraceOptions) *string { return &o.File },
		RunStart:   traceStartRun,
		RunStop:    traceStopRun,
	})
	show := &TraceOptions{Op: "show"}
	showCmd := &cobra.Command{
		Use:   "show TRACE.json [FILE.html]",
		Short: "Write a JSON trace as an HTML report (default: beside it, .html)",
		Args:  cmdutil.ArgsRange(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			show.Common = f.Common()
			show.From, show.File = args[0], strings.TrimSuffix(args[0], filepath.Ext(args[0]))+".html"
			if len(args) == 2 {
				show.File = args[1]
			}
			if runF != nil {
				return runF(cmd.Context(), show)
			}
			return traceShowRun(show)
		},
	}
	cmd.AddCommand(startCmd, stopCmd, showCmd)
	return cmd
}

// traceShowRun writes the JSON trace opts.From as an HTML report.
func traceShowRun(opts *TraceOptions) error {
	data, err := os.ReadFile(opts.From)
	if err != nil {
		return calls.Errorf(calls.ErrBadInput, "give the JSON file "+calls.Cmd("trace stop")+" wrote", "cannot read %s: %v", opts.From, err)
	}
	var tr calls.Trace
	if err := json.Unmarshal(data, &tr); err != nil || tr.Format != calls.TraceFormat {
		return calls.Errorf(calls.ErrBadInput, "give the JSON file "+calls.Cmd("trace stop")+" wrote", "%s is not a trace (format %s)", opts.From, calls.TraceFormat)
	}
	path, err := filepath.Abs(opts.File)
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := testplan.TraceHTML(&b, &tr); err != nil {
		return err
	}
	// A trace's pages are the session's, as a state file is: 0600.
	if err := cmdutil.WriteFileAtomic(path, []byte(b.String()), 0o600); err != nil {
		return calls.Errorf(calls.ErrBadInput, "give a path you can write", "cannot write %s: %v", opts.File, err)
	}
	return opts.Emit(map[string]string{"file": path}, func() error {
		_, err := opts.IO.Out.Write([]byte(path + "\n"))
		return err
	})
}

func traceStartRun(ctx context.Context, opts *TraceOptions) error {
	res, err := opts.Remote().TraceStart(ctx)
	if err != nil {
		return err
	}
	return opts.Emit(res, func() error {
		opts.Note("tracing session %q until waymark trace stop FILE", opts.Session)
		return nil
	})
}

// traceStopJSON is the data of `trace stop --json`.
type traceStopJSON struct {
	File   string `json:"file"`
	Calls  int    `json:"calls"`
	Failed int    `json:"failed"`
}

func traceStopRun(ctx context.Context, opts *TraceOptions) error {
	path, err := filepath.Abs(opts.File)
	if err != nil {
		return err
	}
	// The file is made first: a trace that cannot be written is not
	// stopped (and lost).
	// 0600 like a state file: a trace holds the session's pages, its
	// console and its requests. An older file's mode is narrowed too.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err == nil {
		if err = f.Chmod(0o600); err != nil {
			f.Close()
		}
	}
	if err != nil {
		return calls.Errorf(calls.ErrBadInput, "give a path you can write; the session is still traced: "+calls.Cmd("trace stop OTHER.html"),
			"cannot write %s: %v", opts.File, err)
	}
	tr, err := opts.Remote().TraceStop(ctx)
	if err != nil {
		f.Close()
		_ = os.Remove(path)
		return err
	}
	w := bufio.NewWriter(f)
	if strings.EqualFold(filepath.Ext(path), ".html") || strings.EqualFold(filepath.Ext(path), ".htm") {
		err = testplan.TraceHTML(w, tr)
	} else {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err = enc.Encode(tr)
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return calls.Errorf(calls.ErrBadInput, "give a path you can write", "cannot write %s: %v", opts.File, err)
	}
	data := traceStopJSON{File: path, Calls: len(tr.Entries)}
	for _, e := range tr.Entries {
		if !e.OK {
			data.Failed++
		}
	}
	return opts.Emit(data, func() error {
		opts.Note("traced %s of session %q (%d failed)", cmdutil.Count(data.Calls, "command"), opts.Session, data.Failed)
		_, err := opts.IO.Out.Write([]byte(path + "\n"))
		return err
	})
}
