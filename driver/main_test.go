package driver_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// busyProbeTimeout is how long a page of these tests may keep its renderer
// from answering a probe before the call is abandoned as page_unresponsive:
// here only a hang detector. Their pages are busy on purpose (a 50 MB
// answer, 400 requests at once, a 1000-row sheet, 10,000 page tools) and
// none is stuck but health_test's, which set the product's value back; on
// a loaded machine (a load of 30 on 2 cores) TestCaptureBounded,
// TestSheetDump1000x26 and TestPageToolsHostile met the product's 8 s.
const busyProbeTimeout = 30 * time.Second

// TestMain runs four of the parallel tests at once (browsertest.Parallel):
// a driver test mostly waits for its page, its own browser or a timer, each
// in its own session; tests that set what the whole browser or process
// shares (the probe timeout, the environment, the clipboard) stay serial.
func TestMain(m *testing.M) {
	browsertest.Parallel(4)
	driver.SetProbeTimeout(busyProbeTimeout)
	code := m.Run()
	drivertest.CloseDriver()
	os.Exit(code)
}

// heavyMu lets one heavy test run at a time (see heavy).
var heavyMu sync.Mutex

// heavy makes a parallel test that keeps the machine busy (a 50 MB answer,
// thousands of WebSocket frames, a 50-page document), or a capture in the
// package's browser, wait until no other such test runs: side by side, at
// a load of 30 on two cores, a capture's body fetch outlived its 5 s
// beside the 50 MB one. They still run beside the light tests. (The
// 1000-row sheet's copy stays alone, not parallel: beside others at that
// load it outlived the copy's wait and read as blocked.) Call it right
// after t.Parallel.
func heavy(t *testing.T) {
	t.Helper()
	heavyMu.Lock()
	t.Cleanup(heavyMu.Unlock)
}

// newSession gives the test its own session (a fresh browser context) in
// the package's one browser.
func newSession(t *testing.T) (*driver.Session, context.Context) {
	t.Helper()
	return drivertest.Session(t, t.Name(), 60*time.Second)
}

// serve serves pages by path on 127.0.0.1; a page's "{{other}}" becomes the
// base URL of the same server under the name localhost, which is another
// site (so iframes from it run out of process).
func serve(t testing.TB, pages map[string]string) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
		body = strings.ReplaceAll(body, "{{other}}", "http://localhost:"+port)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func open(t *testing.T, s *driver.Session, ctx context.Context, url string) {
	t.Helper()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: url}); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
}

func snapshot(t *testing.T, s *driver.Session, ctx context.Context, req calls.SnapshotRequest) string {
	t.Helper()
	snap, err := s.Snapshot(ctx, req)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return snap.Text
}

// refOf finds the ref on the outline line that holds all the words.
func refOf(t *testing.T, outline string, words ...string) string {
	t.Helper()
	for _, line := range strings.Split(outline, "\n") {
		all := true
		for _, w := range words {
			if !strings.Contains(line, w) {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		if i := strings.Index(line, "[ref="); i >= 0 {
			rest := line[i+5:]
			return rest[:strings.IndexByte(rest, ']')]
		}
	}
	t.Fatalf("no line with a ref holds %q in:\n%s", words, outline)
	return ""
}

func act(t *testing.T, s *driver.Session, ctx context.Context, req calls.ActRequest) *calls.Outcome {
	t.Helper()
	out, err := s.Act(ctx, req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Kind, req.Target, err)
	}
	return out
}

func evalString(t *testing.T, s *driver.Session, ctx context.Context, expr string) string {
	t.Helper()
	res, err := s.Eval(ctx, calls.EvalRequest{Expression: expr})
	if err != nil {
		t.Fatalf("eval %s: %v", expr, err)
	}
	return strings.Trim(string(res.Value), `"`)
}

func getText(t *testing.T, s *driver.Session, ctx context.Context, target string) string {
	t.Helper()
	res, err := s.Get(ctx, calls.GetRequest{What: "text", Target: target})
	if err != nil {
		t.Fatalf("get text %s: %v", target, err)
	}
	return res.Value
}

var _ = fmt.Sprintf
