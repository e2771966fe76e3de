package discover

import (
	"net/url"
	"strconv"
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
	words := SplitWords(u.EscapedPath() + " " + u.RawQuery)
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

// SplitWords lower-cases s's words, after unescaping it. Unescaping is
// by escape, not all or nothing (url.PathUnescape refuses the whole string
// at one bad escape, so "/log%6Fut?q=100%" kept its acting word escaped),
// and repeated while it changes (a word escaped twice). Words also split
// between letters and digits ("delete2").
func SplitWords(s string) []string {
	for range 4 {
		u := unescapeLoose(s)
		if u == s {
			break
		}
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
			if unicode.IsUpper(r) && unicode.IsLower(prev) || unicode.IsDigit(r) != unicode.IsDigit(prev) && len(cur) > 0 {
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

// unescapeLoose decodes every valid %XX of s and leaves anything else as
// it is.
func unescapeLoose(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b.WriteByte(byte(v))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
