package calls

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A hint names a flag of the command line as the CLI's help writes it:
// --button, --after WORDS, --var NAME=…. A front with other words for it
// (an MCP tool's argument, a Go program's request field or option) says
// each with [NameFlags]; the flags hints may name are listed in
// HintFlags, so that a front can say every one of them and a test fails
// for a hint that names a flag no front was told of
// (TestHintFlagsAreKnown; internal/mcp's TestMCPSaysEveryHintFlag).

// HintFlags returns the flags of waymark's command line that hints name
// (in driver, pilot, replay, siteapi, batch and the rules model), without
// their dashes. A flag of another program a hint names (Chromium's
// --enable-features, python's --directory) is not one of them: it is
// advice for the person, said as it is by every front.
func HintFlags() []string { return slices.Clone(hintFlags) }

var hintFlags = []string{
	"timeout", "executable-path", "cdp", "private-network", "allow-files", "model", "recipe",
	"allow-submit", "ask-submit", "approve", "button", "by", "after", "replace", "end", "editor", "url", "headed",
	"var", "secret", "input", "key", "session", "vision", "base-url", "max-steps",
}

// flagInHint is a flag as a hint names it: --name, then its value as the
// help writes it when it has one (--recipe FILE, --var NAME=…,
// --var 'NAME=[…]', --private-network=public). A command [Cmd] writes
// is matched whole, so that [NameFlags] leaves the flags in it to the
// command's own naming ([NameCommands]).
var flagInHint = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("`waymark [^`]*`|(^|[\\s(,'\"])--([a-z][a-z0-9-]*)(=\\S+| '[^']*'| [A-Z][A-Z0-9,]*\\b| [^\\s=,;)]+=[^\\s,;)]*)?")
})

// NameFlags rewrites each flag of [HintFlags] that h names outside a
// command, with its value, for a front with other words for it: name
// gets the flag without its dashes and returns what the front says, or
// "" to leave it as it is (advice for the person: a setting of how the
// front was started). Flags of other programs are left as they are.
func NameFlags(h string, name func(flag string) string) string {
	re := flagInHint()
	return re.ReplaceAllStringFunc(h, func(m string) string {
		if strings.HasPrefix(m, "`") {
			return m
		}
		sub := re.FindStringSubmatch(m)
		if !isHintFlag(sub[2]) {
			return m
		}
		if n := name(sub[2]); n != "" {
			return sub[1] + n
		}
		return m
	})
}

func isHintFlag(f string) bool { return slices.Contains(hintFlags, f) }
