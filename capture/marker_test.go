package capture

import "testing"

func TestMarkerSameValueSameHash(t *testing.T) {
	key := []byte("k")
	a := Marker(key, "authorization", "tok-123")
	b := Marker(key, "token", "tok-123")
	ha, ok1 := MarkerHash(a)
	hb, ok2 := MarkerHash(b)
	if !ok1 || !ok2 || ha != hb {
		t.Fatalf("markers %q %q: hashes %q %q", a, b, ha, hb)
	}
	if hc, _ := MarkerHash(Marker(key, "token", "tok-124")); hc == ha {
		t.Fatal("different values gave one hash")
	}
	if hd, _ := MarkerHash(Marker([]byte("other"), "token", "tok-123")); hd == ha {
		t.Fatal("another key gave the same hash")
	}
	if _, ok := MarkerHash("Bearer tok-123"); ok {
		t.Fatal("plain text read as a marker")
	}
}
