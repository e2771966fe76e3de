package notice

import "testing"

func TestClassifyOverlay(t *testing.T) {
	for _, c := range []struct {
		name    string
		text    string
		buttons []string
		kind    string
		close   int
	}{
		{"cookie with reject", "We use cookies to improve your experience.", []string{"Accept all", "Reject all", "Settings"}, KindCookieBanner, 1},
		{"cookie with necessary", "Wir verwenden Cookies.", []string{"Alle akzeptieren", "Ablehnen", "Nur notwendige"}, KindCookieBanner, 2},
		{"cookie accept only", "This site uses cookies.", []string{"Got it"}, KindCookieBanner, -1},
		{"app banner", "Open in the app for a better experience", []string{"Open app", "Not now"}, KindAppBanner, 1},
		{"app banner install only", "Get the app", []string{"Install"}, KindAppBanner, -1},
		{"newsletter modal", "Subscribe to our newsletter", []string{"Subscribe", "Close"}, "", -1},
	} {
		kind, close := ClassifyOverlay(c.text, c.buttons)
		if kind != c.kind || close != c.close {
			t.Errorf("%s: got %q %d, want %q %d", c.name, kind, close, c.kind, c.close)
		}
	}
}
