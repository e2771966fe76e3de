package calls

import (
	"regexp"
	"strings"
)

// URLGlob compiles the URL globs of WaitRequest.URL and of verify steps:
// * matches any run of characters, ? one character, everything else itself,
// and the glob must match the whole URL.
func URLGlob(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// MustURLGlob is URLGlob for globs known to compile; every glob does,
// since each character but * and ? is quoted.
func MustURLGlob(glob string) *regexp.Regexp {
	re, err := URLGlob(glob)
	if err != nil {
		panic(err) // cannot happen: the pattern is all quoted text, .* and .
	}
	return re
}
