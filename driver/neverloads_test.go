package driver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
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
