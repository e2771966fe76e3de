package notice

import (
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestClassifyOverlay(t *testing.T) {
	for _, c := range []struct {
		name    string
		text    string
		buttons []string
		kind    string
		close   int
	}{
		{"cookie with reject", "We use cookies to improve your experience.", []string{"Accept all", "Reject all", "Settings"}, calls.NoticeCookieBanner, 1},
		{"cookie with necessary", "Wir verwenden Cookies.", []string{"Alle akzeptieren", "Ablehnen", "Nur notwendige"}, calls.NoticeCookieBanner, 2},
		{"cookie accept only", "This site uses cookies.", []string{"Got it"}, calls.NoticeCookieBanner, -1},
		{"app banner", "Open in the app for a better experience", []string{"Open app", "Not now"}, calls.NoticeAppBanner, 1},
		{"app banner install only", "Get the app", []string{"Install"}, calls.NoticeAppBanner, -1},
		{"newsletter modal", "Subscribe to our newsletter", []string{"Subscribe", "Close"}, "", -1},
	} {
		kind, close := ClassifyOverlay(c.text, c.buttons)
		if kind != c.kind || close != c.close {
			t.Errorf("%s: got %q %d, want %q %d", c.name, kind, close, c.kind, c.close)
		}
	}
}
