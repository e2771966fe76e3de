// Package locator parses the locators users type to name an element, in a
// Playwright-like grammar, and matches them against candidate elements.
//
// The forms are:
//
//	@e12 or e12                   a ref from the outline
//	role=button                   any element of that ARIA role
//	role=button[name="Pay now"]   that role with that accessible name
//	text=Continue                 text containing "Continue"
//	text="Continue"               text that is "Continue"
//	label=Email                   the same for the label,
//	placeholder=Search            and for the placeholder
//	testid=submit                 data-testid, exactly
//	css=#go                       a CSS selector, for the driver's querySelectorAll
//
// XPath is not supported. Ref and css locators are resolved by the driver;
// [Locator.Match] handles the others.
//
// Matching ignores case and treats each run of white space as one space, and
// trims it at both ends. After that:
//
//   - a role's name must equal the locator's name, quoted or not. We refuse to
//     guess: role=button[name="Pay"] does not match a button named "Pay now",
//     unlike Playwright, where it would unless exact were given. The outline
//     shows full names, so copying one is easy, and an agent that clicks
//     "Pay" must not hit "Pay later".
//   - text, label and placeholder contain the value when it is unquoted, and
//     equal it when it is quoted, as in Playwright.
//   - a test id equals the value, case and white space included: it is an
//     identifier, not prose.
//
// A quoted value uses double or single quotes; a backslash makes the next
// character literal, so text="say \"hi\"" is say "hi".
package locator

import "strings"

// Kind is the kind of a [Locator].
type Kind string

// Kinds.
const (
	Ref         Kind = "ref"
	Role        Kind = "role"
	Text        Kind = "text"
	Label       Kind = "label"
	Placeholder Kind = "placeholder"
	TestID      Kind = "testid"
	CSS         Kind = "css"
)

// Locator is a parsed locator.
type Locator struct {
	Kind Kind
	// Value is the ref without "@" (e12), the role in lower case (button), the
	// text, label, placeholder or test id without quotes, or the CSS selector.
	Value string
	// Name is the accessible name of a role locator, if HasName.
	Name    string
	HasName bool
	// Exact says the value or name must equal the element's, not only be
	// part of it. It is true for a quoted text, label or placeholder, for a
	// role with a name and for a test id.
	Exact bool
}

// Candidate is what [Locator.Match] compares: the facts of one element, as
// the driver read them. An empty field is one the element lacks.
type Candidate struct {
	Role        string // ARIA role, computed or explicit
	Name        string // accessible name
	Text        string // text content
	Label       string // text of its label
	Placeholder string
	TestID      string // data-testid
}

// String returns the locator in the form [Parse] reads: refs as @e12, values
// in double quotes when exact. For every locator that Parse returned,
// Parse(l.String()) returns l.
func (l Locator) String() string {
	switch l.Kind {
	case Ref:
		return "@" + l.Value
	case Role:
		if l.HasName {
			return "role=" + l.Value + "[name=" + quote(l.Name) + "]"
		}
		return "role=" + l.Value
	case CSS:
		return "css=" + l.Value
	case TestID:
		if needsQuotes(l.Value) {
			return "testid=" + quote(l.Value)
		}
		return "testid=" + l.Value
	}
	if l.Exact {
		return string(l.Kind) + "=" + quote(l.Value)
	}
	return string(l.Kind) + "=" + l.Value
}

// Match reports whether c is an element l names, under the rules of the
// package comment. Ref and css locators never match: the driver resolves
// them itself.
func (l Locator) Match(c Candidate) bool {
	switch l.Kind {
	case Role:
		if l.Value == "" || normalize(c.Role) != normalize(l.Value) && !(normalize(l.Value) == "generic" && c.Role == "clickable") {
			// Routines recorded before the role "clickable" existed
			// name a clickable <div> role=generic.
			return false
		}
		return !l.HasName || same(c.Name, l.Name)
	case Text:
		return l.matchText(c.Text)
	case Label:
		return l.matchText(c.Label)
	case Placeholder:
		return l.matchText(c.Placeholder)
	case TestID:
		return l.Value != "" && c.TestID == l.Value
	}
	return false
}

func (l Locator) matchText(s string) bool {
	if l.Exact {
		return same(s, l.Value)
	}
	want := normalize(l.Value)
	return want != "" && strings.Contains(normalize(s), want)
}
