package replay

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// TestReplayNetLogAtAWireFailure: a step that stops as unreachable (a goto
// that cannot open) gets the NetLog's line on its own span, masked; a
// step that stops for a reason the wire cannot explain (a verify) asks
// for none; an error of the NetLog is noted, not fatal.
func TestReplayNetLogAtAWireFailure(t *testing.T) {
	type span struct{ since, until time.Time }
	tests := []struct {
		name     string
		pages    map[string]fakePage
		line     string
		err      error
		wantAsk  bool
		wantLine string
	}{
		{name: "unreachable", pages: map[string]fakePage{}, line: "GET http://shop.test/checkout: ERR_CONNECTION_RESET before any answer (pw s3cret-Pass-w0rd)",
			wantAsk: true, wantLine: "GET http://shop.test/checkout: ERR_CONNECTION_RESET before any answer (pw «secret:password»)"},
		{name: "error status", pages: map[string]fakePage{"http://shop.test/checkout": {Status: 403}}, line: "GET http://shop.test/checkout: status 403 (TLS 1.3, h2, a `cf-mitigated: challenge` header)",
			wantAsk: true, wantLine: "GET http://shop.test/checkout: status 403 (TLS 1.3, h2, a `cf-mitigated: challenge` header)"},
		{name: "nothing failed on the wire", pages: map[string]fakePage{}, wantAsk: true, wantLine: "the NetLog shows no failed request in the step's time"},
		{name: "no NetLog", pages: map[string]fakePage{}, err: errors.New("the browser writes no NetLog"), wantAsk: true, wantLine: "no NetLog: the browser writes no NetLog"},
		{name: "a verify failure", pages: map[string]fakePage{"http://shop.test/checkout": {Text: "- button \"Place order\" [ref=e4]"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := shop()
			d.pages = tt.pages
			var asked []span
			o := opts()
			o.NetLog = func(ctx context.Context, since, until time.Time) (string, error) {
				asked = append(asked, span{since, until})
				return tt.line, tt.err
			}
			before := time.Now()
			res, err := Run(context.Background(), d, checkoutRoutine(t), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusStopped {
				t.Fatalf("status %s, want stopped", res.Status)
			}
			last := res.Steps[len(res.Steps)-1]
			if !tt.wantAsk {
				if len(asked) != 0 || last.NetLog != "" {
					t.Errorf("asked %v, line %q; want no NetLog for a %s stop", asked, last.NetLog, res.Cause)
				}
				return
			}
			if len(asked) != 1 || asked[0].since.Before(before) || asked[0].until.Before(asked[0].since) {
				t.Fatalf("asked %v, want one span within the step", asked)
			}
			if last.NetLog != tt.wantLine {
				t.Errorf("netlog %q, want %q", last.NetLog, tt.wantLine)
			}
			if strings.Contains(last.NetLog, "s3cret") {
				t.Errorf("the secret is in the step's result: %q", last.NetLog)
			}
		})
	}
}

// TestReplayNetLogAtAnAPIFailure: an api step whose call the site did not
// answer with data (a server error, as a site down answers) stops, and the
// step gets the NetLog's line on its span as a goto that met the same
// site would; an API that changed runs its fallback and asks for none.
func TestReplayNetLogAtAnAPIFailure(t *testing.T) {
	const api = `{"format": "waymark.api/1", "site": "http://shop.test", "page": "http://shop.test/",
"request": {"method": "GET", "url": "http://shop.test/api/items"}, "rows": "/items", "fields": [{"name": "name", "path": "/title"}]}`
	r, err := routine.Parse([]byte(`{"format": "waymark.routine/1", "name": "items", "version": 1, "steps": [{"id": "items", "kind": "api", "into": "items", "api": ` + api + `}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, kind string
		status     error
		wantAsk    bool
	}{
		{"server error", "network", calls.ErrNavigation, true},
		{"rate", "rate", calls.ErrTimeout, true},
		{"changed, no fallback", "changed", calls.ErrNoMatch, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := shop()
			d.apiErr = &calls.Error{Kind: tc.status, Msg: "api " + tc.kind + ": http://shop.test/api/items answered 503 Service Unavailable",
				Hint: "the site failed: try again later", Data: json.RawMessage(`{"api_failure":"` + tc.kind + `"}`)}
			asked := 0
			o := opts()
			o.NetLog = func(ctx context.Context, since, until time.Time) (string, error) {
				asked++
				return "GET http://shop.test/api/items: status 503 (h1)", nil
			}
			res, err := Run(context.Background(), d, r, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusStopped || res.Cause != CauseFailed {
				t.Fatalf("status %s cause %s, want stopped failed", res.Status, res.Cause)
			}
			last := res.Steps[len(res.Steps)-1]
			if got := asked == 1 && last.NetLog != ""; got != tc.wantAsk {
				t.Errorf("asked the NetLog %d time(s), line %q; want asked: %v", asked, last.NetLog, tc.wantAsk)
			}
		})
	}
}
