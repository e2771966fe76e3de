package secret

import "testing"

// The spellings Chromium wrote for the adversarial suite's passphrase
// (internal/adversarial TestSecretSpelledByJavaScriptIsMasked), and a
// value beyond ASCII.
func TestJSSpellings(t *testing.T) {
	const v = "correct horse (battery) staple!~*"
	want := []string{
		"correct%20horse%20(battery)%20staple!~*",         // encodeURIComponent
		"correct%20horse%20(battery)%20staple!~*",         // encodeURI
		"correct+horse+%28battery%29+staple%21%7E*",       // URLSearchParams
		"correct%20horse%20%28battery%29%20staple%21%7E*", // escape
	}
	got := jsSpellings(v)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("spelling %d: %q, want %q", i, got[i], want[i])
		}
	}
	if got := jsSpellings("café €/ü")[0]; got != "caf%C3%A9%20%E2%82%AC%2F%C3%BC" {
		t.Errorf("encodeURIComponent beyond ASCII: %q", got)
	}
	if got := jsEscape("café €/ü"); got != "caf%E9%20%u20AC/%FC" {
		t.Errorf("escape beyond ASCII: %q", got)
	}
	var s Set
	s.Add("memo", v)
	for _, sp := range jsSpellings(v) {
		if m := s.Mask("?v=" + sp + "&x=1"); m != "?v=«secret:memo»&x=1" {
			t.Errorf("%q masked as %q", sp, m)
		}
	}
}
