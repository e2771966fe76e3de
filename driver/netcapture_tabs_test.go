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
// action that opened it).
func TestCaptureNewTabs(t *testing.T) {
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{
		"/":          `<a href="/popup" target="_blank">Open popup</a>`,
		"/popup":     `<p>popup</p><script>setTimeout(() => fetch('/later-api').then(() => document.body.append('LATER')), 300)</script>`,
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
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, look, "Open popup")})
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
