package driver_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// A clear right after an action whose request is still out (a batch
// clears cookies between rows) waits for that action's settle: the late
// answer's Set-Cookie cannot land after the clear and leak into the next
// row. The late request is counted at the server.
func TestCookiesClearWaitsForTheLastAction(t *testing.T) {
	t.Parallel()
	answered := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/late" {
			time.Sleep(300 * time.Millisecond) // the answer the action's settle waits for
			http.SetCookie(w, &http.Cookie{Name: "late", Value: "1", Path: "/"})
			w.Write([]byte("ok"))
			answered <- struct{}{}
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<button onclick="fetch('/late')">Load</button>`))
	}))
	t.Cleanup(srv.Close)
	s, ctx := newSession(t)
	open(t, s, ctx, srv.URL+"/")
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Load"]`})
	got, err := s.Cookies(ctx, calls.CookieRequest{Op: "clear"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Cookies) != 0 {
		t.Fatalf("clear answered %+v", got.Cookies)
	}
	select {
	case <-answered:
	default:
		t.Fatal("the clear returned before the action's request was answered")
	}
	left, err := s.Cookies(ctx, calls.CookieRequest{Op: "get"})
	if err != nil {
		t.Fatal(err)
	}
	if len(left.Cookies) != 0 {
		t.Fatalf("a cookie set by the last action outlived the clear: %+v", left.Cookies)
	}
}
