package driver

import "github.com/waymark-dev/waymark/secret"

// The send gate tells a commit from chatter partly by what a send carries
// (sendclass.go): a beacon that carries what the user typed into the
// page's fields is the form going out, whatever it is dressed as. So
// every value typed in the session (by act fill or type, and form fill)
// is known to one secret.Set, the one known-value matcher, which also
// finds it URL-encoded, JSON-escaped, hex or base64.

// addEntered makes a value typed into a field (named by its key or
// target) known to the send gate. Values shorter than secret.MinKnown
// are not looked for inside a send ("1", "yes").
func (l *pageLog) addEntered(name, value string) {
	if l == nil || len(value) < secret.MinKnown {
		return
	}
	l.typedAll.Add(name, value)
}

// entered is the set of values typed in the session, or nil.
func (l *pageLog) entered() *secret.Set {
	if l == nil {
		return nil
	}
	return &l.typedAll
}
