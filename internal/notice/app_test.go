package notice

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

func TestAppBanner(t *testing.T) {
	tests := []struct {
		name string
		root *outline.Node
		want []Notice
	}{
		{
			name: "open in app with not now",
			root: doc("Social", el("banner", "", txt("See more on the app"), link("Open in app", "e2"), btn("Not now", "e3")), el("main", "", heading("Feed"))),
			want: []Notice{{
				Kind:    calls.NoticeAppBanner,
				Message: `app banner "Open in app" with its dismiss control "Not now" [ref=e3]`,
				Detail:  map[string]string{"dismiss": "e3", "open": "e2"},
			}},
		},
		{
			name: "smart banner with a close glyph",
			root: doc("Shop", &outline.Node{Role: "region", Name: "Get the app", Attrs: map[string]string{"class": "smartbanner"}, Children: []*outline.Node{
				btn("×", "e5"), txt("Shop app — faster checkout"), link("Install", "e6")}}),
			want: []Notice{{
				Kind:    calls.NoticeAppBanner,
				Message: `app banner "Get the app" with its dismiss control "×" [ref=e5]`,
				Detail:  map[string]string{"dismiss": "e5"},
			}},
		},
		{
			name: "german",
			root: doc("Zeitung", txt("In der App öffnen für das beste Erlebnis"), btn("Nicht jetzt", "e7"), link("App öffnen", "e8")),
			want: []Notice{{
				Kind:    calls.NoticeAppBanner,
				Message: `app banner "In der App öffnen für das beste Erlebnis" with its dismiss control "Nicht jetzt" [ref=e7]`,
				Detail:  map[string]string{"dismiss": "e7"},
			}},
		},
		{
			name: "footer link is no banner",
			root: doc("Shop", el("main", "", heading("Deals"), btn("Close", "e1")), el("contentinfo", "", link("Get the app", "e9"), link("Careers", "e10"))),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := only(Detect(Input{Status: 200, Outline: tt.root}), calls.NoticeAppBanner)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Detect (-want +got):\n%s", d)
			}
		})
	}
}
