package driver_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// fiftyPages is a document of about 50 printed pages (25,000 words):
// 50 sections of a heading, a list and paragraphs.
func fiftyPages() (html, markdown, text string) {
	var h, m, x strings.Builder
	words := strings.Fields("the quarterly numbers show revenue growing in every region while costs fell slightly and the team expects a steady year ahead with new customers")
	para := func(sec, n int) string {
		var b strings.Builder
		for i := 0; i < 95; i++ {
			b.WriteString(words[(sec*7+n*3+i)%len(words)])
			b.WriteByte(' ')
		}
		return fmt.Sprintf("Section %d paragraph %d: %s", sec, n, strings.TrimSpace(b.String()))
	}
	for sec := 1; sec <= 50; sec++ {
		fmt.Fprintf(&h, "<h2>Section %d</h2>", sec)
		fmt.Fprintf(&m, "## Section %d\n\n", sec)
		fmt.Fprintf(&x, "Section %d\n", sec)
		for n := 1; n <= 5; n++ {
			p := para(sec, n)
			fmt.Fprintf(&h, "<p>%s</p>", p)
			fmt.Fprintf(&m, "%s\n\n", p)
			fmt.Fprintf(&x, "%s\n", p)
		}
		fmt.Fprintf(&h, "<ul><li>Item %d.1</li><li>Item %d.2</li></ul>", sec, sec)
		fmt.Fprintf(&m, "- Item %d.1\n- Item %d.2\n\n", sec, sec)
		fmt.Fprintf(&x, "Item %d.1\nItem %d.2\n", sec, sec)
	}
	return h.String(), m.String(), strings.TrimSpace(x.String())
}

// TestDocFiftyPages reads a 50-page document in each editor, exactly, and
// types after words near its end; the times are the README's figures
// (go test -run TestDocFiftyPages -v ./driver/).
func TestDocFiftyPages(t *testing.T) {
	t.Parallel()
	heavy(t)
	if testing.Short() {
		t.Skip("a long document; not in -short")
	}
	html, markdown, text := fiftyPages()
	for _, ed := range []struct {
		name, page string
		content    docContent
		text       string
	}{
		{"quill", "/quill.html", docContent{HTML: html}, text},
		{"prosemirror", "/prosemirror.html", docContent{HTML: html}, text},
		{"easymde", "/easymde.html", docContent{Markdown: markdown}, shape(markdown)},
		{"codemirror6", "/codemirror6.html", docContent{Markdown: markdown}, shape(markdown)},
	} {
		t.Run(ed.name, func(t *testing.T) {
			srv := docServer(t, ed.content, nil)
			s, ctx := newSession(t)
			openDoc(t, s, ctx, srv.URL+ed.page)
			var best time.Duration
			for i := 0; i < 3; i++ {
				start := time.Now()
				doc, err := s.DocRead(ctx, calls.DocReadRequest{})
				d := time.Since(start)
				if err != nil {
					t.Fatal(err)
				}
				if got := shape(doc.Text); got != ed.text {
					t.Fatalf("the read is not exact: %d chars, want %d", len(got), len(ed.text))
				}
				if i == 0 || d < best {
					best = d
				}
			}
			start := time.Now()
			if _, err := s.DocInsert(ctx, calls.DocInsertRequest{After: "Item 49.2", Text: " (checked)"}); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: 50 pages (%d chars): doc read %s (best of 3); insert near the end %s", ed.name, len(ed.text), best.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
			if model := modelText(t, s, ctx); strings.Count(model, "Item 49.2 (checked)") != 1 {
				i := strings.Index(model, "Item 49")
				t.Errorf("the insert did not land once: %q", model[max(0, i-20):min(len(model), i+80)])
			}
		})
	}
}
