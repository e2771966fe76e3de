package routine

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/lazyre"
)

// The words of a recorded step, shared by the recorders and replay: a
// step's instruction, an element's description, a variable's name.

// Words are an act step's words, for heals and for people, when no one
// said them (a step recorded by hand). They never hold a value: values are
// named by their variable.
func Words(st *Step) string {
	what := "the page"
	if st.Target != nil {
		what = st.Target.Describe()
	}
	slots := st.slots()
	var s string
	switch st.Op {
	case calls.ActFill, calls.ActType:
		s = fmt.Sprintf("%s %s with %s", st.Op, what, pct(slots))
	case calls.ActSelect:
		s = fmt.Sprintf("select %s in %s", pct(slots), what)
	case calls.ActUpload:
		s = fmt.Sprintf("upload %s to %s", pct(slots), what)
	case calls.ActPress:
		s = "press " + st.Key
		if st.Target != nil {
			s += " in " + what
		}
	case calls.ActScroll:
		s = scrollWords(st)
	case calls.ActClick, calls.ActDblClick:
		s = clickWords(st, what)
	default:
		s = st.Op + " " + what
	}
	if st.Target != nil && st.Target.Locator == "" {
		s += " (no locator was unique on the page when recorded: replay finds it by its fingerprint)"
	}
	return s
}

// scrollWords says how a scroll step scrolls: "scroll down 600 px",
// `scroll list "Results" left`, `scroll button "Pay" into view`.
func scrollWords(st *Step) string {
	s := "scroll"
	if st.Target != nil {
		s += " " + st.Target.Describe()
	}
	if st.Direction == "into-view" {
		return s + " into view"
	}
	s += " " + firstOf(st.Direction, "down")
	if st.Pixels > 0 {
		s += fmt.Sprintf(" %d px", st.Pixels)
	}
	return s
}

// clickWords says how a click step clicks what: click, right-click,
// double-click, triple-click, `middle-click link "Docs" 4 times`.
func clickWords(st *Step, what string) string {
	s := "click"
	if st.Button != "" && st.Button != "left" {
		s = st.Button + "-click"
	}
	n := st.Count
	if st.Op == calls.ActDblClick {
		n = 2
	}
	switch {
	case n == 2:
		s = "double-" + s
	case n == 3:
		s = "triple-" + s
	case n > 3:
		return fmt.Sprintf("%s %s %d times", s, what, n)
	}
	return s + " " + what
}

func pct(slots []string) string {
	if len(slots) == 0 {
		return "nothing"
	}
	return strings.Join(slots, ", ")
}

// roleName reads the role and name of a role locator:
// role=textbox[name="Full name"].
var roleName = lazyre.New(`^role=([a-z]+)\[name="((?:[^"\\]|\\.)*)"`)

// Describe names an element in the outline's words: role "name". The
// fingerprint's words are normalized to lower case; a role locator keeps
// the page's own.
func (t *Target) Describe() string {
	fp := t.Fingerprint
	for _, c := range t.Candidates {
		if m := roleName.FindStringSubmatch(c.Value); m != nil && m[1] == fp.Role {
			if n, err := strconv.Unquote(`"` + m[2] + `"`); err == nil && strings.EqualFold(n, fp.Name) {
				fp.Name = n
			}
			break
		}
	}
	what := firstOf(fp.Role, fp.Tag, "element")
	if n := firstOf(fp.Name, fp.Label, fp.Placeholder, fp.Text, fp.TestID, fp.ID); n != "" {
		if r := []rune(n); len(r) > 60 {
			n = string(r[:60]) + "…"
		}
		what += fmt.Sprintf(" %q", n)
	}
	return what
}

// VariableName is the name to propose for a value typed into fp (nil:
// no field): its label (else its name, placeholder, id or test id) in
// snake_case. A password field whose name speaks of a password is simply
// "password".
func VariableName(fp *calls.Fingerprint, isSecret bool) string {
	name := ""
	if fp != nil {
		for _, s := range []string{fp.Label, fp.Name, fp.Placeholder, fp.ID, fp.TestID} {
			if name = snake(s); name != "" {
				break
			}
		}
		if fp.Type == "password" && strings.Contains(name, "password") {
			name = "password"
		}
	}
	switch {
	case name != "":
	case isSecret:
		name = "secret"
	default:
		name = "value"
	}
	if name[0] >= '0' && name[0] <= '9' {
		name = "field_" + name
	}
	return name
}

// snake turns words into a variable name: "Full name" → full_name,
// "firstName" → first_name; at most five words, ASCII only.
func snake(s string) string {
	var words []string
	var w []rune
	flush := func() {
		if len(w) > 0 {
			words = append(words, string(w))
			w = w[:0]
		}
	}
	prev := rune(0)
	for _, r := range s {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			w = append(w, unicode.ToLower(r))
		default:
			flush()
		}
		prev = r
	}
	flush()
	if len(words) > 5 {
		words = words[:5]
	}
	return strings.Join(words, "_")
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// slots are the words of a step's values: %name% for a variable, a
// template as it is, a literal quoted.
func (st *Step) slots() []string {
	var out []string
	for _, v := range append([]*Value{st.Value}, st.Values...) {
		switch {
		case v == nil:
		case v.Slot != "":
			out = append(out, "%"+v.Slot+"%")
		case v.Template != "":
			out = append(out, v.Template)
		default:
			out = append(out, strconv.Quote(v.Literal))
		}
	}
	return out
}
