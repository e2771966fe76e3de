//go:build !unix

package main

import (
	"errors"
	"os"
	"os/exec"

	"github.com/waymark-dev/waymark/internal/cli/envelope"
)

// runInDaemon never runs a command here: the front speaks to the daemon's
// Unix socket only on Unix, and elsewhere only hands over to waymark-full.
func runInDaemon(string, []string) (int, bool) { return 0, false }

// runFull runs waymark-full with the front's arguments, streams and
// environment, and returns its exit status.
func runFull(full string, args []string) int {
	cmd := exec.Command(full, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return fail(args, envelope.ExitUnavailable, "unavailable", "run "+full+": "+err.Error(), "")
}
