package locator

import (
	"errors"
	"fmt"
	"strings"
)

// ErrSyntax is matched by every error of [Parse].
var ErrSyntax = errors.New("bad locator")

// forms ends the message of a locator that is not understood.
const forms = `locators are @e12 (a ref from the outline), role=button, ` +
	`role=button[name="Pay now"], text=Continue, text="Continue" (exact), ` +
	`label=Email, placeholder=Search, testid=submit, css=#go`

// hints maps kinds other tools use to the locator to write instead.
var hints = map[string]string{
	"id":          "css=#%s",
	"class":       "css=.%s",
	"data-testid": "testid=%s",
	"test-id":     "testid=%s",
	"aria-label":  "label=%s",
	"label-text":  "label=%s",
	"name":        `css=[name="%s"]`,
}

func syntaxErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrSyntax}, args...)...)
}

// Parse reads a locator in one of the forms of the package comment. White
// space around the whole is ignored, and the kind before "=" may be in any
// case. Every error matches [ErrSyntax] and says which forms are accepted.
func Parse(s string) (Locator, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return Locator{}, syntaxErr("empty locator; %s", forms)
	}
	if isRef(t) {
		return Locator{Kind: Ref, Value: "e" + t[strings.IndexAny(t, "eE")+1:]}, nil
	}
	if key, val, ok := strings.Cut(t, "="); ok && isWord(strings.TrimSpace(key)) {
		return parseKind(strings.ToLower(strings.TrimSpace(key)), val)
	}
	switch {
	case strings.HasPrefix(t, "/") || strings.HasPrefix(t, "(/"):
		return Locator{}, syntaxErr("%q looks like XPath, which is not supported; %s", t, noXPath)
	case t[0] == '@':
		return Locator{}, syntaxErr("%q is not a ref; refs look like @e12, as the outline shows them", t)
	case strings.ContainsAny(t[:1], "#.[") || strings.Contains(t, " > "):
		return Locator{}, syntaxErr("%q is not a locator; for a CSS selector write css=%s; %s", t, t, forms)
	}
	return Locator{}, syntaxErr("%q is not a locator; did you mean text=%s? %s", t, quote(t), forms)
}

const noXPath = `use css=… for a CSS selector, or role=…[name="…"] or text=… for what the outline shows`

func parseKind(kind, val string) (Locator, error) {
	switch Kind(kind) {
	case Role:
		return parseRole(val)
	case Text, Label, Placeholder:
		v, quoted, err := parseValue(kind, val)
		if err != nil {
			return Locator{}, err
		}
		if strings.TrimSpace(v) == "" {
			return Locator{}, syntaxErr("%s= has only white space, which matches nothing; give the %s to find", kind, kind)
		}
		return Locator{Kind: Kind(kind), Value: v, Exact: quoted}, nil
	case TestID:
		v, _, err := parseValue(kind, val)
		if err != nil {
			return Locator{}, err
		}
		return Locator{Kind: TestID, Value: v, Exact: true}, nil
	case CSS:
		v := strings.TrimSpace(val)
		if v == "" {
			return Locator{}, syntaxErr("css= needs a selector, as in css=#go")
		}
		return Locator{Kind: CSS, Value: v}, nil
	case Ref:
		return Locator{}, syntaxErr("write a ref as @e12 or e12, not ref=; %s", forms)
	case "xpath":
		return Locator{}, syntaxErr("xpath= is not supported; %s", noXPath)
	}
	if h, ok := hints[kind]; ok {
		v := strings.Trim(strings.TrimSpace(val), `"'`)
		return Locator{}, syntaxErr("unknown locator kind %q; write "+h+" instead", kind, v)
	}
	return Locator{}, syntaxErr("unknown locator kind %q; %s", kind, forms)
}

