package locator

import "strings"

// normalize lowers the case of s, trims it and turns each run of white space
// (NBSP included) into one space.
func normalize(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// same reports whether a and b are equal after normalizing both; an empty
// want matches nothing, so a locator never matches by accident.
func same(have, want string) bool {
	w := normalize(want)
	return w != "" && normalize(have) == w
}

// quote puts s in double quotes, escaping backslashes and double quotes.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// needsQuotes reports whether s would not read back unquoted: it is empty,
// has white space at an end, or starts with a quote.
func needsQuotes(s string) bool {
	return s == "" || strings.TrimSpace(s) != s || s[0] == '"' || s[0] == '\''
}
