package rules

import (
	"regexp"
	"sync"
)

// lazyRE compiles a regular expression on first use: the rules model is
// linked into every waymark process, and most never read an instruction.
func lazyRE(src string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })
}
