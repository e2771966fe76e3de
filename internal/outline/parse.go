package outline

import (
	"strconv"
	"strings"
)

// Line is one element line of a rendered outline, read back: the reading
// of what appendLine writes, for the layers that only have the text (the
// pilot, the replay, the rules model, the CLI).
type Line struct {
	Depth int    // indentation level: two spaces a level
	Role  string // "text" for a text run
	Name  string // unquoted; "" when the line has none
	// Inferred says Name is not the page's own name but what a person
	// reads beside the element, written ~"…".
	Inferred bool
	Ref      string   // "e5" from [ref=e5]; "" when the line has none
	Value    string   // unquoted, from value="…"
	URL      string   // unquoted, from url="…" (snapshot --urls)
	Flags    []string // the other bracketed flags as written: "checked", "level=1", "expanded=false"
	Text     string   // what follows ": " (a text run, or the text shown inline)
	Raw      string   // the line as written, without indentation and "- "
}

// Has reports whether the line carries flag, as written ("disabled",
// "level=1").
func (l Line) Has(flag string) bool {
	for _, f := range l.Flags {
		if f == flag {
			return true
		}
	}
	return false
}

// ParseLine reads one element line, `- role "name" [flag] [ref=e5]
// value="v"` (or `- role ~"name" …` for an inferred name), with optional indentation and an optional ":" and text after.
// It reports false for the other lines of a look: the page header, notice
// lines ("[sign-in] …"), the summaries of lines off screen, the lines of
// a diff ("- - …", "+ - …"), and a name whose quoting is broken.
func ParseLine(s string) (Line, bool) {
	trimmed := strings.TrimLeft(s, " ")
	rest, ok := strings.CutPrefix(strings.TrimSpace(trimmed), "- ")
	if !ok {
		return Line{}, false
	}
	l := Line{Depth: (len(s) - len(trimmed)) / 2, Raw: rest}
	i := 0
	for i < len(rest) && (rest[i] >= 'a' && rest[i] <= 'z' || rest[i] == '-') {
		i++
	}
	l.Role, rest = rest[:i], rest[i:]
	if l.Role == "" || l.Role[0] == '-' {
		// A role is a word; "- - …" and "+ - …" are the lines of a diff.
		return Line{}, false
	}
	rest = strings.TrimLeft(rest, " ")
	if strings.HasPrefix(rest, `~"`) {
		rest, l.Inferred = rest[1:], true
	}
	if strings.HasPrefix(rest, `"`) {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return Line{}, false
		}
		l.Name, _ = strconv.Unquote(q)
		rest = strings.TrimLeft(rest[len(q):], " ")
	}
	for strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			break
		}
		flag := rest[1:end]
		if ref, ok := strings.CutPrefix(flag, "ref="); ok {
			l.Ref = ref
		} else {
			l.Flags = append(l.Flags, flag)
		}
		rest = strings.TrimLeft(rest[end+1:], " ")
	}
	if v, ok := strings.CutPrefix(rest, "value="); ok {
		if q, err := strconv.QuotedPrefix(v); err == nil {
			l.Value, _ = strconv.Unquote(q)
			rest = v[len(q):]
		}
	}
	if v, ok := strings.CutPrefix(strings.TrimLeft(rest, " "), "url="); ok {
		if q, err := strconv.QuotedPrefix(v); err == nil {
			l.URL, _ = strconv.Unquote(q)
			rest = v[len(q):]
		}
	}
	if t, ok := strings.CutPrefix(rest, ":"); ok {
		l.Text = strings.TrimPrefix(t, " ")
	}
	return l, true
}

// Parse reads the element lines of an outline, in order. The lines it
// cannot read (the page header, notices, summaries) are skipped.
func Parse(text string) []Line {
	var out []Line
	for _, s := range strings.Split(text, "\n") {
		if l, ok := ParseLine(s); ok {
			out = append(out, l)
		}
	}
	return out
}

// FindRef returns the element line that carries ref (e5, not @e5). Notice
// lines may name the refs of their controls, but they are not the element.
func FindRef(text, ref string) (Line, bool) {
	if ref == "" {
		return Line{}, false
	}
	tag := "[ref=" + ref + "]"
	for _, s := range strings.Split(text, "\n") {
		if !strings.Contains(s, tag) {
			continue // most lines: no need to read them
		}
		if l, ok := ParseLine(s); ok && l.Ref == ref {
			return l, true
		}
	}
	return Line{}, false
}
