package replay

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
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
