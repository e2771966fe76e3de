// Command waymark-front is the thin front installed as "waymark": a small
// program that starts in about a millisecond and has the resident daemon
// run the command, where the whole CLI is already loaded. A Go program runs
// the init of every package it links before main, and the complete CLI
// (cmd/waymark, installed beside the front as "waymark-full") links them
// all: 7 ms and more before it does anything, on each of an agent's
// commands (issue 15).
//
// The front knows no command. It sends its command line, environment,
// working folder and which of its streams are terminals to the daemon
// (rpc.MethodCLIRun); the daemon runs internal/cli as waymark-full would
// have, or, for a command that must run in the calling process (it reads
// stdin or files, starts the daemon, …: internal/cli decides), answers that
// it did not. The front then replaces itself with waymark-full, with the
// same arguments and environment, as it does when no daemon answers or the
// daemon was started by another waymark-full than the one beside it; that
// starts or restarts the daemon as the complete CLI always has.
package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/waymark-dev/waymark/internal/cli/envelope"
)

// fullName is the complete CLI's file name beside the front.
const fullName = "waymark-full"

func main() {
	// One thread runs Go code: the front mostly waits for the daemon, and on
	// a busy machine the runtime spinning up threads to look for work costs
	// more than it saves (measured: ~1 ms of a 5 ms command at load 12).
	runtime.GOMAXPROCS(1)
	os.Exit(run(os.Args[1:]))
}

// run runs the command of args and returns its exit status; a command
// waymark-full runs does not return.
func run(args []string) int {
	full, err := findFull()
	if err != nil {
		return fail(args, envelope.ExitUsage, "usage", err.Error(),
			`build both binaries: "make build" (bin/waymark and bin/waymark-full), or "go install ./cmd/..."`)
	}
	if code, ok := runInDaemon(full, args); ok {
		return code
	}
	return runFull(full, args)
}

// findFull finds waymark-full beside the front's own executable (symbolic
// links resolved). A front installed by "go install ./cmd/..." is named
// waymark-front and finds the complete CLI named waymark.
func findFull() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	dir, self := filepath.Dir(exe), filepath.Base(exe)
	ext := ""
	if runtime.GOOS == "windows" {
		ext = ".exe"
	}
	want := filepath.Join(dir, fullName+ext)
	names := []string{want}
	if self != "waymark"+ext {
		names = append(names, filepath.Join(dir, "waymark"+ext))
	}
	for _, p := range names {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", &missingError{want}
}

type missingError struct{ path string }

func (e *missingError) Error() string {
	return "no " + e.path + ": waymark is two programs, this small front and the complete CLI beside it"
}

// fail reports an error of the front itself as internal/cli reports one,
// through the same internal/cli/envelope: "error: …" and "hint: …" on
// stderr, or with --json the envelope on stdout.
func fail(args []string, code int, kind, msg, hint string) int {
	return failTo(os.Stdout, os.Stderr, args, code, kind, msg, hint)
}

func failTo(stdout, stderr io.Writer, args []string, code int, kind, msg, hint string) int {
	envelope.PrintError(stdout, stderr, envelope.WantsJSON(args), false, envelope.ErrorBody{Code: kind, Message: msg, Hint: hint}, nil)
	return code
}
