package rules

import (
	"slices"
	"strings"
)

// Role words an instruction may use for a target, and the outline roles
// each stands for.
var roleWords = []struct {
	words []string
	roles []string
}{
	{[]string{"radio button", "radio"}, []string{"radio", "menuitemradio"}},
	{[]string{"check box", "checkbox", "tickbox", "tick box"}, []string{"checkbox", "menuitemcheckbox", "switch"}},
	{[]string{"search box", "searchbox", "search field"}, []string{"searchbox", "textbox", "combobox"}},
	{[]string{"text field", "text box", "textbox", "textarea", "field", "box", "input"}, []string{"textbox", "searchbox", "combobox", "spinbutton"}},
	{[]string{"drop-down", "drop down", "dropdown", "combobox", "combo box", "select", "listbox", "list box", "picker"}, []string{"combobox", "listbox"}},
	{[]string{"menu item", "menuitem"}, []string{"menuitem", "menuitemcheckbox", "menuitemradio"}},
	{[]string{"button"}, []string{"button"}},
	{[]string{"link"}, []string{"link"}},
	{[]string{"tab"}, []string{"tab"}},
	{[]string{"switch", "toggle"}, []string{"switch", "checkbox"}},
	{[]string{"slider"}, []string{"slider"}},
	{[]string{"option"}, []string{"option", "radio"}},
}

// kinds lists the roles an action may take; nil means any.
var kinds = map[Action][]string{
	ActionFill:    {"textbox", "searchbox", "combobox", "spinbutton"},
	ActionType:    {"textbox", "searchbox", "combobox", "spinbutton"},
	ActionSelect:  {"combobox", "listbox"},
	ActionCheck:   {"checkbox", "switch", "radio", "menuitemcheckbox", "menuitemradio"},
	ActionUncheck: {"checkbox", "switch", "menuitemcheckbox"},
}

// choosable is what "select X" with no container may name.
var choosable = []string{"radio", "menuitemradio", "option", "tab", "checkbox", "switch", "menuitemcheckbox"}

// query is one reading of a target phrase: a name and the roles a role
// word narrows it to (nil for any).
type query struct {
	name  string
	roles []string
}

var refRe = lazyRE(`^@?(e[0-9]+)$`)

// readings returns the ways to read a target phrase, best first: with its
// role word taken as a role ("the Sign in button" → button "sign in"), the
// same name in any role (a link styled as a button), the whole phrase as a
// name (a button called "Dark mode toggle"), and the phrase with its quotes
// kept (a link called `Road Racer "Pro"`).
func readings(phrase string) []query {
	p, q := protect(phrase)
	p = strings.TrimSpace(p)
	if onlyQuoted(p) {
		return []query{{name: norm(q.restore(p))}}
	}
	low := strings.ToLower(articles(p))
	whole := norm(q.restore(low))
	var out []query
	for _, rw := range roleWords {
		for _, w := range rw.words {
			var rest string
			switch {
			case strings.HasSuffix(low, " "+w):
				rest = strings.TrimSuffix(low, " "+w)
			case strings.HasPrefix(low, w+" "):
				rest = strings.TrimPrefix(low, w+" ")
			default:
				continue
			}
			name := norm(q.restore(strings.TrimPrefix(rest, "the ")))
			out = append(out, query{name, rw.roles}, query{name: name})
		}
		if len(out) > 0 {
			break
		}
	}
	out = append(out, query{name: whole})
	if raw := norm(articles(phrase)); raw != whole {
		out = append(out, query{name: raw})
	}
	return out
}

// articles drops a leading "the", "a", "an" or "on the".
func articles(s string) string {
	low := strings.ToLower(strings.TrimSpace(s))
	for _, a := range []string{"on the ", "the ", "a ", "an "} {
		if strings.HasPrefix(low, a) {
			return strings.TrimSpace(s)[len(a):]
		}
	}
	return strings.TrimSpace(s)
}

// norm folds case and spacing, and drops the marks names carry around
// them: "Email *" and "Email:" are "email".
func norm(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	s = strings.TrimRight(s, " :*…")
	return strings.Trim(s, `"'“”‘’`)
}

// find chooses the one element a target phrase names among els, for an
// action. roles, when set, restricts the search (what the action takes).
func find(els []element, phrase string, action Action, roles []string) (element, string, error) {
	e, how, err := findQuoted(els, phrase, action, roles)
	if te, ok := err.(*TargetError); ok {
		p, q := protect(te.Want)
		te.Want = q.restore(p)
	}
	return e, how, err
}

func findQuoted(els []element, phrase string, action Action, roles []string) (element, string, error) {
	if m := refRe().FindStringSubmatch(strings.TrimSpace(phrase)); m != nil {
		for _, e := range els {
			if e.Ref == m[1] {
				return check(e, phrase, action, roles, "by ref")
			}
		}
	}
	for _, rd := range readings(phrase) {
		pool := els
		if rd.roles != nil {
			pool = filter(els, rd.roles)
		}
		right := pool
		if roles != nil {
			right = filter(pool, roles)
		}
		best, how := rank(right, rd.name)
		switch {
		case len(best) == 1:
			return check(best[0], phrase, action, nil, how)
		case len(best) > 1:
			// A later, looser reading might single one out, but that
			// would be a guess.
			return element{}, "", &TargetError{Action: action, Want: phrase, Roles: rd.roles, Candidates: lines(best), Err: ErrAmbiguous}
		}
		if roles != nil {
			// Something of the wrong kind by that name says more than
			// "not found".
			if wrong, _ := rank(pool, rd.name); len(wrong) > 0 {
				return element{}, "", &TargetError{Action: action, Want: phrase, Roles: roles, Candidates: lines(wrong), Err: ErrWrongKind}
			}
		}
	}
	return element{}, "", &TargetError{Action: action, Want: phrase, Roles: roles, Err: ErrNoMatch}
}

// check vets a chosen element: its kind, and that it is enabled.
func check(e element, phrase string, action Action, roles []string, how string) (element, string, error) {
	if roles != nil && !slices.Contains(roles, e.Role) {
		return element{}, "", &TargetError{Action: action, Want: phrase, Roles: roles, Candidates: []string{e.Raw}, Err: ErrWrongKind}
	}
	if e.Has("disabled") {
		return element{}, "", &TargetError{Action: action, Want: phrase, Candidates: []string{e.Raw}, Err: ErrDisabled}
	}
	return e, how, nil
}

// rank returns the elements whose names match name best: exactly, else by
// prefix, else by substring; with how they matched.
func rank(els []element, name string) ([]element, string) {
	if name == "" {
		return nil, ""
	}
	tiers := []struct {
		how string
		ok  func(string) bool
	}{
		{"exact name", func(n string) bool { return n == name }},
		{"name prefix", func(n string) bool { return strings.HasPrefix(n, name) }},
		{"name substring", func(n string) bool { return strings.Contains(n, name) }},
	}
	for _, t := range tiers {
		var out []element
		for _, e := range els {
			if t.ok(norm(e.Name)) {
				out = append(out, e)
			}
		}
		if len(out) > 0 {
			return out, t.how
		}
	}
	return nil, ""
}

func filter(els []element, roles []string) []element {
	var out []element
	for _, e := range els {
		if slices.Contains(roles, e.Role) {
			out = append(out, e)
		}
	}
	return out
}

func lines(els []element) []string {
	out := make([]string, len(els))
	for i, e := range els {
		out[i] = e.Raw
	}
	return out
}
