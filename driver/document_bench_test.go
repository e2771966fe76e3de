package driver_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// longDoc is a document of about n printed pages (500 words a page): n
// sections of a heading, a list and paragraphs.
func longDoc(pages int) (html, markdown, text string) {
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
	for sec := 1; sec <= pages; sec++ {
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

// longDocEditors are the four editors with a long document of pages
// pages loaded, and the text each one's read must give.
func longDocEditors(pages int) []struct {
	name, page string
	content    docContent
	text       string
} {
	html, markdown, text := longDoc(pages)
	return []struct {
		name, page string
		content    docContent
		text       string
	}{
		{"quill", "/quill.html", docContent{HTML: html}, text},
		{"prosemirror", "/prosemirror.html", docContent{HTML: html}, text},
		{"easymde", "/easymde.html", docContent{Markdown: markdown}, shape(markdown)},
		{"codemirror6", "/codemirror6.html", docContent{Markdown: markdown}, shape(markdown)},
	}
}

// TestDocLongDocument reads a long document in each editor, exactly, and
// types after words near its end, once. Ten pages (30,000 characters,
// about 300 lines drawn) are many screens past the view and past
// CodeMirror's drawn margin, so EasyMDE and CodeMirror 6, which draw only
// the lines near the view, must be read and scrolled beyond what they
// drew: what the 50 pages of BenchmarkDocFiftyPages prove, at a fifth of
// the browser's work (the 50 pages took 71 s of make test's driver run).
func TestDocLongDocument(t *testing.T) {
	t.Parallel()
	heavy(t)
	if testing.Short() {
		t.Skip("a long document; not in -short")
	}
	const pages = 10
	last := fmt.Sprintf("Item %d.2", pages-1)
	for _, ed := range longDocEditors(pages) {
		t.Run(ed.name, func(t *testing.T) {
			srv := docServer(t, ed.content, nil)
			s, ctx := newSession(t)
			openDoc(t, s, ctx, srv.URL+ed.page)
			doc, err := s.DocRead(ctx, calls.DocReadRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if got := shape(doc.Text); got != ed.text {
				t.Fatalf("the read is not exact: %d chars, want %d", len(got), len(ed.text))
			}
			if _, err := s.DocInsert(ctx, calls.DocInsertRequest{After: last, Text: " (checked)"}); err != nil {
				t.Fatal(err)
			}
			if model := modelText(t, s, ctx); strings.Count(model, last+" (checked)") != 1 {
				i := strings.Index(model, "Item 9")
				t.Errorf("the insert did not land once: %q", model[max(0, i-20):min(len(model), i+80)])
			}
		})
	}
}

// BenchmarkDocFiftyPages reads a 50-page document in each editor, exactly
// (best of b.N reads), and types after words near its end; the times are
// the README's figures (go test -run XXX -bench DocFiftyPages -benchtime
// 3x -v ./driver/). A benchmark, not a test: make test proves the same on
// ten pages (TestDocLongDocument).
func BenchmarkDocFiftyPages(b *testing.B) {
	for _, ed := range longDocEditors(50) {
		b.Run(ed.name, func(b *testing.B) {
			srv := docServer(b, ed.content, nil)
			s, ctx := drivertest.Session(b, b.Name(), 120*time.Second)
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + ed.page}); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Wait(ctx, calls.WaitRequest{Selector: ".ql-editor, .ProseMirror, .CodeMirror, [contenteditable]"}); err != nil {
				b.Fatal(err)
			}
			var best time.Duration
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				doc, err := s.DocRead(ctx, calls.DocReadRequest{})
				d := time.Since(start)
				if err != nil {
					b.Fatal(err)
				}
				if got := shape(doc.Text); got != ed.text {
					b.Fatalf("the read is not exact: %d chars, want %d", len(got), len(ed.text))
				}
				if i == 0 || d < best {
					best = d
				}
			}
			b.StopTimer()
			start := time.Now()
			if _, err := s.DocInsert(ctx, calls.DocInsertRequest{After: "Item 49.2", Text: " (checked)"}); err != nil {
				b.Fatal(err)
			}
			b.Logf("%s: 50 pages (%d chars): doc read %s (best of %d); insert near the end %s", ed.name, len(ed.text), best.Round(time.Millisecond), b.N, time.Since(start).Round(time.Millisecond))
		})
	}
}
