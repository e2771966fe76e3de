package netlog_test

import (
	"testing"

	"github.com/waymark-dev/waymark/netlog"
)

func TestRedactURL(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"query values go, keys stay", "https://a.example/p?q=shoes&page=2", "https://a.example/p?q&page"},
		{"user info and fragment go", "https://ann:pw@a.example/p#top", "https://a.example/p"},
		{"empty query", "https://a.example/p?", "https://a.example/p"},
		{"escaped key", "https://a.example/?a%20b=1", "https://a.example/?a+b"},
		{"data URL", "data:text/html,<b>secret</b>", "data:…"},
		{"a token in the path", "https://a.example/reset/ghp_0123456789abcdefghijABCDEFGHIJ012345", "https://a.example/reset/%C2%ABsecret%C2%BB"},
		{"unparsable", "http://a b:xx/", "(unreadable URL)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := netlog.RedactURL(tc.in); got != tc.want {
				t.Errorf("RedactURL(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
