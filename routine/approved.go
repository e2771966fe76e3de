package routine

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/fold"
	"github.com/waymark-dev/waymark/internal/lazyre"
)

// Approved is a submit a person pressed while recording by hand (a click
// or key that sends, pays, deletes or confirms), with what the page was
// when they pressed it. A replay presses the step without asking while
// its element is found where it was (not moved, not healed) and the page
// still matches: the same action on the same control, on the same path,
// for a form with the same fields. Anything else asks again.
//
// The form's values are not kept: a replay fills its own (its variables),
// and a value may be a secret.
type Approved struct {
	Action  string   `json:"action"`           // "click", "press Enter"
	Path    string   `json:"path"`             // the page's path when pressed, without the query
	Control string   `json:"control"`          // the control, in the outline's words
	Why     string   `json:"why"`              // what made it a submit, calls.Approval's Why word for word: "submits the form"
	Fields  []string `json:"fields,omitempty"` // the names of the form's fields, sorted
	Sends   string   `json:"sends,omitempty"`  // the request it sent, when that is what made it a submit ("POST /pay": method and path)
	// Target is where the press sent the form: "POST /order" (method,
	// path and query) on the page's own origin, the whole URL on another
	// ("POST https://pay.example/order"); "POST (the page itself)" for a
	// form that posts to the page it is on, whatever its query.
	Target string `json:"target,omitempty"`
	// Fixed are the values of the form's fields the person could not
	// change on the page (hidden, readonly: an amount, a recipient), by
	// name; a per-load token (a field named like csrf, token, nonce) is
	// "*", there but not compared.
	Fixed map[string]string `json:"fixed,omitempty"`
}

// Describe says in one line what the person approved: the step, on
// which page, why it needed them, and what it sends: `click button
// "Place order" on /checkout: it submits the form; sends the form POST
// /order; fields email, name; fixed amount=10`.
func (ap *Approved) Describe() string {
	s := calls.Approval{Action: ap.Action, Control: ap.Control, URL: ap.Path, Why: ap.Why}.Line()
	if ap.Target != "" {
		s += "; sends the form " + ap.Target
	}
	if ap.Sends != "" {
		s += "; sends " + ap.Sends
	}
	if len(ap.Fields) > 0 {
		s += "; fields " + strings.Join(ap.Fields, ", ")
	}
	if len(ap.Fixed) > 0 {
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(ap.Fixed)) {
			kv = append(kv, k+"="+ap.Fixed[k])
		}
		s += "; fixed " + strings.Join(kv, ", ")
	}
	return s
}

// ApprovedOf is the expectation a person's press was made under, from the
// approval the driver gave for it.
func ApprovedOf(a calls.Approval) *Approved {
	ap := &Approved{Action: a.Action, Path: pathOf(a.URL), Control: a.Control, Why: a.Why, Sends: sendsOf(a.Sends), Target: targetOf(a.Target, a.URL)}
	for k := range a.Form {
		ap.Fields = append(ap.Fields, k)
	}
	slices.Sort(ap.Fields)
	for _, k := range a.Fixed {
		if ap.Fixed == nil {
			ap.Fixed = map[string]string{}
		}
		ap.Fixed[k] = a.Form[k]
		if perLoad.MatchString(k) {
			ap.Fixed[k] = "*"
		}
	}
	return ap
}

// perLoad matches the names of hidden fields a page fills anew on every
// load (a CSRF token, a nonce): their value is not part of what the
// person approved.
var perLoad = lazyre.New(`(?i)csrf|xsrf|token|nonce|authenticity|verification|viewstate|eventvalidation|captcha`)

// samePage is the target of a form that posts to its own page.
const samePage = "(the page itself)"

// targetOf is a form's target ("POST https://shop/order?x=1") as the
// routine keeps it: method, path and query on the page's own origin, the
// whole URL (without its fragment) on another.
func targetOf(target, page string) string {
	method, raw, ok := strings.Cut(target, " ")
	if !ok {
		return target
	}
	u, err := url.Parse(raw)
	if err != nil {
		return target
	}
	u.Fragment, u.RawFragment = "", ""
	p, err := url.Parse(page)
	if err == nil && p.Scheme == u.Scheme && p.Host == u.Host && p.Path == u.Path && p.RawQuery == u.RawQuery {
		// A form with no action posts to its page, whose query may
		// differ from run to run (a cart's id): the path is checked.
		return method + " " + samePage
	}
	if err == nil && p.Scheme == u.Scheme && p.Host == u.Host {
		u.Scheme, u.Host, u.User = "", "", nil
		if u.Path == "" {
			u.Path = "/"
		}
	}
	return method + " " + u.String()
}

