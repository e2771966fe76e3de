package driver_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/policy"
)

// TestFetchChecksBeforeSending: an in-tab call to a URL the policy blocks
// is refused before anything is sent; a redirect is not followed; a POST
// sends its body; a relative URL needs a page of a site.
func TestFetchChecksBeforeSending(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var blockedHits, elsewhere atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/admin/x":
			blockedHits.Add(1)
		case "/elsewhere":
			elsewhere.Add(1)
		case "/hop":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
			return
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			w.Header().Set("X-Method", r.Method)
			w.Write(b)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<title>Shop</title>")
	}))
	defer srv.Close()
	pol, err := policy.New(policy.Options{Block: []string{srv.URL + "/admin/"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := driver.Launch(ctx, driver.Options{ExecPath: path, Args: browsertest.GuardArgs, Policy: pol})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "fetch")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Fetch(ctx, calls.FetchRequest{URL: "/echo"}); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("a relative URL on about:blank: %v, want bad input", err)
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Fetch(ctx, calls.FetchRequest{URL: "/admin/x"}); !errors.Is(err, calls.ErrBlockedURL) {
		t.Errorf("a blocked URL: %v, want blocked_url", err)
	}
	if n := blockedHits.Load(); n != 0 {
		t.Errorf("the blocked URL was sent %d times", n)
	}
	if _, err := s.Fetch(ctx, calls.FetchRequest{URL: "/hop"}); !errors.Is(err, calls.ErrNavigation) {
		t.Errorf("a redirect: %v, want a navigation error (not followed)", err)
	}
	// Redirect manual: the hop is the answer, with its Location, and the
	// next hop is not sent.
	hop, err := s.Fetch(ctx, calls.FetchRequest{URL: "/hop", Redirect: "manual"})
	if err != nil {
		t.Fatalf("a manual redirect: %v", err)
	}
	if hop.Status != http.StatusFound || hop.Location != srv.URL+"/elsewhere" {
		t.Errorf("a manual redirect: status %d location %q, want 302 %s/elsewhere", hop.Status, hop.Location, srv.URL)
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the next hop was sent %d times", n)
	}
	res, err := s.Fetch(ctx, calls.FetchRequest{Method: "post", URL: srv.URL + "/echo", Body: `{"q":"lamp"}`, Headers: map[string]string{"Content-Type": "application/json"}})
	if err != nil {
		t.Fatal(err)
	}
	var method string
	for _, h := range res.Headers {
		if h.Name == "x-method" {
			method = h.Value
		}
	}
	if res.Status != 200 || res.Body != `{"q":"lamp"}` || method != "POST" {
		t.Errorf("POST: %+v", res)
	}
	if _, err := s.Fetch(ctx, calls.FetchRequest{URL: "/echo", Body: "x"}); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("a GET with a body: %v, want bad input", err)
	}
}
