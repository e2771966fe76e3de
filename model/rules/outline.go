package rules

import (
	"strconv"
	"strings"
)

// element is one line of the outline that has a ref.
type element struct {
	role, name, ref, value string
	flags                  []string // "checked", "disabled", "level=1", …
	line                   string   // the line as written, without indentation and "- "
}

func (e element) has(flag string) bool {
	for _, f := range e.flags {
		if f == flag {
			return true
		}
	}
	return false
}

// parseOutline reads the elements with refs from an outline. Lines it
// cannot read (the page header, summaries, text) are skipped.
func parseOutline(text string) []element {
	var out []element
	for _, raw := range strings.Split(text, "\n") {
		if e, ok := parseLine(strings.TrimSpace(raw)); ok && e.ref != "" {
			out = append(out, e)
		}
	}
	return out
}

// parseLine reads `- role "name" [flag] [ref=e5] value="v"`, with an
// optional ":" and text after.
func parseLine(l string) (element, bool) {
	rest, ok := strings.CutPrefix(l, "- ")
	if !ok {
		return element{}, false
	}
	e := element{line: rest}
	i := 0
	for i < len(rest) && (rest[i] >= 'a' && rest[i] <= 'z' || rest[i] == '-') {
		i++
	}
	e.role, rest = rest[:i], rest[i:]
	if e.role == "" {
		return element{}, false
	}
	rest = strings.TrimLeft(rest, " ")
	if strings.HasPrefix(rest, `"`) {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return element{}, false
		}
		e.name, _ = strconv.Unquote(q)
		rest = strings.TrimLeft(rest[len(q):], " ")
	}
	for strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			break
		}
		flag := rest[1:end]
		if ref, ok := strings.CutPrefix(flag, "ref="); ok {
			e.ref = ref
		} else {
			e.flags = append(e.flags, flag)
		}
		rest = strings.TrimLeft(rest[end+1:], " ")
	}
	if v, ok := strings.CutPrefix(rest, "value="); ok {
		if q, err := strconv.QuotedPrefix(v); err == nil {
			e.value, _ = strconv.Unquote(q)
		}
	}
	return e, true
}
