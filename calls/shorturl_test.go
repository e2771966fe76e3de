package calls_test

import (
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestShortURL(t *testing.T) {
	const from = "http://127.0.0.1:8080/products"
	for _, c := range []struct{ to, want string }{
		{"http://127.0.0.1:8080/products/1", "/products/1"},
		{"http://127.0.0.1:8080/search?q=mug#top", "/search?q=mug#top"},
		{"http://localhost:8080/products/1", "http://localhost:8080/products/1"},
		{"https://127.0.0.1:8080/products/1", "https://127.0.0.1:8080/products/1"},
		// A path of the page's choosing that reads as another site's
		// address: "//bank.example/login" is not where the tab is.
		{"http://127.0.0.1:8080//bank.example/login", "http://127.0.0.1:8080//bank.example/login"},
		{"http://127.0.0.1:8080//", "http://127.0.0.1:8080//"},
	} {
		if got := calls.ShortURL(from, c.to); got != c.want {
			t.Errorf("ShortURL(%q, %q) = %q, want %q", from, c.to, got, c.want)
		}
	}
}
