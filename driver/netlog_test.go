package driver_test

import (
	"context"
	"io"
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
	"github.com/waymark-dev/waymark/netlog"
)

// TestLaunchWritesNetLog: a browser started with Options.NetLog writes a
// NetLog in the Default capture mode, readable while it runs and whole
// once it closed, and the page it opened is in it.
func TestLaunchWritesNetLog(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<title>Logged</title>`)
	}))
	defer srv.Close()

	logPath := filepath.Join(t.TempDir(), "net.json")
	b, err := driver.Launch(ctx, driver.Options{ExecPath: path, Args: browsertest.GuardArgs, NetLog: logPath})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.NetLog() != logPath {
		t.Errorf("NetLog() = %q", b.NetLog())
	}
	s, err := b.Session(ctx, "n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/logged?k=v1234"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := netlog.Summarize(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.CaptureMode != "Default" {
		t.Errorf("capture mode %q, want Default", sum.CaptureMode)
	}
	found := false
	for _, r := range sum.Requests {
		if strings.HasPrefix(r.URL, srv.URL+"/logged") {
			found = r.Status == 200 && r.URL == srv.URL+"/logged?k"
		}
	}
	if !found {
		t.Errorf("no 200 for the page in the NetLog:\n%s", sum.Markdown())
	}
	if sum.Truncated {
		t.Error("the log of a browser that closed is cut short")
	}
}
