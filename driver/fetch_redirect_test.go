package driver_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestFetchRedirectManual: with Redirect "manual" an in-tab call returns a
// redirect's status and absolute Location instead of failing, and follows
// nothing (the target is never requested); Base64 returns the bytes as
// sent (a gzip body survives). The package's browser serves: the call
// needs no option of a browser of its own.
func TestFetchRedirectManual(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, "<urlset/>")
	zw.Close()
	var targetHits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hop":
			http.Redirect(w, r, "/there?x=1", http.StatusMovedPermanently)
			return
		case "/there":
			targetHits.Add(1)
		case "/map.xml.gz":
			w.Header().Set("Content-Type", "application/gzip")
			w.Write(gz.Bytes())
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<title>Shop</title>")
	}))
	defer srv.Close()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Fetch(ctx, calls.FetchRequest{URL: "/hop", Redirect: "manual"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != http.StatusMovedPermanently || res.Location != srv.URL+"/there?x=1" {
		t.Errorf("redirect: status %d location %q, want 301 %s/there?x=1", res.Status, res.Location, srv.URL)
	}
	if n := targetHits.Load(); n != 0 {
		t.Errorf("the redirect's target was requested %d times; nothing may be followed", n)
	}
	if _, err := s.Fetch(ctx, calls.FetchRequest{URL: "/hop", Redirect: "follow"}); err == nil {
		t.Error("an unknown redirect mode was accepted")
	}
	res, err = s.Fetch(ctx, calls.FetchRequest{URL: "/map.xml.gz", Base64: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := base64.StdEncoding.DecodeString(res.Body)
	if err != nil || !res.Base64 || !bytes.Equal(got, gz.Bytes()) {
		t.Errorf("base64 body: %v, base64=%v, %d bytes; want the %d gzip bytes as sent", err, res.Base64, len(got), gz.Len())
	}
}
