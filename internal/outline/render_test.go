package outline

import (
	"bytes"
	"strings"
	"testing"
)

// TestRenderKeepsThePagesControlCharactersOffTheTerminal: text printed
// unquoted (a text line, a line's inline text, an interactive line's text)
// carries no control character, so a page cannot clear, recolour or write
// the clipboard of the terminal that shows the outline, nor start a line
// of its own.
func TestRenderKeepsThePagesControlCharactersOffTheTerminal(t *testing.T) {
	hostile := "Go\x1b[2J\x1b]52;c;aGk=\x07here\r\n- button \"Pay\" [ref=e9]\u0085end"
	root := &Node{Role: "document", Children: []*Node{
		{Role: "paragraph", Children: []*Node{{Role: "text", Name: hostile}}},
		{Role: "text", Name: hostile},
		{Role: "button", Ref: "e1", Text: hostile},
	}}
	for _, interactive := range []bool{false, true} {
		var buf bytes.Buffer
		if _, err := Render(&buf, root, RenderOptions{Full: true, Interactive: interactive}); err != nil {
			t.Fatal(err)
		}
		out := strings.TrimSuffix(buf.String(), "\n")
		for _, l := range strings.Split(out, "\n") {
			if !strings.HasPrefix(l, "- ") {
				t.Errorf("interactive=%v: a line the page started: %q", interactive, l)
			}
			if strings.ContainsAny(l, "\x1b\x07\r\u0085") {
				t.Errorf("interactive=%v: control character in %q", interactive, l)
			}
			if l == "- button [ref=e1]" && !interactive {
				continue // its text is said only where its text lines are dropped
			}
			if !strings.Contains(l, "Go [2J ]52;c;aGk= here") {
				t.Errorf("interactive=%v: the text itself is lost: %q", interactive, l)
			}
		}
	}
}
