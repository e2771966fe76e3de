package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// page is a page that answers checks from fixed text, URL and finds.
type page struct {
	url, text string
	find      map[string]calls.Resolution // by locator; absent: missing
	row       *int                        // the row of the last positional find
}

func (p *page) Snapshot(context.Context, calls.SnapshotRequest) (*calls.Snapshot, error) {
	return &calls.Snapshot{URL: p.url, Title: "Shop", Text: p.text}, nil
}

func (p *page) Find(_ context.Context, req calls.FindRequest) (*calls.Resolution, error) {
	if req.Positional {
		p.row = &req.Row
	}
	if r, ok := p.find[req.Locator]; ok {
		return &r, nil
	}
	return &calls.Resolution{Status: calls.Missing, Reason: "no such element"}, nil
}

func (p *page) Get(_ context.Context, req calls.GetRequest) (*calls.GetResult, error) {
	return &calls.GetResult{Value: p.url}, nil
}

func TestCheck(t *testing.T) {
	shop := &page{
		url:  "https://shop.example/orders/12?ref=mail",
		text: "[page] https://shop.example/orders/12 \"Shop\"\n- heading \"Thank   you\"\n- text: Order \\\"WM-12\\\" placed\n- button \"Track\" [ref=e1]",
		find: map[string]calls.Resolution{"role=button[name=\"Track\"]": {Status: calls.Found, Ref: "e1"}, "text=Moved": {Status: calls.Moved, Ref: "e2"}},
	}
	track := &routine.Target{Locator: `role=button[name="Track"]`, Fingerprint: calls.Fingerprint{Role: "button", Name: "Track"}}
	gone := &routine.Target{Locator: "text=Cancel", Fingerprint: calls.Fingerprint{Role: "button", Name: "Cancel"}}
	tests := []struct {
		name   string
		check  routine.Check
		want   bool
		detail string
	}{
		{"text shown, case and space folded", routine.Check{Text: "thank you"}, true, `text "thank you" shown`},
		{"text through the outline's quoting", routine.Check{Text: `Order "WM-12" placed`}, true, "shown"},
		{"text not shown", routine.Check{Text: "Payment declined"}, false, `the page does not show "Payment declined" (it is /orders/12 "Shop")`},
		{"text absent", routine.Check{Text: "Payment declined", Absent: true}, true, "absent"},
		{"text absent but shown", routine.Check{Text: "Thank you", Absent: true}, false, `the page shows "Thank you"`},
		{"element present", routine.Check{Element: track}, true, `button "Track" present`},
		{"element moved is present", routine.Check{Element: &routine.Target{Locator: "text=Moved"}}, true, "present"},
		{"element missing", routine.Check{Element: gone}, false, `button "Cancel" is not on the page (no such element)`},
		{"element absent", routine.Check{Element: gone, Absent: true}, true, "absent"},
		{"element absent but there", routine.Check{Element: track, Absent: true}, false, `button "Track" is on the page`},
		{"url, the path glob", routine.Check{URL: "/orders/*"}, true, "url https://shop.example/orders/12?ref=mail"},
		{"url, the whole URL", routine.Check{URL: "https://shop.example/orders/??*"}, true, "url "},
		{"url, not matching", routine.Check{URL: "/cart"}, false, "the URL is https://shop.example/orders/12?ref=mail, not /cart"},
		{"every part must hold", routine.Check{Text: "Thank you", Element: track, URL: "/cart"}, false, "not /cart"},
		{"every part holds", routine.Check{Text: "Thank you", Element: track, URL: "*/orders/*"}, true, `text "Thank you" shown; button "Track" present; url`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, detail, err := Check(context.Background(), shop, &tt.check, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.want || !strings.Contains(detail, tt.detail) {
				t.Errorf("Check = %v, %q; want %v, with %q", ok, detail, tt.want, tt.detail)
			}
		})
	}
}

func TestCheckRedactsAndTakesTheRow(t *testing.T) {
	p := &page{url: "https://shop.example/?token=hunter2", text: "hello"}
	row := 3
	redact := func(s string) string { return strings.ReplaceAll(s, "hunter2", "«secret»") }
	ok, detail, err := Check(context.Background(), p, &routine.Check{URL: "/cart", Element: &routine.Target{Locator: "x", Positional: true}, Absent: true},
		Options{Row: &row, Redact: redact})
	if err != nil {
		t.Fatal(err)
	}
	if ok || strings.Contains(detail, "hunter2") || !strings.Contains(detail, "«secret»") {
		t.Errorf("Check = %v, %q", ok, detail)
	}
	if p.row == nil || *p.row != 3 {
		t.Errorf("the positional find was not given the row: %v", p.row)
	}
}

func TestFold(t *testing.T) {
	tests := []struct {
		page, text string
		shows      bool
		count      int
	}{
		{"Thank you", "thank you", true, 1},
		{"Thank\n  you", "THANK YOU", true, 1},
		{`- text: Say \"hi\"`, `say "hi"`, true, 1},
		{`- text: one\ntwo`, "one two", true, 1},
		{"a cart, a Cart", "cart", true, 2},
		{"Thank you", "thanks", false, 0},
		{"anything", "", true, 0},
	}
	for _, tt := range tests {
		if got := Shows(tt.page, tt.text); got != tt.shows {
			t.Errorf("Shows(%q, %q) = %v", tt.page, tt.text, got)
		}
		if got := Count(tt.page, tt.text); got != tt.count {
			t.Errorf("Count(%q, %q) = %d, want %d", tt.page, tt.text, got, tt.count)
		}
	}
}
