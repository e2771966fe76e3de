package siteapi_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/internal/apishop"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/siteapi"
)

// TestCaptureLearnCall: end to end with the session's own capture. The
// browser reads two pages of the shop while captured; the capture holds no
// byte of the token, the CSRF value or the session cookie; the API learned
// from it and the rows reads each value from where the page keeps it, and
// a call from the tab returns all 100 products.
func TestCaptureLearnCall(t *testing.T) {
	s, ctx := drivertest.Session(t, "e2e", 120*time.Second)
	shop := apishop.Start(apishop.Options{})
	defer shop.Close()
	if _, err := s.StartCapture(ctx, calls.CaptureStartRequest{}); err != nil {
		t.Fatal(err)
	}
	rows, _ := readPages(t, ctx, s, shop, 2)
	res, err := s.StopCapture(ctx, calls.CaptureStopRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{shop.Token, shop.CSRF, shop.SID} {
		if bytes.Contains(res.Capture, []byte(v)) {
			t.Errorf("the capture holds %q", v)
		}
	}
	var f capture.File
	if err := json.Unmarshal(res.Capture, &f); err != nil {
		t.Fatal(err)
	}
	r, rep, err := siteapi.LearnCall(ctx, s, &f, rows, siteapi.LearnOptions{})
	if err != nil {
		b, _ := json.MarshalIndent(rep, "", " ")
		t.Fatalf("learn from the capture: %v\n%s\n%s", err, b, res.Capture)
	}
	src := map[string]siteapi.Source{}
	for _, p := range r.Request.Headers {
		src[p.Name] = p.Source
	}
	if src["authorization"] != (siteapi.Source{From: siteapi.FromLocal, Key: "token", Prefix: "Bearer "}) ||
		src["x-csrf-token"] != (siteapi.Source{From: siteapi.FromMeta, Key: "csrf-token"}) ||
		src["x-build-id"].From != siteapi.FromScript || r.Pagination == nil || r.Pagination.Kind != siteapi.PageCursor {
		t.Errorf("sources %+v, pagination %+v", src, r.Pagination)
	}
	for _, h := range r.Request.Headers {
		if h.Name == "proxy-connection" || h.Name == "keep-alive" {
			t.Errorf("the recipe sends %s, a header of the proxy's hop: %+v", h.Name, h)
		}
	}
	// The first call after learning reads the rows: learning's own
	// verifying call (which the site answered with an ETag) is not the
	// person's last call.
	got, err := siteapi.Call(ctx, s, r, siteapi.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Unchanged || len(got.Rows) != 100 {
		t.Errorf("the first call after learning: unchanged %v, %d rows, want 100", got.Unchanged, len(got.Rows))
	}
}
