package routine

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/waymark-dev/waymark/calls"
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
	Why     string   `json:"why"`              // what made it a submit: "submits the form"
	Fields  []string `json:"fields,omitempty"` // the names of the form's fields, sorted
	Sends   string   `json:"sends,omitempty"`  // the request it sent, when that is what made it a submit ("POST /pay": method and path)
}

// ApprovedOf is the expectation a person's press was made under, from the
// approval the driver gave for it.
func ApprovedOf(a calls.Approval) *Approved {
	ap := &Approved{Action: a.Action, Path: pathOf(a.URL), Control: a.Control, Why: a.Why, Sends: sendsOf(a.Sends)}
	for k := range a.Form {
		ap.Fields = append(ap.Fields, k)
	}
	slices.Sort(ap.Fields)
	return ap
}

// Differs says how the page's approval now differs from what the person
// approved, or "" when it matches.
func (ap *Approved) Differs(now calls.Approval) string {
	got := ApprovedOf(now)
	switch {
	case got.Action != ap.Action:
		return fmt.Sprintf("it would %s, not %s", got.Action, ap.Action)
	case got.Control != ap.Control:
		return fmt.Sprintf("the control is %s, not %s", got.Control, ap.Control)
	case got.Path != ap.Path:
		return fmt.Sprintf("the page is %s, not %s", got.Path, ap.Path)
	case got.Why != ap.Why:
		return fmt.Sprintf("it %s, not %s", got.Why, ap.Why)
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
	}
	return ""
}

func orNothing(s string) string {
	if s == "" {
		return "nothing held"
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
