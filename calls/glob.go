package calls

import "strings"

// MatchURL reports whether url matches glob, in waymark's one URL-glob
// dialect, used wherever a URL is matched (a wait for a URL, a routine's
// verify step, the agent loop's expected effects, a test plan's expect):
//
//   - * matches any run of characters, slashes included; ? matches any one
//     character (so it also matches a literal ?); every other character
//     matches itself, case included.
//   - The glob must match the whole of what it is compared with: the whole
//     URL (fragment included), or, for a glob that starts with /, the
//     URL's path with its query, or its path alone. So /orders/* matches
//     https://shop.example/orders/12?ref=mail, and /search matches
//     https://shop.example/search?q=lamp.
//
// Every glob is valid: there is nothing to compile and nothing to fail.
func MatchURL(glob, url string) bool {
	if wildcard(glob, url) {
		return true
	}
	if !strings.HasPrefix(glob, "/") {
		return false
	}
	rest := url
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
		if j := strings.IndexAny(rest, "/?#"); j >= 0 {
			rest = rest[j:]
		} else {
			rest = ""
		}
	}
	rest, _, _ = strings.Cut(rest, "#")
	path, _, _ := strings.Cut(rest, "?")
	if path == "" {
		path = "/"
		if rest != "" {
			rest = "/" + rest
		}
	}
	return wildcard(glob, rest) || wildcard(glob, path)
}

// wildcard matches s against the whole glob, rune by rune: the classic
// backtracking match, which goes back only to the last *.
func wildcard(glob, s string) bool {
	g, t := []rune(glob), []rune(s)
	gi, ti := 0, 0
	star, mark := -1, 0
	for ti < len(t) {
		switch {
		case gi < len(g) && (g[gi] == '?' || g[gi] == t[ti]):
			gi++
			ti++
		case gi < len(g) && g[gi] == '*':
			star, mark = gi, ti
			gi++
		case star >= 0:
			gi = star + 1
			mark++
			ti = mark
		default:
			return false
		}
	}
	for gi < len(g) && g[gi] == '*' {
		gi++
	}
	return gi == len(g)
}
