package sheet

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled at its first use (as
// internal/lazyre's, which sheet may not import: it stays on the standard
// library): a command that reads no sheet pays nothing at start-up.
type lazyRegexp struct{ re func() *regexp.Regexp }

func lazyRE(expr string) *lazyRegexp {
	return &lazyRegexp{re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

func (r *lazyRegexp) MatchString(s string) bool              { return r.re().MatchString(s) }
func (r *lazyRegexp) FindString(s string) string             { return r.re().FindString(s) }
func (r *lazyRegexp) FindStringSubmatch(s string) []string   { return r.re().FindStringSubmatch(s) }
func (r *lazyRegexp) FindAllString(s string, n int) []string { return r.re().FindAllString(s, n) }
