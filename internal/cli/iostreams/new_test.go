package iostreams

import (
	"bytes"
	"strings"
	"testing"
)

// Streams that stand for another process's (the thin front's, in the
// daemon) take that process's terminals and environment: its stdout on a
// terminal gets a page's control characters as visible escapes, as the
// process's own streams would, and its NO_COLOR turns colour off.
func TestNewTakesTheOtherProcess(t *testing.T) {
	var out, errOut bytes.Buffer
	env := map[string]string{"NO_COLOR": "1"}
	s := New(strings.NewReader(""), &out, &errOut, Terminals{Stdout: true, Stderr: true}, func(k string) string { return env[k] })
	if !s.IsStdoutTTY() || !s.IsStderrTTY() || s.IsStdinTTY() {
		t.Errorf("terminals: stdin %v stdout %v stderr %v", s.IsStdinTTY(), s.IsStdoutTTY(), s.IsStderrTTY())
	}
	s.Out.Write([]byte("a\x1b[2Jb\n"))
	if got := out.String(); got != `a\x1b[2Jb`+"\n" {
		t.Errorf("stdout on the other process's terminal got %q", got)
	}
	if s.ColorStderr() {
		t.Error("colour on stderr with the other process's NO_COLOR set")
	}
	if !New(nil, &out, &errOut, Terminals{Stderr: true}, func(string) string { return "" }).ColorStderr() {
		t.Error("no colour on the other process's terminal")
	}
}
