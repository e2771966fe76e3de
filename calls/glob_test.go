package calls

import "testing"

// TestMatchURL is the URL-glob dialect, case by case: every matcher of
// URLs (waits, verify steps, expected effects, test plans) reads globs so.
func TestMatchURL(t *testing.T) {
	tests := []struct {
		glob, url string
		want      bool
	}{
		// The whole URL.
		{"https://shop.example/cart", "https://shop.example/cart", true},
		{"https://shop.example/cart", "https://shop.example/cart/", false},
		{"https://shop.example/*", "https://shop.example/a/b?c=d#e", true},
		{"*/thanks", "https://shop.example/thanks", true},
		{"*/thanks", "https://shop.example/thanks?order=12", false},
		{"*/thanks*", "https://shop.example/thanks?order=12", true},
		{"*shop.example*", "https://shop.example/", true},
		{"https://shop.example/cart", "https://Shop.example/cart", false}, // case counts
		// * spans slashes; ? is one character, a literal ? among them.
		{"https://*/orders/*", "https://shop.example/orders/2030/12", true},
		{"https://shop.example/p?", "https://shop.example/p1", true},
		{"https://shop.example/p?", "https://shop.example/p12", false},
		{"https://shop.example/search?q=*", "https://shop.example/search?q=lamp", true},
		// Everything else is itself: regexp and glob characters too.
		{"https://shop.example/a.b", "https://shop.example/aXb", false},
		{"https://shop.example/[ab]", "https://shop.example/a", false},
		{"https://shop.example/[ab]", "https://shop.example/[ab]", true},
		{"https://shop.example/a+b", "https://shop.example/a+b", true},
		{`https://shop.example/\d`, `https://shop.example/\d`, true},
		// A glob that starts with / is the path, with or without the query.
		{"/orders/*", "https://shop.example/orders/12?ref=mail", true},
		{"/search", "https://shop.example/search?q=lamp", true},
		{"/search?q=lamp", "https://shop.example/search?q=lamp", true},
		{"/search?q=lamp", "https://shop.example/search?q=chair", false},
		{"/search?q=*", "https://shop.example/search", false},
		{"/search", "https://shop.example/other/search", false},
		{"/thanks", "https://shop.example/thanks#top", true},
		{"/", "https://shop.example", true},
		{"/", "https://shop.example?x=1", true},
		{"/", "https://shop.example/a", false},
		{"/*", "about:blank", false},
		{"/a", "/a?b", true}, // a URL with no scheme is its path already
		// The cases of the readings before this one.
		{"*/account", "http://127.0.0.1:80/account", true},
		{"/account", "http://127.0.0.1:80/account?x=1", true},
		{"https://shop.test/*", "https://shop.test/a/b", true},
		{"*/account", "http://127.0.0.1/login", false},
		{"/orders/*", "http://shop.test/orders/WM-1001", true},
		{"/orders/*", "http://shop.test/checkout", false},
		{"*/orders/WM-100?", "http://shop.test/orders/WM-1001", true},
		{"/search?q=*", "http://x/search?q=mug", true},
		// Edge cases of the matcher.
		{"", "", true},
		{"*", "", true},
		{"**", "https://x/", true},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbYcZ", false},
		{"*é*", "https://x/caf%C3%A9", false},
		{"*é*", "https://x/café", true},
	}
	for _, tt := range tests {
		if got := MatchURL(tt.glob, tt.url); got != tt.want {
			t.Errorf("MatchURL(%q, %q) = %v, want %v", tt.glob, tt.url, got, tt.want)
		}
	}
}
