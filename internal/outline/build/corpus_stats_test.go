package build

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/outline"
)

// TestCorpusStats counts, on the saved real-world pages, the elements with
// refs, those a reader has no name for (neither the page's own nor an
// inferred one), and the size of the interactive and the default (viewport)
// outline. It measures rather than checks: set WAYMARK_CORPUS_STATS=1.
func TestCorpusStats(t *testing.T) {
	if os.Getenv("WAYMARK_CORPUS_STATS") == "" {
		t.Skip("set WAYMARK_CORPUS_STATS=1 to measure the corpus")
	}
	pages, _ := filepath.Glob(filepath.Join(corpusDir, "*.html"))
	if len(pages) == 0 {
		t.Skip("no corpus in " + corpusDir)
	}
	ts := testServer(t)
	var mu sync.Mutex
	var refs, unnamed, inferredN, clickable, iChars, vChars, fChars int
	t.Run("pages", func(t *testing.T) {
		for _, p := range pages {
			name := strings.TrimSuffix(filepath.Base(p), ".html")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				ctx := browsertest.Tab(t)
				if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/corpus/"+filepath.Base(p))); err != nil {
					t.Fatal(err)
				}
				rec, err := capture(ctx)
				if err != nil {
					t.Fatal(err)
				}
				root, err := Outline(rec.Snapshot, Options{Ref: testRef, Viewport: rec.Viewport})
				if err != nil {
					t.Fatal(err)
				}
				var r, u, inf, cl int
				root.Walk(func(n *outline.Node, _ int) bool {
					if n.Ref == "" || n.Role == "iframe" {
						return true
					}
					r++
					if n.Role == "clickable" {
						cl++
					}
					if n.Name == "" {
						if inferredName(n) != "" {
							inf++
						} else {
							u++
						}
						if os.Getenv("WAYMARK_CORPUS_STATS") == "v" {
							t.Logf("  %s ~%q <%s> %v", n.Role, inferredName(n), n.Tag, n.Attrs)
						}
					}
					return true
				})
				var bi, bv, bf strings.Builder
				outline.Render(&bi, root, outline.RenderOptions{Interactive: true, Full: true, Viewport: rec.Viewport})
				outline.Render(&bv, root, outline.RenderOptions{Viewport: rec.Viewport})
				outline.Render(&bf, root, outline.RenderOptions{Full: true, Viewport: rec.Viewport})
				t.Logf("%s: refs %d, clickable %d, unnamed %d, inferred %d, interactive %d chars, viewport %d chars, full %d chars", name, r, cl, u, inf, bi.Len(), bv.Len(), bf.Len())
				mu.Lock()
				refs += r
				unnamed += u
				inferredN += inf
				clickable += cl
				iChars += bi.Len()
				vChars += bv.Len()
				fChars += bf.Len()
				mu.Unlock()
			})
		}
	})
	t.Logf("corpus (%d pages): refs %d, clickable %d, unnamed %d, inferred %d; interactive %d chars (~%d tokens), viewport %d chars (~%d tokens), full %d chars (~%d tokens)",
		len(pages), refs, clickable, unnamed, inferredN, iChars, iChars/4, vChars, vChars/4, fChars, fChars/4)
}
