package rules

import (
	"slices"
	"strconv"
	"strings"
)

// Role words an instruction may use for a target, and the outline roles
// each stands for.
var roleWords = []struct {
	words []string
	roles []string
	// types, when set, narrows the roles to fields of these input types
	// ([type=date]); such a word names a field only at the phrase's end
	// ("the date", "the Start date"), never before a name.
	types []string
	// results: the links of a page's results, those after its last text
	// field (the search box), are what is counted ("the 9th result").
	results bool
}{
	{words: []string{"radio button", "radio"}, roles: []string{"radio", "menuitemradio"}},
	{words: []string{"check box", "checkbox", "tickbox", "tick box"}, roles: []string{"checkbox", "menuitemcheckbox", "switch"}},
	{words: []string{"search box", "searchbox", "search field"}, roles: []string{"searchbox", "textbox", "combobox"}},
	{words: []string{"number field", "number box", "number input", "spinbutton"}, roles: []string{"spinbutton"}},
	{words: []string{"date field", "date input", "date box", "date picker", "datepicker", "date"}, roles: []string{"textbox", "combobox", "spinbutton"},
		types: []string{"date", "datetime-local"}},
	{words: []string{"text field", "text box", "textbox", "text input", "text area", "textarea", "input field", "input box", "entry field", "field", "box", "input"},
		roles: []string{"textbox", "searchbox", "combobox", "spinbutton"}},
	{words: []string{"drop-down list", "dropdown list", "drop-down", "drop down", "dropdown", "combobox", "combo box", "select list", "selection list",
		"select", "listbox", "list box", "list of options", "options list", "list", "picker"}, roles: []string{"combobox", "listbox"}},
	{words: []string{"menu item", "menuitem"}, roles: []string{"menuitem", "menuitemcheckbox", "menuitemradio"}},
	{words: []string{"button"}, roles: []string{"button"}},
	{words: []string{"search result", "result"}, roles: []string{"link"}, results: true},
	{words: []string{"link"}, roles: []string{"link"}},
	{words: []string{"tab"}, roles: []string{"tab"}},
	{words: []string{"switch", "toggle"}, roles: []string{"switch", "checkbox"}},
	{words: []string{"slider"}, roles: []string{"slider"}},
	{words: []string{"option"}, roles: []string{"option", "radio"}},
	// An icon is a control drawn as a picture: "the trash icon".
	{words: []string{"icon"}, roles: []string{"button", "link", "clickable", "menuitem"}},
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
	name    string
	roles   []string
	types   []string // input types the roles are narrowed to
	results bool     // counted among the page's results
	// exact is the name as quoted, case kept: "No" and "no" are two
	// names when the instruction quotes one of them.
	exact string
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
		return []query{{name: norm(q.restore(p)), exact: strings.Join(strings.Fields(q.restore(p)), " ")}}
	}
	low := strings.ToLower(articles(p))
	if m := reRowOf().FindStringSubmatch(articles(p)); m != nil {
		// "the email from Gretchen": the row that holds her name.
		low = strings.ToLower(m[1])
	}
	whole := norm(q.restore(low))
	var out []query
	for _, rw := range roleWords {
		for _, w := range rw.words {
			var rest string
			switch {
			case low == w:
				// "the checkbox": the role alone.
			case strings.HasSuffix(low, " "+w):
				rest = strings.TrimSuffix(low, " "+w)
			case strings.HasPrefix(low, w+" ") && rw.types == nil:
				rest = strings.TrimPrefix(low, w+" ")
			default:
				continue
			}
			name := norm(q.restore(strings.TrimPrefix(rest, "the ")))
			out = append(out, query{name: name, roles: rw.roles, types: rw.types, results: rw.results})
			if name != "" {
				out = append(out, query{name: name})
			}
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

// reRowOf reads "the email from X", "the message by X", "the row of X":
// a row (an inbox's, a table's) named by the text it holds.
var reRowOf = lazyRE(`(?i)^(?:the\s+)?(?:e-?mail|message|mail|row|item|entry|thread|conversation|record)\s+(?:from|by|of|for|named|called|with)\s+(.+)$`)

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
	nth, word, rest := ordinal(phrase)
	for _, rd := range readings(rest) {
		pool := els
		if rd.roles != nil {
			pool = filter(els, rd.roles)
		}
		if rd.types != nil {
			pool = slices.DeleteFunc(pool, func(e element) bool {
				return !slices.ContainsFunc(rd.types, func(t string) bool { return e.Has("type=" + t) })
			})
		}
		if rd.results {
			pool = results(pool, els)
		}
		right := pool
		if roles != nil {
			right = filter(pool, roles)
		}
		best, how := match(right, rd, nth != 0)
		best = innermost(best, els)
		if nth != 0 && len(best) > 0 {
			// "the second checkbox", "the last row's Delete": counted in
			// the page's order among all that match.
			i := nth - 1
			if nth < 0 {
				i = len(best) + nth
			}
			if i < 0 || i >= len(best) {
				return element{}, "", &TargetError{Action: action, Want: phrase, Roles: rd.roles, Candidates: lines(best), Err: ErrNoMatch}
			}
			return check(best[i], phrase, action, nil, how+", the "+word+" of "+strconv.Itoa(len(best)))
		}
		if len(best) > 1 && rd.exact != "" {
			// Quoted as written: a name that differs only in case is
			// another name.
			var same []element
			for _, e := range best {
				if strings.Join(strings.Fields(e.Name), " ") == rd.exact {
					same = append(same, e)
				}
			}
			if len(same) == 1 {
				return check(same[0], phrase, action, nil, how+" and case")
			}
		}
		switch {
		case len(best) == 1:
			return check(best[0], phrase, action, nil, how)
		case len(best) > 1:
			// A later, looser reading might single one out, but that
			// would be a guess.
			return element{}, "", &TargetError{Action: action, Want: phrase, Roles: rd.roles, Candidates: lines(best), Err: ErrAmbiguous}
		}
		if roles != nil && rd.name != "" {
			// Something of the wrong kind by that name says more than
			// "not found".
			if wrong, _ := rank(pool, rd.name); len(wrong) > 0 {
				return element{}, "", &TargetError{Action: action, Want: phrase, Roles: roles, Candidates: lines(wrong), Err: ErrWrongKind}
			}
		}
	}
	if action == ActionClick && nth == 0 {
		// No control is named so: a row that holds the name as text
		// ("click Gretchen" in an inbox) is opened by its one link.
		for _, rd := range readings(rest) {
			if rd.roles != nil || rd.name == "" {
				continue
			}
			best, how := rowMatch(els, rd.name)
			switch {
			case len(best) == 1:
				return check(best[0], phrase, action, nil, how)
			case len(best) > 1:
				return element{}, "", &TargetError{Action: action, Want: phrase, Candidates: lines(best), Err: ErrAmbiguous}
			}
		}
	}
	return element{}, "", &TargetError{Action: action, Want: phrase, Roles: roles, Err: ErrNoMatch}
}

// rowMatch returns, for the rows whose text holds name as whole words,
// the control that opens each: its one link, else its
// one button or clickable. A row with none, or with several, opens by
// nothing the rules may choose.
func rowMatch(els []element, name string) ([]element, string) {
	type row struct {
		Name string
		open []element
	}
	// rows are numbered in the outline's order.
	var order []int
	rows := map[int]*row{}
	for _, e := range els {
		if e.row == 0 {
			continue
		}
		r := rows[e.row]
		if r == nil {
			r = &row{Name: e.rowName}
			rows[e.row] = r
			order = append(order, e.row)
		}
		r.open = append(r.open, e)
	}
	// A row's text runs its cells together, so no tier of match is
	// better than another: every row that holds the name as whole words
	// counts.
	var out []element
	for _, n := range order {
		r := rows[n]
		if !strings.Contains(" "+norm(r.Name)+" ", " "+name+" ") {
			continue
		}
		opens := filter(r.open, []string{"link"})
		if len(opens) == 0 {
			opens = filter(r.open, []string{"button", "clickable"})
		}
		if len(opens) == 1 {
			out = append(out, opens[0])
		}
	}
	return out, "its row's text"
}

// match returns the elements of els a reading names, with how. A role
// alone ("the textbox") names the one element of that role; with an
// ordinal to come (all of them is what is counted), every element of the
// reading's roles.
func match(els []element, rd query, counting bool) ([]element, string) {
	switch {
	case rd.name == "" && rd.roles != nil:
		if !counting {
			// "the search box" names the searchbox before the other
			// roles the words may stand for.
			if first := filter(els, rd.roles[:1]); len(first) > 0 {
				return first, "its role"
			}
		}
		return els, "its role"
	case closeWords[rd.name]:
		var out []element
		for _, e := range els {
			if closeWords[norm(e.Name)] {
				out = append(out, e)
			}
		}
		if len(out) > 0 {
			out, how := ownFirst(out, "a close control")
			return out, how
		}
	}
	return rank(els, rd.name)
}

// closeWords are the names of a control that closes what it is in: the
// icon's letter, the symbols and the words used for it. "Close account"
// is not one.
var closeWords = map[string]bool{
	"x": true, "×": true, "✕": true, "✖": true, "╳": true, "close": true, "dismiss": true,
	"close dialog": true, "close modal": true, "close popup": true, "close window": true,
	"close banner": true, "close message": true, "close this": true, "close menu": true, "close panel": true,
}

// innermost drops an element that holds another of the same name among
// els: a button inside an accordion tab of its name is one control, and
// the button is what takes the action. all is the whole outline, for the
// chain of holders.
func innermost(els []element, all []element) []element {
	if len(els) < 2 {
		return els
	}
	byRef := make(map[string]element, len(all))
	for _, e := range all {
		byRef[e.Ref] = e
	}
	holds := map[string]bool{}
	for _, e := range els {
		for p := e.parent; p != ""; p = byRef[p].parent {
			if h, ok := byRef[p]; ok && norm(h.Name) == norm(e.Name) {
				holds[p] = true
			}
		}
	}
	if len(holds) == 0 {
		return els
	}
	var out []element
	for _, e := range els {
		if !holds[e.Ref] {
			out = append(out, e)
		}
	}
	return out
}

// results keeps the links that come after the page's last text field
// (its search box) in the page's order: the results, not the site's
// navigation above them. With no text field, all the links.
func results(links, all []element) []element {
	last := -1
	for i, e := range all {
		if slices.Contains(kinds[ActionFill], e.Role) {
			last = i
		}
	}
	if last < 0 {
		return links
	}
	after := map[string]bool{}
	for _, e := range all[last+1:] {
		after[e.Ref] = true
	}
	return slices.DeleteFunc(slices.Clone(links), func(e element) bool { return !after[e.Ref] })
}

// ordinals are the words that count ("the second checkbox").
var ordinals = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
	"eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
	"6th": 6, "7th": 7, "8th": 8, "9th": 9, "10th": 10, "last": -1,
}

