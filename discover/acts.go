package discover

import (
	"net/url"
	"strings"
	"sync"
	"unicode"
)

// actWords are the words of a path that acts when it is requested: a GET
// to it can sign the user out, pay, delete or unsubscribe on a careless
// site, so discovery never requests it (issue 18: "never a path whose
// words act").
var actWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"delete": true, "remove": true, "destroy": true, "erase": true, "purge": true, "trash": true,
		"logout": true, "logoff": true, "signout": true, "signoff": true,
		"pay": true, "payment": true, "payments": true, "checkout": true, "purchase": true, "buy": true,
		"subscribe": true, "unsubscribe": true, "optout": true,
		"cancel": true, "revoke": true, "deactivate": true, "disable": true,
		"confirm": true, "approve": true, "reject": true, "submit": true,
		"transfer": true, "withdraw": true, "donate": true, "reset": true, "vote": true,
		"add": true, // ?add-to-cart=ID: a GET that fills a cart (WooCommerce)
	}
})

// actPairs are two-word forms of the same ("log out", "sign-out").
var actPairs = sync.OnceValue(func() map[[2]string]bool {
	return map[[2]string]bool{
		{"log", "out"}: true, {"log", "off"}: true, {"sign", "out"}: true, {"sign", "off"}: true,
		{"opt", "out"}: true,
	}
})

// Acts returns the word of u's path or query that acts, or "" when none
// does. Words are split on anything not a letter or digit and at a
// lower-to-upper case change ("signOut").
func Acts(u *url.URL) string {
	words := splitWords(u.EscapedPath() + " " + u.RawQuery)
	for i, w := range words {
		if actWords()[w] {
			return w
		}
		if i+1 < len(words) && actPairs()[[2]string{w, words[i+1]}] {
			return w + " " + words[i+1]
		}
	}
	return ""
}

// splitWords lower-cases s's words, after unescaping it.
func splitWords(s string) []string {
	if u, err := url.PathUnescape(s); err == nil {
		s = u
	}
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
	return words
}
