package driver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestNoticesComeFirst(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/busy":
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `<title>Slow down</title><p>Too many requests</p>`)
		case "/forbidden":
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `<title>Forbidden</title><p>You may not see this.</p>`)
		case "/datadome":
			w.Header().Set("X-DataDome", "protected")
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `<title>Blocked</title><iframe title="DataDome CAPTCHA" src="about:blank" width=400 height=400></iframe>`)
		case "/challenge":
			w.Header().Set("cf-mitigated", "challenge")
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `<title>Just a moment...</title><p>Checking your browser</p>`)
		case "/cookies":
			io.WriteString(w, `<title>News</title><h1>Today</h1><p>Story.</p>
<div role=dialog aria-label="Cookie consent" style="position:fixed;bottom:0;left:0;right:0;background:#eee">
<p>We use cookies to improve your experience.</p><button>Reject all</button><button>Accept all</button></div>`)
		case "/login":
			io.WriteString(w, `<title>Sign in</title><h1>Sign in</h1><form><label>Email <input type=email></label>
<label>Password <input type=password></label><button>Sign in</button></form>`)
		}
	}))
	t.Cleanup(srv.Close)
	cases := []struct {
		path, kind, says string
	}{
		{"/busy", "refused", "429"},
		{"/forbidden", "refused", "403"},
		{"/datadome", "", "datadome"},
		{"/challenge", "bot-check", "cloudflare"},
		{"/cookies", "cookie-banner", "Reject all"},
		{"/login", "sign-in", ""},
	}
	for _, c := range cases {
		open(t, s, ctx, srv.URL+c.path)
		snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var found *calls.Notice
		for i, n := range snap.Notices {
			if n.Kind == c.kind || (c.kind == "" && (n.Kind == "bot-check" || n.Kind == "blocked")) {
				found = &snap.Notices[i]
				break
			}
		}
		if found == nil {
			t.Errorf("%s: no %s notice in %+v", c.path, c.kind, snap.Notices)
			continue
		}
		if !strings.Contains(strings.ToLower(found.Message+" "+found.Vendor), strings.ToLower(c.says)) {
			t.Errorf("%s: notice %+v does not say %q", c.path, found, c.says)
		}
		// Notices are the first lines after the page line.
		lines := strings.Split(snap.Text, "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[1], "["+found.Kind+"]") {
			t.Errorf("%s: the outline does not start with the notice:\n%s", c.path, snap.Text)
		}
	}
}
