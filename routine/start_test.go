package routine

import (
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestStartStep(t *testing.T) {
	for u, want := range map[string]bool{
		"http://127.0.0.1:8080/products/1": true,
		"https://shop.example/":            true,
		"file:///tmp/report.html":          true,
		"about:blank":                      false,
		"":                                 false,
		"chrome-error://chromewebdata/":    false,
		"data:text/html,<p>hi":             false,
	} {
		st, ok := StartStep(&calls.PageInfo{URL: u, Title: "T"}, nil)
		if ok != want || ok && (st.Kind != KindGoto || st.URL != u || st.Landed == nil) {
			t.Errorf("StartStep(%q) = %+v, %v; want ok %v", u, st, ok, want)
		}
	}
	if !HasStartPage(nil) || !HasStartPage([]Step{{Kind: KindGoto}, {Kind: KindAct}}) || HasStartPage([]Step{{Kind: KindAct}}) {
		t.Error("HasStartPage: a routine starts with a goto, or has no steps")
	}
}
