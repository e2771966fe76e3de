package build

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/internal/outline"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestGolden builds and renders each recorded page in several modes and
// compares the output to testdata/<page>.<mode>.golden.
func TestGolden(t *testing.T) {
	modes := []struct {
		name string
		opts outline.RenderOptions
	}{
		{"full", outline.RenderOptions{Full: true}},
		{"viewport", outline.RenderOptions{}},
		{"interactive", outline.RenderOptions{Full: true, Interactive: true}},
		{"compact", outline.RenderOptions{Full: true, Compact: true}},
	}
	for _, page := range []string{"form", "content", "widgets", "frame"} {
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			rec := loadRecording(t, page)
			root, err := Outline(rec.Snapshot, Options{Ref: testRef, Viewport: rec.Viewport})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range modes {
				var buf bytes.Buffer
				if _, err := outline.Render(&buf, root, m.opts); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", page+"."+m.name+".golden")
				if *update {
					if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if diff := cmp.Diff(string(want), buf.String()); diff != "" {
					t.Errorf("%s %s (-want +got):\n%s", page, m.name, diff)
				}
			}
		})
	}
}
