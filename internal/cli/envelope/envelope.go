// Package envelope is what waymark's output promises a program, kept where
// both binaries link it: the exit statuses, the one JSON object a --json
// run prints, and the "error:" and "hint:" lines otherwise.
//
// The front (cmd/waymark-front) starts on every command and may link
// neither cobra nor the rest of the CLI, yet its own failures (no
// waymark-full beside it, a daemon that does not answer) must read as the
// CLI's do. It reports them through this package, as internal/cli/cmdutil
// reports every command's: one owner, and nothing to keep in step. It
// imports only the standard library's encoding/json, fmt and io.
package envelope

import (
	"encoding/json"
	"fmt"
	"io"
)

// Exit statuses. internal/cli/cmdutil decides which one an error gets
// (cmdutil.ExitCode); replay and drift add their own above these.
const (
	ExitOK          = 0
	ExitFailed      = 1   // what failed on the page
	ExitUsage       = 2   // what the user gave is wrong: a flag, a URL, a file, the configuration, no model
	ExitUnavailable = 3   // no browser, daemon or model server to run it on
	ExitCanceled    = 130 // interrupted (128 + SIGINT, as shells report it)
)

// Envelope is the one JSON object a --json run prints.
type Envelope struct {
	OK    bool       `json:"ok"`
	Data  any        `json:"data,omitempty"`
	Error *ErrorBody `json:"error,omitempty"`
}

// ErrorBody is a failure as a program reads it: a code from the table of
// codes (docs/json.md), the message, and what to do next.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// Write writes e as one line of JSON.
func Write(w io.Writer, e Envelope) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // URLs and selectors read better without \u0026
	return enc.Encode(e)
}

// PrintError reports a failure: with jsonOut as the envelope on stdout
// (data, when not nil, as its data: what the command did or read before it
// failed), otherwise as "error:" and "hint:" lines on stderr, the labels
// coloured when color is set.
func PrintError(stdout, stderr io.Writer, jsonOut, color bool, body ErrorBody, data any) {
	if jsonOut {
		_ = Write(stdout, Envelope{Data: data, Error: &body})
		return
	}
	label, hintLabel := "error:", "hint:"
	if color { // a terminal that takes colour: the labels stand out
		label, hintLabel = "\x1b[1;31merror:\x1b[0m", "\x1b[33mhint:\x1b[0m"
	}
	fmt.Fprintf(stderr, "%s %s\n", label, body.Message)
	if body.Hint != "" {
		fmt.Fprintf(stderr, "%s %s\n", hintLabel, body.Hint)
	}
}

// WantsJSON reports whether --json is among the flags of args (before a
// "--"): how a failure is reported before, or without, the flags' parse.
func WantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" || a == "--json=true" {
			return true
		}
	}
	return false
}