// Differs says how the page's approval now differs from what the person
// approved, or "" when it matches.
func (ap *Approved) Differs(now calls.Approval) string {
	got := ApprovedOf(now)
	switch {
	case got.Action != ap.Action:
		return fmt.Sprintf("it would %s, not %s", got.Action, ap.Action)
	case got.Control != ap.Control && !ap.sameControl(got):
		return fmt.Sprintf("the control is %s, not %s", calls.ShownControl(got.Control), calls.ShownControl(ap.Control))
	case got.Path != ap.Path:
		return fmt.Sprintf("the page is %s, not %s", got.Path, ap.Path)
	case got.Why != ap.Why && !(ap.sameControl(got) && wordsCommit(got.Why) && wordsCommit(ap.Why)):
		now, was := calls.WhyPhrase(got.Why), calls.WhyPhrase(ap.Why)
		if now == was {
			// Two of the submit check's older reasons that say the same
			// ("Enter on it submits the form", "Enter in a form field …").
			return fmt.Sprintf("the reason is %q, not %q", got.Why, ap.Why)
		}
		return fmt.Sprintf("it %s, not %s", now, was)
	case !slices.Equal(got.Fields, ap.Fields):
		var added, gone []string
		for _, f := range got.Fields {
			if !slices.Contains(ap.Fields, f) {
				added = append(added, f)
			}
		}
		for _, f := range ap.Fields {
			if !slices.Contains(got.Fields, f) {
				gone = append(gone, f)
			}
		}
		var parts []string
		if len(added) > 0 {
			parts = append(parts, "new fields "+strings.Join(added, ", "))
		}
		if len(gone) > 0 {
			parts = append(parts, "no longer "+strings.Join(gone, ", "))
		}
		return "the form changed: " + strings.Join(parts, "; ")
	case got.Sends != ap.Sends:
		return fmt.Sprintf("it sends %s, not %s", orNothing(got.Sends), orNothing(ap.Sends))
	case got.Target != ap.Target:
		if got.Target == "" || ap.Target == "" {
			return fmt.Sprintf("it sends a form to %s, not %s", orNone(got.Target), orNone(ap.Target))
		}
		return fmt.Sprintf("the form goes to %s, not %s", got.Target, ap.Target)
	}
	return fixedDiff(ap.Fixed, got.Fixed)
}

// sameControl says whether the control pressed now is the one the person
// approved although its words changed, for a control whose words are not
// what it sends (not an input's value): in case only ("PLACE ORDER"), or
// in words ("Bestellen") while its role, the send it makes (where the
// form goes, or the request held) and the numbers in its words stayed.
// Moved or re-found controls never get here (replay asks for them first),
// and the target, the fields and the hidden values are compared after.
func (ap *Approved) sameControl(got *Approved) bool {
	role, _, _ := strings.Cut(ap.Control, ` "`)
	gotRole, _, _ := strings.Cut(got.Control, ` "`)
	switch {
	case role != gotRole || strings.HasPrefix(role, "input"):
		return false // an input's words are its value, which it sends
	case strings.EqualFold(fold.Fold(got.Control), fold.Fold(ap.Control)):
		return true
	case ap.Target == "" && ap.Sends == "":
		return false // nothing but its words says what it does
	case got.Target != ap.Target || got.Sends != ap.Sends:
		return false
	}
	return slices.Equal(numbers.FindAllString(got.Control, -1), numbers.FindAllString(ap.Control, -1))
}

// numbers are the runs of digits in a control's words: an amount on a
// button ("Pay $10,000") is part of what was approved.
var numbers = lazyre.New(`[0-9]+`)

// wordsCommit says whether why is the check's "its words commit: …",
// which quotes the control's words.
func wordsCommit(why string) bool { return strings.HasPrefix(why, "its words commit:") }

// fixedDiff says which of the form's fixed fields changed, or "".
func fixedDiff(was, now map[string]string) string {
	names := slices.Sorted(maps.Keys(was))
	for k := range now {
		if _, ok := was[k]; !ok {
			names = append(names, k)
		}
	}
	for _, k := range names {
		w, wok := was[k]
		n, nok := now[k]
		switch {
		case !wok:
			return fmt.Sprintf("the form carries a new hidden %s (%q)", k, n)
		case !nok:
			return fmt.Sprintf("the form no longer carries its hidden %s", k)
		case w != n:
			return fmt.Sprintf("the form's hidden %s is %q, not %q", k, n, w)
		}
	}
	return ""
}

func orNothing(s string) string {
	if s == "" {
		return "nothing held"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// pathOf is a URL's path ("/checkout"); a URL that does not parse is
// kept whole.
func pathOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	if p.Path == "" {
		return "/"
	}
	return p.EscapedPath()
}

// sendsOf is a held request ("POST https://shop/pay?x=1") as method and
// path: the host and query may differ between runs.
func sendsOf(s string) string {
	method, u, ok := strings.Cut(s, " ")
	if !ok {
		return s
	}
	return method + " " + pathOf(u)
}
