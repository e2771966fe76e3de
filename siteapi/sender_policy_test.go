package siteapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/siteapi"
)

// refusing is a session whose fetches off one origin are refused as the
// URL policy refuses them (Session.Fetch is where the policy stands).
type refusing struct {
	siteapi.Session
	allowed string
	refused atomic.Int32
}

func (r *refusing) Fetch(ctx context.Context, req calls.FetchRequest) (*calls.FetchResult, error) {
	if !strings.HasPrefix(req.URL, r.allowed) {
		r.refused.Add(1)
		return nil, calls.Errorf(calls.ErrBlockedURL, "", "blocked: %s", req.URL)
	}
	return r.Session.Fetch(ctx, req)
}

// A hostile script names its source map on another host: Sender asks for
// it only through the session's Fetch, and when the policy refuses it,
// nothing reaches that host and no sender is named.
func TestSenderMapOnARefusedHost(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer other.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `function a(){return fetch("/api/lamps")}a();`+"\n//# sourceMappingURL="+other.URL+"/app.map\n")
	}))
	defer site.Close()
	s, ctx := drivertest.Session(t, "sender-refused", 60*time.Second)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	rs := &refusing{Session: s, allowed: site.URL}
	if got := siteapi.Sender(ctx, rs, site.URL+"/app.min.js:1:13"); got != "" {
		t.Errorf("sender %q from a map on a refused host", got)
	}
	if rs.refused.Load() != 1 || hits.Load() != 0 {
		t.Errorf("refused %d fetches, the other host got %d requests; want 1 and 0", rs.refused.Load(), hits.Load())
	}
}
