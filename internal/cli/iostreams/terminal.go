package iostreams

import (
	"fmt"
	"io"
)

// terminalSafe is stdout when it is a terminal. Much of what waymark
// prints there is text a page wrote (an outline's text, `get text`, a
// document, a cell, an eval's value), and a terminal acts on control
// characters: an escape sequence a page put in its text could clear or
// retitle the terminal, recolour what follows, or write the clipboard
// (OSC 52). terminalSafe writes every control character but a line break
// and a tab as a visible escape (\x1b, \x9b), C1 controls in their UTF-8
// form included. Waymark writes no escape sequence of its own to stdout
// (colour goes to stderr), and a pipe or file gets the bytes unchanged.
type terminalSafe struct {
	w       io.Writer
	pending bool // the last write ended in 0xC2, the first byte of a C1 control's UTF-8 form
}

func (t *terminalSafe) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p)+8)
	for i := 0; i < len(p); i++ {
		c := p[i]
		if t.pending {
			t.pending = false
			if c >= 0x80 && c <= 0x9f {
				out = fmt.Appendf(out, `\x%02x`, c)
				continue
			}
			out = append(out, 0xc2)
		}
		switch {
		case c == 0xc2 && i+1 == len(p):
			t.pending = true
		case c == 0xc2 && p[i+1] >= 0x80 && p[i+1] <= 0x9f:
			out = fmt.Appendf(out, `\x%02x`, p[i+1])
			i++
		case (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f:
			out = fmt.Appendf(out, `\x%02x`, c)
		default:
			out = append(out, c)
		}
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
