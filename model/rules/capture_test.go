//go:build capture

package rules

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo"
)

// TestCapture writes testdata/outlines again from the demo shop and
// testdata/pages, each page looked at in a fresh session so its refs start
// at e1: go test -tags capture -run TestCapture ./model/rules/. It writes
// only the outlines missing, unless CAPTURE_AGAIN is set; check the refs of
// testdata/instructions.json after.
func TestCapture(t *testing.T) {
	defer drivertest.CloseDriver()
	site := httptest.NewServer(demo.New(nil))
	defer site.Close()
	own := httptest.NewServer(http.FileServer(http.Dir("testdata/pages")))
	defer own.Close()
	pages := map[string]string{
		"demo-home": site.URL + "/", "demo-login": site.URL + "/login", "demo-products": site.URL + "/products",
		"demo-product": site.URL + "/products/1", "demo-checkout": site.URL + "/checkout", "demo-modal": site.URL + "/modal",
		"demo-alert": site.URL + "/alert", "demo-drag": site.URL + "/drag", "demo-upload": site.URL + "/upload",
		"own-users": own.URL + "/users.html", "own-pricing": own.URL + "/pricing.html", "own-settings": own.URL + "/settings.html", "own-search": own.URL + "/search.html",
	}
	// Saved real-world pages, when the shared corpus is beside the
	// repository (their outlines are kept; the pages are not ours).
	web := httptest.NewServer(http.FileServer(http.Dir("../../../../shared/corpus/web")))
	defer web.Close()
	for _, name := range []string{"gitlab-blog", "mozilla-2", "wikipedia-4", "ietf-1", "heise"} {
		if _, err := os.Stat("../../../../shared/corpus/web/" + name + ".html"); err == nil {
			pages["web-"+name] = web.URL + "/" + name + ".html"
		}
	}
	for name, u := range pages {
		file := filepath.Join("testdata", "outlines", name+".txt")
		if _, err := os.Stat(file); err == nil && os.Getenv("CAPTURE_AGAIN") == "" {
			continue // kept: the refs of instructions.json name its lines
		}
		s, ctx := drivertest.Session(t, name, 60*time.Second)
		if _, err := s.Open(ctx, calls.OpenRequest{URL: u}); err != nil {
			t.Logf("%s: %v", name, err)
			continue
		}
		snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true, Full: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(snap.Text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
