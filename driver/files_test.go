package driver_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/policy"
)

// localFile writes an HTML file holding mark and returns its file: URL.
func localFile(t *testing.T, name, mark string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(`<!doctype html><title>Report</title><h1>`+mark+`</h1>`), 0o600); err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(path)
}

// TestFilesRefusedByDefault: a local file is refused with a hint that can
// open it (the setting, or serving the folder), not the allow and block
// lists, which cannot (issue 28, item 6).
func TestFilesRefusedByDefault(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	u := localFile(t, "report.html", "local-report-7f3a")
	_, err := s.Open(ctx, calls.OpenRequest{URL: u})
	if !errors.Is(err, calls.ErrBlockedURL) {
		t.Fatalf("open %s: %v, want blocked", u, err)
	}
	if h := calls.Hint(err); !strings.Contains(h, "files = true in [policy]") || !strings.Contains(h, "python3 -m http.server") {
		t.Errorf("hint %q does not say how to open a local file", h)
	}
}

// TestFilesAllowedOnlyFromFiles starts a browser of its own with files
// allowed (the policy is the browser's): a local file opens, and a page
// from http still never gets one, in an iframe, by fetch, or by sending
// the tab there; the file's mark never shows in the page's outline.
func TestFilesAllowedOnlyFromFiles(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pol, err := policy.New(policy.Options{Files: true})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := guardedSession(t, ctx, path, driver.Options{Args: browsertest.GuardArgs, Policy: pol}, "files")

	const mark = "local-report-7f3a"
	u := localFile(t, "report.html", mark)
	info, err := s.Open(ctx, calls.OpenRequest{URL: u})
	if err != nil || info.Title != "Report" {
		t.Fatalf("open %s with files allowed: %+v %v", u, info, err)
	}
	if snap, err := s.Snapshot(ctx, calls.SnapshotRequest{}); err != nil || !strings.Contains(snap.Text, mark) {
		t.Fatalf("the local file's page: %v\n%v", err, snap)
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/frame":
			w.Write([]byte(`<title>Web</title><iframe src="` + u + `"></iframe><p id=out>waiting</p>` +
				`<script>fetch("` + u + `").then(r => r.text()).then(t => out.textContent = t, e => out.textContent = "fetch failed")</script>`))
		case "/go":
			w.Write([]byte(`<title>Web</title><a id=a href="` + u + `">the report</a>`))
		}
	}))
	defer srv.Close()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/frame"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: "fetch failed"}); err != nil {
		t.Fatalf("the page's fetch of a file did not fail: %v", err)
	}
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	if strings.Contains(snap.Text, mark) {
		t.Fatalf("an http page read the local file:\n%s", snap.Text)
	}

	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/go"}); err != nil {
		t.Fatal(err)
	}
	_, _ = s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=the report"})
	if got, err := s.Get(ctx, calls.GetRequest{What: "url"}); err != nil || strings.HasPrefix(got.Value, "file:") {
		t.Fatalf("an http page's link took the tab to a local file: %v %v", got, err)
	}
	if snap, err := s.Snapshot(ctx, calls.SnapshotRequest{}); err != nil {
		t.Fatalf("snapshot after the link: %v", err)
	} else if strings.Contains(snap.Text, mark) {
		t.Fatalf("an http page's link opened the local file:\n%s", snap.Text)
	}
}
