package build

import (
	"bytes"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/outline"
)

// TestParseRecordings reads back the outlines of the recorded pages with
// outline.ParseLine: every line but the summaries of lines off screen is an
// element line, and every ref's line gives its node's role, name and value.
func TestParseRecordings(t *testing.T) {
	for _, page := range []string{"form", "content", "widgets", "frame"} {
		root := buildRecording(t, page)
		for _, opts := range []outline.RenderOptions{{Full: true}, {}, {Full: true, Interactive: true}} {
			var buf bytes.Buffer
			if _, err := outline.Render(&buf, root, opts); err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			for _, s := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				if _, ok := outline.ParseLine(s); !ok && !strings.HasPrefix(s, "(") {
					t.Errorf("%s %+v: cannot read %q", page, opts, s)
				}
			}
			refs := 0
			root.Walk(func(n *outline.Node, _ int) bool {
				if n.Ref == "" || !strings.Contains(text, "[ref="+n.Ref+"]") {
					return true
				}
				refs++
				l, ok := outline.FindRef(text, n.Ref)
				// A cell's name is left out when its child lines say the same.
				nameOK := l.Name == outline.Truncate(n.Name, 100) || l.Name == "" && len(n.Children) > 0
				switch {
				case !ok:
					t.Errorf("%s: no line for ref %s", page, n.Ref)
				case l.Role != n.Role || l.Value != outline.Truncate(n.Value, 100) || !nameOK:
					t.Errorf("%s: ref %s reads as %+v, the node is %s %q value %q", page, n.Ref, l, n.Role, n.Name, n.Value)
				}
				return true
			})
			if refs == 0 {
				t.Errorf("%s: no refs rendered", page)
			}
		}
	}
}
