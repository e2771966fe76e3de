package driver_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
)

// Tabs opened during a capture are captured: one the session opens, from
// its first request; one the page opens, from when waymark adopts it (the
// action that opened it; what it loads before that is not).
func TestCaptureNewTabs(t *testing.T) {
	t.Parallel()
	heavy(t)
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{
		"/":          `<a href="/popup" target="_blank">Open popup</a>`,
		"/popup":     `<p>popup</p><button onclick="fetch('/later-api').then(() => document.body.append('LATER'))">Later</button>`,
		"/mine":      `<p>mine</p><script>fetch('/mine-api')</script>`,
		"/later-api": `ok`, "/mine-api": `ok`,
	})
	open(t, s, ctx, srv.URL+"/")
	if _, err := s.StartCapture(ctx, calls.CaptureStartRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Tab(ctx, calls.TabRequest{Op: "new", URL: srv.URL + "/mine"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Tab(ctx, calls.TabRequest{Op: "switch", Index: 0}); err != nil {
		t.Fatal(err)
	}
	look := snapshot(t, s, ctx, calls.SnapshotRequest{})
	out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, look, "Open popup")})
	if !strings.HasSuffix(out.URL, "/popup") {
		t.Fatalf("the click left the session on %s, not the popup it opened", out.URL)
	}
	// The popup's request is made once the click that opened it has
	// answered, so once waymark has adopted the tab: a timer in the page
	// raced the adoption on a loaded machine (4 failures in 30 runs).
	popup := snapshot(t, s, ctx, calls.SnapshotRequest{})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, popup, "Later")})
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: "LATER"}); err != nil {
		t.Fatal(err)
	}
	res, err := s.StopCapture(ctx, calls.CaptureStopRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var f capture.File
	if err := json.Unmarshal(res.Capture, &f); err != nil {
		t.Fatal(err)
	}
	var got []string
	seen := map[string]bool{}
	for _, e := range f.Exchanges {
		got = append(got, e.Kind+" "+e.URL)
		seen[e.URL[strings.LastIndex(e.URL, "/"):]] = true
	}
	for _, p := range []string{"/mine", "/mine-api", "/later-api"} {
		if !seen[p] {
			t.Errorf("%s not captured; got:\n%s", p, strings.Join(got, "\n"))
		}
	}
	t.Logf("captured:\n%s", strings.Join(got, "\n"))
}
