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