var reNumbered = lazyRE(`^([0-9]+)(?:st|nd|rd|th)$`)

var reOrdinal = lazyRE(`(?i)^(?:the\s+)?([a-z0-9]+)\s+(?:(?:row|card|item|line|entry|result)(?:'s|’s)\s+)?(.+)$`)

// ordinal takes a counting word off a target phrase: "the second
// checkbox" is (2, "second", "checkbox"), "the last row's Delete" is
// (-1, "last", "Delete"). nth is 0 when the phrase does not count.
func ordinal(phrase string) (nth int, word, rest string) {
	m := reOrdinal().FindStringSubmatch(strings.TrimSpace(phrase))
	if m == nil {
		return 0, "", phrase
	}
	n, ok := ordinals[strings.ToLower(m[1])]
	if d := reNumbered().FindStringSubmatch(strings.ToLower(m[1])); !ok && d != nil {
		// "the 12th result"
		n, _ = strconv.Atoi(d[1])
		ok = n > 0
	}
	if !ok {
		return 0, "", phrase
	}
	return n, strings.ToLower(m[1]), m[2]
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
// prefix, else by substring; with how they matched. Within a tier the
// page's own names come before inferred ones (~"…", the text a person reads
// beside an unnamed element), which count only when no own name matches.
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
		// A substring counts from the start of a word: "x" is not in
		// "Text me".
		{"name substring", func(n string) bool { return strings.Contains(" "+n, " "+name) }},
	}
	for _, t := range tiers {
		var out []element
		for _, e := range els {
			if t.ok(norm(e.Name)) {
				out = append(out, e)
			}
		}
		if len(out) == 0 {
			continue
		}
		return ownFirst(out, t.how)
	}
	return nil, ""
}

// ownFirst keeps the elements named by the page itself when there are
// any: a name the outline infers (~"…") counts only when no own name does.
func ownFirst(els []element, how string) ([]element, string) {
	own := slices.DeleteFunc(slices.Clone(els), func(e element) bool { return e.Inferred })
	if len(own) > 0 {
		return own, how
	}
	return els, how + " (inferred)"
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
