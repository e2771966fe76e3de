package iostreams

import (
	"bytes"
	"fmt"
	"testing"
)

// TestATerminalGetsNoControlCharacters: on a terminal a page's escape
// sequences, bell, carriage return and C1 controls (raw or in UTF-8) are
// written as visible escapes, also when a write ends between the two bytes
// of a C1 control; line breaks, tabs and other text pass unchanged; a pipe
// gets every byte.
func TestATerminalGetsNoControlCharacters(t *testing.T) {
	page := "Go\x1b[2J\x1b]52;c;aGk=\x07\r\u009bx\x7f\tcafé ½\n"
	want := `Go\x1b[2J\x1b]52;c;aGk=\x07\x0d\x9bx\x7f` + "\tcafé ½\n"

	s, _, out, _ := Test()
	s.SetStdoutTTY(true)
	fmt.Fprint(s.Out, page)
	if out.String() != want {
		t.Errorf("terminal got %q, want %q", out.String(), want)
	}

	out.Reset()
	b := []byte(page)
	split := bytes.Index(b, []byte("\u009b")) + 1 // between 0xC2 and 0x9B
	s.Out.Write(b[:split])
	s.Out.Write(b[split:])
	if out.String() != want {
		t.Errorf("split write got %q, want %q", out.String(), want)
	}

	out.Reset()
	s.SetStdoutTTY(false)
	fmt.Fprint(s.Out, page)
	if out.String() != page {
		t.Errorf("a pipe got %q, want the bytes %q", out.String(), page)
	}
}
