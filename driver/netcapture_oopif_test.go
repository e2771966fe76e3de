package driver_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
)

// A cross-site iframe runs in a renderer of its own (a target the tab
// attaches to); its requests are captured once it is attached.
func TestCaptureCrossSiteFrame(t *testing.T) {
	t.Parallel()
	heavy(t)
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{
		"/":       `<p>top</p><iframe src="{{other}}/xframe"></iframe><script>addEventListener('message', e => document.body.append(e.data))</script>`,
		"/xframe": `<button onclick="fetch('/xapi').then(() => parent.postMessage('FETCHED', '*'))">Load</button>`,
		"/xapi":   `ok`,
	})
	if _, err := s.StartCapture(ctx, calls.CaptureStartRequest{}); err != nil {
		t.Fatal(err)
	}
	open(t, s, ctx, srv.URL+"/")
	look := snapshot(t, s, ctx, calls.SnapshotRequest{})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, look, "Load")})
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: "FETCHED"}); err != nil {
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
	var urls []string
	for _, e := range f.Exchanges {
		urls = append(urls, e.Kind+" "+e.URL+" frame="+e.Frame)
		if strings.HasSuffix(e.URL, "/xapi") {
			if e.Kind != "fetch" || !strings.HasSuffix(e.Frame, "/xframe") {
				t.Errorf("the frame's fetch: %+v", e)
			}
			return
		}
	}
	t.Errorf("the cross-site frame's fetch is not in the capture:\n%s", strings.Join(urls, "\n"))
}
