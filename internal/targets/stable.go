package targets

import (
	"strings"
	"unicode"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

// Generated class names and ids change with every build; a locator built on
// them breaks on the next deploy. These shapes mark them: CSS-in-JS hashes
// (css-1x2y3z, sc-bdVaJa, jsx-3456789, emotion's e1abc2d0), CSS-module
// suffixes (Button_primary__a1B2c), long digit runs (item-123456), and
// random-looking mixes of letters and digits.
var (
	cssInJS     = lazyre.New(`^(css|sc|jsx|emotion|styled|svelte|astro|tw)-[A-Za-z0-9_-]+$`)
	digitRun    = lazyre.New(`[0-9]{3,}`)
	emotionHash = lazyre.New(`^e[0-9][a-z0-9]{4,}$`)
)

// Stable reports whether a class name or id looks written by a person and
// so likely to survive the next build.
func Stable(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	if cssInJS.MatchString(s) || cssModuleSuffix(s) || digitRun.MatchString(s) || emotionHash.MatchString(s) {
		return false
	}
	if strings.HasPrefix(s, "_") || strings.HasPrefix(s, ":") {
		return false // React's useId (":r1:") and private-looking names
	}
	return !randomLooking(s)
}

// randomLooking spots tokens like "a1B2c3" or "xK9pQ": digits mixed into
// letters, or case changes in the middle of a short token with no vowels
// pattern a person would type.
func randomLooking(s string) bool {
	var letters, digits, upper, switches int
	prevDigit := false
	for i, r := range s {
		switch {
		case unicode.IsDigit(r):
			digits++
			if i > 0 && !prevDigit {
				switches++
			}
			prevDigit = true
		case unicode.IsLetter(r):
			letters++
			if unicode.IsUpper(r) && i > 0 {
				upper++
			}
			if prevDigit {
				switches++
			}
			prevDigit = false
		default:
			prevDigit = false
		}
	}
	if digits > 0 && switches >= 2 {
		return true // letters and digits interleaved: a1b2, x9k3p
	}
	// Mid-token capitals in a short token with no separator: "bdVaJa".
	if upper >= 2 && letters <= 8 && !strings.ContainsAny(s, "-_") && !vowelRich(s) {
		return true
	}
	return false
}

func vowelRich(s string) bool {
	v := 0
	for _, r := range strings.ToLower(s) {
		if strings.ContainsRune("aeiou", r) {
			v++
		}
	}
	return v*3 >= len(s)
}

// cssModuleSuffix spots a CSS module's hash after the last "__" or "_"
// (Button_primary__a1B2c); a BEM element (nav__item) is lower-case words.
func cssModuleSuffix(s string) bool {
	i := strings.LastIndexByte(s, '_')
	if i < 0 || len(s)-i-1 < 4 {
		return false
	}
	suffix := s[i+1:]
	return strings.ContainsAny(suffix, "0123456789") && strings.IndexFunc(suffix, unicode.IsLetter) >= 0
}