// parseValue reads the value after "kind=": quoted, or else trimmed.
func parseValue(kind, val string) (v string, quoted bool, err error) {
	v = strings.TrimSpace(val)
	if v == "" {
		return "", false, syntaxErr("%s= needs a value, as in %s=Continue or %s=\"Continue\"", kind, kind, kind)
	}
	if v[0] != '"' && v[0] != '\'' {
		return v, false, nil
	}
	v, rest, err := unquote(v)
	if err != nil {
		return "", false, err
	}
	if strings.TrimSpace(rest) != "" {
		return "", false, syntaxErr("unexpected %q after the closing quote of %s=; escape quotes inside a value with \\", rest, kind)
	}
	if v == "" {
		return "", false, syntaxErr("%s=\"\" is empty and matches nothing; give the %s to find", kind, kind)
	}
	return v, true, nil
}

// parseRole reads the part after "role=": a role, then optionally
// [name="…"] or [name=…].
func parseRole(val string) (Locator, error) {
	v := strings.TrimSpace(val)
	n := 0
	for n < len(v) && (isLetter(v[n]) || v[n] == '-') {
		n++
	}
	if n == 0 {
		return Locator{}, syntaxErr("role= needs a role such as button, link or textbox, as in role=button[name=\"Pay now\"]")
	}
	l := Locator{Kind: Role, Value: strings.ToLower(v[:n])}
	rest := strings.TrimSpace(v[n:])
	if rest == "" {
		return l, nil
	}
	name, err := parseNameAttr(rest)
	if err != nil {
		return Locator{}, err
	}
	if strings.TrimSpace(name) == "" {
		return Locator{}, syntaxErr("the name in role=%s[name=…] is empty; leave out [name=…] to match any %s", l.Value, l.Value)
	}
	l.Name, l.HasName, l.Exact = name, true, true
	return l, nil
}

// parseNameAttr reads `[name="…"]`, `[name='…']` or `[name=…]`, which must
// be all of s.
func parseNameAttr(s string) (string, error) {
	bad := func(what string) error {
		return syntaxErr("%s in %q; after the role only [name=\"…\"] may follow, as in role=button[name=\"Pay now\"]", what, s)
	}
	if s[0] != '[' {
		return "", bad("unexpected text")
	}
	in := strings.TrimLeft(s[1:], " \t")
	if len(in) < 4 || !strings.EqualFold(in[:4], "name") {
		return "", bad("unknown attribute")
	}
	in = strings.TrimLeft(in[4:], " \t")
	if in == "" || in[0] != '=' {
		return "", bad(`missing "=" after name`)
	}
	in = strings.TrimLeft(in[1:], " \t")
	var name, rest string
	if in != "" && (in[0] == '"' || in[0] == '\'') {
		var err error
		if name, rest, err = unquote(in); err != nil {
			return "", err
		}
	} else {
		end := strings.IndexByte(in, ']')
		if end < 0 {
			return "", bad(`missing "]"`)
		}
		name, rest = strings.TrimSpace(in[:end]), in[end:]
	}
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" || rest[0] != ']' {
		return "", bad(`missing "]" after the name`)
	}
	if strings.TrimSpace(rest[1:]) != "" {
		return "", bad("unexpected text after \"]\"")
	}
	return name, nil
}

// unquote reads the quoted string at the start of s, which starts with ' or
// ", and returns its value and what follows the closing quote. A backslash
// makes the next byte literal.
func unquote(s string) (v, rest string, err error) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '\\':
			return "", "", syntaxErr("%s ends with a lone backslash; write \\\\ for a backslash", s)
		case c == q:
			return b.String(), s[i+1:], nil
		default:
			b.WriteByte(c)
		}
	}
	return "", "", syntaxErr("missing closing %c in %s", q, s)
}

// isRef reports whether s is @e12 or e12 (e in either case).
func isRef(s string) bool {
	s = strings.TrimPrefix(s, "@")
	if len(s) < 2 || s[0]|0x20 != 'e' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isWord reports whether s is a kind: ASCII letters and hyphens.
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
