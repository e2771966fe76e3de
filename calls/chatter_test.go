package calls

import "testing"

func TestChatterNote(t *testing.T) {
	if n := ChatterNote(nil); n != "" {
		t.Errorf("none: %q", n)
	}
	got := ChatterNote([]string{"a", "b", "c", "d", "e"})
	if want := "let go, as they commit nothing: a; b; c; and 2 more"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
