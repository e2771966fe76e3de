package discover

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

// TestActsHostileSpellings: spellings a hostile site can give an acting
// path that a server still routes to it. A stray bad escape elsewhere in
// the URL must not leave the acting word escaped (url.PathUnescape fails
// on the whole string at the first bad escape); a word glued to a number
// is still the word; an escape escaped twice is still the word.
func TestActsHostileSpellings(t *testing.T) {
	for raw, want := range map[string]string{
		"https://s.example/log%6Fut":              "logout",
		"https://s.example/LOGOUT":                "logout",
		"https://s.example/account;logout":        "logout",
		"https://s.example/p?action=delete":       "delete",
		"https://s.example/log%6Fut?x=%zz":        "logout",
		"https://s.example/p?do=del%65te&q=100%":  "delete",
		"https://s.example/log%256Fut":            "logout",
		"https://s.example/item/7/delete2":        "delete",
		"https://s.example/api?op=unsubscribe1":   "unsubscribe",
		"https://s.example/p?action=log+out":      "log out",
		"https://s.example/products/2024-catalog": "",
		"https://s.example/v2/items?page=3":       "",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got := Acts(u); got != want {
			t.Errorf("Acts(%s) = %q, want %q", raw, got, want)
		}
	}
}

// TestCandidatesPageActs: Candidates fetches the page it is given when
// no markup comes with it; a page whose path acts is not requested (the
// URL is the model's proposal as much as a crawled link is).
func TestCandidatesPageActs(t *testing.T) {
	for _, page := range []string{"https://api.example/account/logout", "https://api.example/p?action=delete"} {
		site := &fakeSite{pages: map[string]string{}}
		_, err := Candidates(context.Background(), site, page, nil, Options{})
		for _, a := range site.asked {
			if a == strings.TrimPrefix(page, "https://api.example") {
				t.Errorf("Candidates requested the acting page %s (err %v)", page, err)
			}
		}
	}
}
