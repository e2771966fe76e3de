package driver_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
)

// TestAClickOnAPageThatNeverFinishesLoading: a page whose image never
// answers never fires its load event. A click on its button did what it
// does; the click says so, and the next look reads the button's effect,
// rather than both failing as a load that timed out (issue 27: it
// reported failure after 30 s although it clicked).
func TestAClickOnAPageThatNeverFinishesLoading(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<title>Slow</title><h1>Slow</h1>
<button onclick="document.querySelector('p').textContent='pressed'">Press me</button><p>not yet</p>
<img src="/hang" alt="a picture that never comes">`))
		case "/hang":
			w.Header().Set("Content-Type", "image/png")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			select {
			case <-hang:
			case <-r.Context().Done():
			}
		}
	}))
	t.Cleanup(func() { close(hang); srv.Close() })

	// The open says the load did not end in the time it was given.
	_, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/", TimeoutMS: 1500})
	if err != nil && calls.Code(err) != "timeout" {
		t.Fatalf("open: %v", err)
	}
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true})
	if err != nil && calls.Code(err) != "timeout" {
		t.Fatalf("snapshot: %v", err)
	}
	var ref string
	if snap != nil {
		ref = refOf(t, snap.Text, "Press me")
	} else {
		ref = "text=Press me"
	}
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: ref}); err != nil {
		t.Fatalf("the click did its work, yet: %v", err)
	}
	text := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true})
	if !strings.Contains(text, "pressed") {
		t.Fatalf("the look after the click does not show its effect:\n%s", text)
	}
}

// TestAServerThatNeverAnswersIsNotAStuckPage: a server that takes the
// request and never answers holds the tab's navigation, and Chromium holds
// every command of the tab meanwhile, so the probe goes unanswered. That
// is the server's doing: the open ends as a timeout on its own deadline, a
// look meanwhile as a timeout that says the server has not answered, never
// page_unresponsive ("a script keeps its main thread busy"), and the tab
// goes elsewhere. It runs alone: it shortens the health timings.
func TestAServerThatNeverAnswersIsNotAStuckPage(t *testing.T) {
	t.Cleanup(driver.SetProbeTimeout(time.Second))
	t.Cleanup(driver.SetNavQuiet(500 * time.Millisecond))
	s, ctx := newSession(t)
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/never" {
			select {
			case <-hang:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>OK</title><p>still here</p>`))
	}))
	t.Cleanup(func() { close(hang); srv.Close() })
	open(t, s, ctx, srv.URL+"/")

	_, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/never", TimeoutMS: 4000})
	if !errors.Is(err, calls.ErrTimeout) || !strings.Contains(err.Error(), "did not finish loading") {
		t.Fatalf("open of a server that never answers: %v (code %s), want timeout", err, calls.Code(err))
	}
	if _, err := s.Snapshot(ctx, calls.SnapshotRequest{}); err != nil && (!errors.Is(err, calls.ErrTimeout) || !strings.Contains(err.Error(), "server has not answered")) {
		t.Fatalf("a look while it loads: %v (code %s), want a timeout that names the server", err, calls.Code(err))
	}
	open(t, s, ctx, srv.URL+"/")
	if text := snapshot(t, s, ctx, calls.SnapshotRequest{}); !strings.Contains(text, "still here") {
		t.Fatalf("after: %s", text)
	}
}
