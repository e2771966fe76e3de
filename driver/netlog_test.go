package driver_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
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
	"github.com/waymark-dev/waymark/policy"
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
	opened := time.Now()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/logged?k=v1234"}); err != nil {
		t.Fatal(err)
	}
	// At once: the load's last events, which Chromium writes in batches,
	// are in the summary (the request ended, with its total time).
	asked := time.Now()
	res, err := s.NetLog(ctx, calls.NetLogRequest{SinceUnixMS: opened.UnixMilli()})
	if err != nil {
		t.Fatalf("NetLog: %v", err)
	}
	t.Logf("NetLog (flush and summary) took %s", time.Since(asked))
	var sum0 netlog.Summary
	if err := json.Unmarshal(res.Summary, &sum0); err != nil {
		t.Fatal(err)
	}
	ended := false
	for _, r := range sum0.Requests {
		if r.URL == srv.URL+"/logged?k" && r.Status == 200 && r.Timing.TotalMS != nil {
			ended = true
		}
	}
	if !ended {
		t.Errorf("the page's request has not ended in the summary:\n%s", res.Markdown)
	}
	// Asked again over the same span, the summary holds the page's
	// request and not the first call's own flush (a request to port 1
	// that Chromium refuses, whose masked URL a brief would name as the
	// span's failure): the replay asks for a step's span, then the
	// eval or a person for the whole run's, and a daemon's sessions ask
	// over spans that cross.
	res, err = s.NetLog(ctx, calls.NetLogRequest{SinceUnixMS: opened.UnixMilli()})
	if err != nil {
		t.Fatalf("NetLog: %v", err)
	}
	if res.Brief != "" || strings.Contains(res.Markdown, "127.0.0.1:1/") {
		t.Errorf("a second summary of a span with no failure: brief %q, markdown:\n%s", res.Brief, res.Markdown)
	}
	// While the browser runs: the span of a failed open, with the failure's
	// last events (which Chromium may still hold in memory) flushed.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/down"
	ln.Close()
	since := time.Now()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: refused}); err == nil {
		t.Fatal("open of a refused port: no error")
	}
	res, err = s.NetLog(ctx, calls.NetLogRequest{SinceUnixMS: since.UnixMilli()})
	if err != nil {
		t.Fatalf("NetLog: %v", err)
	}
	if want := "GET " + refused + ": ERR_CONNECTION_REFUSED connecting"; !strings.HasPrefix(res.Brief, want) {
		t.Errorf("Brief %q, want %q", res.Brief, want)
	}
	if strings.Contains(res.Markdown, "/logged") || strings.Contains(res.Markdown, "waymark-netlog-flush") {
		t.Errorf("the summary holds requests outside the span:\n%s", res.Markdown)
	}
	if res.File != logPath {
		t.Errorf("file %q", res.File)
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

// TestNetLogFlushUnderAStrictPolicy: the NetLog's flush (a request to port
// 1 of loopback) works under a policy that refuses loopback: the new-tab
// guard lets it go, and the machine refuses it.
func TestNetLogFlushUnderAStrictPolicy(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pol, err := policy.New(policy.Options{PrivateNetwork: policy.AccessNone})
	if err != nil {
		t.Fatal(err)
	}
	b, err := driver.Launch(ctx, driver.Options{ExecPath: path, Args: browsertest.GuardArgs, Policy: pol, NetLog: filepath.Join(t.TempDir(), "net.json")})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "strict")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.NetLog(ctx, calls.NetLogRequest{}); err != nil {
		t.Fatalf("NetLog under a policy that refuses loopback: %v", err)
	}
}
