package build

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/domsnapshot"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/outline"
)

// recording is what testdata/*.json holds: one captureSnapshot result and the
// viewport it was taken with.
type recording struct {
	URL      string                             `json:"url"`
	Viewport outline.Rect                       `json:"viewport"`
	Snapshot *domsnapshot.CaptureSnapshotResult `json:"snapshot"`
}

// capture takes a snapshot of the page loaded in ctx, with its viewport.
func capture(ctx context.Context) (*recording, error) {
	return chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (*recording, error) {
		snap, err := cdp.Call(ctx, t, domsnapshot.CaptureSnapshot, Params())
		if err != nil {
			return nil, err
		}
		m, err := cdp.Call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		v := m.CSSVisualViewport
		return &recording{
			Viewport: outline.Rect{X: v.PageX, Y: v.PageY, W: v.ClientWidth, H: v.ClientHeight},
			Snapshot: &snap,
		}, nil
	})
}

// testServer serves testdata/pages and the pages of the shared corpus. A
// Content-Security-Policy keeps the pages from reaching beyond loopback, so a
// page with links to the web loads as fast as without network.
func testServer(t testing.TB) *httptest.Server {
	mux := http.NewServeMux()
	mux.Handle("/pages/", http.StripPrefix("/pages/", http.FileServer(http.Dir("testdata/pages"))))
	mux.Handle("/corpus/", http.StripPrefix("/corpus/", http.FileServer(http.Dir(corpusDir))))
	mux.HandleFunc("/big.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(bigPage(bigRows))
	})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self' 'unsafe-inline' data:")
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// corpusDir is the saved real-world pages in the team's shared folder,
// which sits beside the repository (../shared from its root), here and in CI.
var corpusDir = func() string {
	if d := os.Getenv("WAYMARK_CORPUS"); d != "" {
		return d
	}
	dir, _ := os.Getwd()
	for d := dir; d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(d), "shared", "corpus", "web")
		}
	}
	return "/work/shared/corpus/web"
}()

// TestRecord refreshes testdata/*.json from testdata/pages/*.html and the
// generated big page with a real Chromium. It runs only with WAYMARK_RECORD=1.
func TestRecord(t *testing.T) {
	if os.Getenv("WAYMARK_RECORD") != "1" {
		t.Skip("set WAYMARK_RECORD=1 to record testdata/*.json")
	}
	ts := testServer(t)
	pages, err := filepath.Glob("testdata/pages/*.html")
	if err != nil {
		t.Fatal(err)
	}
	urls := map[string]string{"big": ts.URL + "/big.html"}
	for _, p := range pages {
		name := strings.TrimSuffix(filepath.Base(p), ".html")
		if strings.HasSuffix(name, "-child") {
			continue // loaded by its parent page
		}
		urls[name] = ts.URL + "/pages/" + filepath.Base(p)
	}
	for name, u := range urls {
		t.Run(name, func(t *testing.T) {
			ctx := browsertest.Tab(t)
			if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
				t.Fatal(err)
			}
			rec, err := capture(ctx)
			if err != nil {
				t.Fatal(err)
			}
			rec.URL = strings.TrimPrefix(u, ts.URL)
			b, err := jsonv2.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".json")
			if len(b) > 100<<10 {
				// Big recordings are kept compressed.
				var z bytes.Buffer
				zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
				zw.Write(b)
				zw.Close()
				b, path = z.Bytes(), path+".gz"
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes", name, len(b))
		})
	}
}

// loadRecording reads testdata/name.json.
func loadRecording(t testing.TB, name string) *recording {
	t.Helper()
	path := filepath.Join("testdata", name+".json")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		b, err = readGzip(path + ".gz")
	}
	if err != nil {
		t.Fatal(err)
	}
	var rec recording
	if err := jsonv2.Unmarshal(b, &rec); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &rec
}

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}
