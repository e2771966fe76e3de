// Package lazyre holds regular expressions compiled on first use. Every
// waymark command is a process of its own, and a package-level
// regexp.MustCompile runs at its start whether or not the command reads a
// byte with it: over the binary's packages that was most of the start-up
// time left in package initialisers. A lazyre.RE has the methods of
// *regexp.Regexp that the code uses, so a declaration changes and its
// uses do not.
package lazyre

import (
	"regexp"
	"sync"
)

// RE is a regular expression compiled at its first use. A bad expression
// panics there, as regexp.MustCompile would have at start-up (tests that
// use it find it).
type RE struct {
	re func() *regexp.Regexp
}

// New returns expr, to compile on first use.
func New(expr string) *RE {
	return &RE{re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
}

// Regexp is the compiled expression.
func (r *RE) Regexp() *regexp.Regexp { return r.re() }

func (r *RE) MatchString(s string) bool                  { return r.re().MatchString(s) }
func (r *RE) FindString(s string) string                 { return r.re().FindString(s) }
func (r *RE) FindStringIndex(s string) []int             { return r.re().FindStringIndex(s) }
func (r *RE) FindStringSubmatch(s string) []string       { return r.re().FindStringSubmatch(s) }
func (r *RE) FindStringSubmatchIndex(s string) []int     { return r.re().FindStringSubmatchIndex(s) }
func (r *RE) FindAllString(s string, n int) []string     { return r.re().FindAllString(s, n) }
func (r *RE) FindAllStringIndex(s string, n int) [][]int { return r.re().FindAllStringIndex(s, n) }
func (r *RE) FindAllStringSubmatch(s string, n int) [][]string {
	return r.re().FindAllStringSubmatch(s, n)
}
func (r *RE) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.re().FindAllStringSubmatchIndex(s, n)
}
func (r *RE) ReplaceAllString(src, repl string) string { return r.re().ReplaceAllString(src, repl) }
func (r *RE) ReplaceAllLiteralString(src, repl string) string {
	return r.re().ReplaceAllLiteralString(src, repl)
}
func (r *RE) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.re().ReplaceAllStringFunc(src, repl)
}
func (r *RE) Split(s string, n int) []string { return r.re().Split(s, n) }
func (r *RE) String() string                 { return r.re().String() }
