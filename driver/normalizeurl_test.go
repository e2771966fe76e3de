package driver

import "testing"

// TestNormalizeURLLoopbackGetsHTTP: an address with no scheme on this
// machine gets http://, as a local development server speaks it, whatever
// the form of the host (a port or none, IPv6 in brackets, any case).
func TestNormalizeURLLoopbackGetsHTTP(t *testing.T) {
	for raw, want := range map[string]string{
		"localhost:3000/x":      "http://localhost:3000/x",
		"localhost":             "http://localhost",
		"LOCALHOST:3000":        "http://LOCALHOST:3000",
		"127.0.0.1:8799/a?b=1":  "http://127.0.0.1:8799/a?b=1",
		"[::1]:8799/checkout":   "http://[::1]:8799/checkout",
		"[::1]/":                "http://[::1]/",
		"example.com/docs":      "https://example.com/docs",
		"localhost.example.com": "https://localhost.example.com",
	} {
		got, err := NormalizeURL(raw)
		if err != nil || got != want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
}
