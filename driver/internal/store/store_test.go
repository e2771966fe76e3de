package store

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestCookieParams(t *testing.T) {
	ps, err := CookieParams([]calls.Cookie{{Name: "a", Value: "1"}, {Name: "b", Domain: "x.test", SameSite: "Lax", Expires: 10}}, "https://x.test/p")
	if err != nil {
		t.Fatal(err)
	}
	if ps[0].URL != "https://x.test/p" || ps[1].URL != "" || ps[1].Domain != "x.test" || ps[1].SameSite != "Lax" || ps[1].Expires != 10 {
		t.Errorf("params %+v %+v", ps[0], ps[1])
	}
	for _, c := range []struct {
		name    string
		cookies []calls.Cookie
		page    string
	}{
		{"none", nil, "https://x.test/"},
		{"no name", []calls.Cookie{{Value: "1"}}, "https://x.test/"},
		{"no page", []calls.Cookie{{Name: "a"}}, "about:blank"},
	} {
		if _, err := CookieParams(c.cookies, c.page); !errors.Is(err, calls.ErrBadInput) {
			t.Errorf("%s: %v, want bad_input", c.name, err)
		}
	}
}

func TestStorageScript(t *testing.T) {
	for _, req := range []calls.StorageRequest{{Area: "disk"}, {Op: "set"}, {Op: "drop"}} {
		if _, err := StorageScript(req); !errors.Is(err, calls.ErrBadInput) {
			t.Errorf("%+v: %v, want bad_input", req, err)
		}
	}
	// A key is data: quoted, never code.
	s, err := StorageScript(calls.StorageRequest{Area: "session", Op: "get", Key: `k"); alert(1); ("`})
	if err != nil {
		t.Fatal(err)
	}
	if want := `sessionStorage.getItem("k\"); alert(1); (\"")`; !contains(s, want) {
		t.Errorf("script %s, want it to hold %s", s, want)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
