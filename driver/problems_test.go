package driver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

func TestProblemsAreKept(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing.js" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>P</title><script src="/missing.js"></script>
<script>console.error("cart total is", 42); setTimeout(() => { throw new Error("boom in handler") }, 0)</script>`))
	}))
	t.Cleanup(srv.Close)
	open(t, s, ctx, srv.URL)
	// The exception comes from a timer: wait for it to be reported (an
	// event, not a guess), then read and clear.
	deadline := time.Now().Add(10 * time.Second)
	for {
		p, err := s.Problems(ctx, calls.ProblemsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.Join(p.Console, "\n"), "boom in handler") || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	p, err := s.Problems(ctx, calls.ProblemsRequest{Clear: true})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(p.Console, "\n")
	if !strings.Contains(all, "cart total is 42") || !strings.Contains(all, "boom in handler") {
		t.Errorf("console problems: %q", p.Console)
	}
	if r := strings.Join(p.Requests, "\n"); !strings.Contains(r, "/missing.js → HTTP 404") {
		t.Errorf("request problems: %q", p.Requests)
	}
	if again, _ := s.Problems(ctx, calls.ProblemsRequest{}); len(again.Console)+len(again.Requests) != 0 {
		t.Errorf("clear kept %+v", again)
	}
}
