package driver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
)

// TestWorldIsMadeAsThePageLoads: the isolated world of each page a tab
// opens is made as the document commits, alongside the load, so the first
// read after a load does not wait for it; a read then runs in it.
func TestWorldIsMadeAsThePageLoads(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>%s</title><p>page %s</p>`, r.URL.Path, r.URL.Path)
	}))
	defer srv.Close()
	for _, path := range []string{"/a", "/b"} {
		if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + path}); err != nil {
			t.Fatal(err)
		}
		ok, err := driver.WorldPrepared(ctx, s)
		if err != nil || !ok {
			t.Fatalf("%s: no world made at load (%v)", path, err)
		}
		res, err := s.Eval(ctx, calls.EvalRequest{Expression: "document.title"})
		if err != nil || string(res.Value) != `"`+path+`"` {
			t.Fatalf("%s: eval in the world = %v %v", path, res, err)
		}
	}
}
