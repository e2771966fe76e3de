package testplan

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/locator"
)

// A string step splits at spaces, and an unquoted text=, label= or
// placeholder= locator matches any element whose text holds it, so
// `fill label=Full name Ann Lee` reads as label=Full typing "name Ann
// Lee" and passes, having typed the wrong words into "Full name" (issue
// 28). Before a step acts, its target's element is located and its name
// compared with the locator:
//
//   - the unquoted locator followed by the step's next words is (the start
//     of) the element's name: the line split inside the name. The step is
//     refused, nothing done: it would otherwise pass having typed or
//     chosen the wrong value, the worst a test can do, and the fix (the
//     quoted line the message gives) is mechanical.
//   - the locator matches only part of the element's name: the step runs
//     (a part is how the grammar finds "Cart (3)" by text=Cart), with a
//     warning in its progress line and the report saying which element
//     it matched and how to name it whole.

// checkedTarget is the element a step names by its first argument: the
// one it acts on (target), or the field an expect value reads.
func checkedTarget(st *Step, target string) string {
	if target == "" && st.Verb == "expect" && st.Kind == "value" && len(st.Args) > 0 {
		return strings.TrimSpace(st.Args[0])
	}
	return target
}

// checkTarget looks at the element target (the step's first argument,
// expanded) names before the step acts: an error refuses the step, and
// the warnings go into its result. The element is looked up once; a
// target that does not resolve is left for the action to report.
func (s *scenarioRun) checkTarget(ctx context.Context, st *Step, target string, res *StepResult) error {
	l, err := locator.Parse(target)
	if err != nil || l.Exact || (l.Kind != locator.Text && l.Kind != locator.Label && l.Kind != locator.Placeholder) {
		return nil
	}
	ev, err := s.page().Locate(ctx, calls.LocateRequest{Target: target})
	if err != nil {
		return nil
	}
	next := ""
	if st.bareTarget && len(st.Args) > 1 {
		next = s.expand(st.Args[1])
	}
	refuse, warn := targetWords(st, l, next, ev)
	if refuse != "" {
		return calls.Errorf(calls.ErrBadInput, "quote the locator when the step goes on after it", "%s; write: %s", s.mask(warn), s.mask(refuse))
	}
	if warn != "" {
		res.Warnings = append(res.Warnings, s.mask(warn))
	}
	return nil
}

// targetWords compares the locator l (unquoted: a part of the name
// matches) with the element fp it matched. next is the step's argument
// after the locator when the locator was written bare on a line that
// went on (else ""). It returns the line to write instead when the line
// split inside the element's name (refuse, with warn the reason), or a
// warning when l matched only part of the name.
func targetWords(st *Step, l locator.Locator, next string, ev *calls.Evidence) (refuse, warn string) {
	fp := ev.Fingerprint
	have := fp.Text
	switch l.Kind {
	case locator.Label:
		have = fp.Label
		if have == "" {
			have = fp.Name
		}
	case locator.Placeholder:
		have = fp.Placeholder
	}
	if have == "" && l.Kind == locator.Text {
		have = fp.Name
	}
	name, val := norm(have), norm(l.Value)
	if name == "" || name == val {
		return "", ""
	}
	// The fingerprint keeps words in lower case; the candidates hold them
	// as the page writes them.
	for _, c := range ev.Candidates {
		if cl, err := locator.Parse(c.Value); err == nil {
			if cl.Kind == l.Kind && norm(cl.Value) == name {
				have = cl.Value
			} else if cl.HasName && norm(cl.Name) == name {
				have = cl.Name
			}
		}
	}
	what := fmt.Sprintf("%s %q", fp.Role, have)
	if fp.Role == "" {
		what = fmt.Sprintf("%q", have)
	}
	// The longest run of the next words that carries the name on.
	words := strings.Fields(next)
	k := 0
	for i := 1; i <= len(words); i++ {
		if wordPrefix(name, norm(l.Value+" "+strings.Join(words[:i], " "))) {
			k = i
		}
	}
	if k > 0 {
		loc := string(l.Kind) + "=" + strings.Join(append([]string{l.Value}, words[:k]...), " ")
		if norm(strings.Join(append([]string{l.Value}, words[:k]...), " ")) == name {
			loc = string(l.Kind) + "=" + fmt.Sprintf("%q", strings.Join(append([]string{l.Value}, words[:k]...), " "))
		}
		args := []string{loc}
		if rest := strings.Join(words[k:], " "); rest != "" {
			args = append(args, rest)
		}
		args = append(args, st.Args[min(2, len(st.Args)):]...)
		return Line(st.Verb, st.Kind, args...), fmt.Sprintf(
			"%s=%s matched %s, whose name goes on with this step's next words: the line split inside the name at a space (an argument that is not the last is quoted when it holds spaces); nothing was done",
			l.Kind, l.Value, what)
	}
	return "", fmt.Sprintf("%s=%s matched %s, only part of its %s; to name it whole write %s=%q", l.Kind, l.Value, what, l.Kind, l.Kind, strings.TrimSpace(have))
}

// norm is s in lower case with each run of white space one space, as the
// locator grammar compares.
func norm(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// wordPrefix reports whether name begins with p at a word's end.
func wordPrefix(name, p string) bool {
	if !strings.HasPrefix(name, p) {
		return false
	}
	rest := name[len(p):]
	return rest == "" || !unicode.IsLetter(rune(rest[0])) && !unicode.IsDigit(rune(rest[0]))
}
