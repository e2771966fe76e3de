// Package iostreams holds the standard streams of a CLI run and whether each
// is a terminal, so commands can print for people on a TTY and stable,
// tab-separated text otherwise, and tests can swap in buffers.
package iostreams

import (
	"bytes"
	"io"
	"os"
)

// IOStreams are the streams a command reads and writes. Commands never touch
// os.Stdin, os.Stdout or os.Stderr directly.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer // data: what a script or agent reads
	ErrOut io.Writer // progress, confirmations and errors

	stdinTTY, stdoutTTY, stderrTTY bool
	noColor                        bool // NO_COLOR is set, or TERM is dumb
}

// System wraps the process's streams, detecting which of them are terminals.
func System(in io.Reader, out, errOut io.Writer) *IOStreams {
	return New(in, out, errOut, Terminals{Stdin: IsTerminal(in), Stdout: IsTerminal(out), Stderr: IsTerminal(errOut)}, os.Getenv)
}

// Terminals says which of a process's standard streams are terminals.
type Terminals struct{ Stdin, Stdout, Stderr bool }

// New wraps streams that stand for another process's (a command the daemon
// runs for the thin front writes into buffers the front prints): tty says
// which of that process's streams are terminals, and getenv is its
// environment, where NO_COLOR and TERM are read.
func New(in io.Reader, out, errOut io.Writer, tty Terminals, getenv func(string) string) *IOStreams {
	s := &IOStreams{
		In:        in,
		Out:       out,
		ErrOut:    errOut,
		stdinTTY:  tty.Stdin,
		stderrTTY: tty.Stderr,
		noColor:   noColor(getenv),
	}
	s.SetStdoutTTY(tty.Stdout)
	return s
}

// noColor reports whether the environment asks for no colour: NO_COLOR
// set to anything (no-color.org), or a dumb terminal.
func noColor(getenv func(string) string) bool {
	return getenv("NO_COLOR") != "" || getenv("TERM") == "dumb"
}

// ColorStderr reports whether stderr may be coloured: a terminal, and
// the environment does not ask for none.
func (s *IOStreams) ColorStderr() bool { return s.stderrTTY && !s.noColor }

// SetNoColor overrides NO_COLOR, for tests.
func (s *IOStreams) SetNoColor(v bool) { s.noColor = v }

// Test returns streams backed by buffers, none of them a terminal, and the
// buffers for stdin, stdout and stderr.
func Test() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// IsStdinTTY reports whether stdin is a terminal.
func (s *IOStreams) IsStdinTTY() bool { return s.stdinTTY }

// IsStdoutTTY reports whether stdout is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether stderr is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// SetStdinTTY overrides the detection, for tests.
func (s *IOStreams) SetStdinTTY(v bool) { s.stdinTTY = v }

// SetStdoutTTY says whether stdout is a terminal (System detects it; tests
// and a run for another process say so). On a terminal, Out writes a
// page's control characters as visible escapes (see terminalSafe).
func (s *IOStreams) SetStdoutTTY(v bool) {
	s.stdoutTTY = v
	safe, wrapped := s.Out.(*terminalSafe)
	switch {
	case v && !wrapped:
		s.Out = &terminalSafe{w: s.Out}
	case !v && wrapped:
		s.Out = safe.w
	}
}

// SetStderrTTY overrides the detection, for tests.
func (s *IOStreams) SetStderrTTY(v bool) { s.stderrTTY = v }

// IsTerminal reports whether v is an *os.File on a character device. That
// also counts /dev/null, which only makes output a little friendlier there;
// it avoids a dependency on golang.org/x/term for an ioctl.
func IsTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok || f == nil {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	return fi.Mode()&os.ModeCharDevice != 0
}
