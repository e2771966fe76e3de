package driver

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/secret"
)

// A secret is one thing to the session, however it was typed (issue 27,
// item 3). Every call that types a secret (act fill and type, form fill,
// doc insert, sheet write and fill; the CLI, MCP tools, routine steps and
// batch rows all arrive at those calls) registers the value here before
// the first key, and every output of the session masks through the same
// set: looks (page text, title, URL, notices), action outcomes, console
// and network, captures and HARs, document and sheet reads, approvals of
// held sends. Each call masks its own reply and error (masked); the
// daemon adds nothing, and traces mask with Secrets. A saved state is the
// one reply left as it is: the cookies and storage to load again. The registry lives as long as the session: a
// value typed once is masked in what the pages echo of it from then on.

// register makes value, typed as the secret name, known to the session,
// and to its browser, whose NetLog is every session's (netlog.go).
func (s *Session) register(name, value string) {
	s.log.typed.Add(name, value)
	if s.browser != nil { // nil in a unit test's bare Session
		s.browser.typed.Add(name, value)
	}
}

// Secrets returns the session's secret registry: every value typed as a
// secret in the session, by name. Outputs made outside the driver (a
// trace, a report) mask with it; nothing but the driver adds to it.
func (s *Session) Secrets() *secret.Set { return s.log.typed }

// typedValues returns the values typed as secrets in the session.
func (s *Session) typedValues() []string { return s.log.typedValues() }

// mask replaces every value typed as a secret in text by its mark. What
// merely looks like a secret is left: page text is content.
func (s *Session) mask(text string) string { return s.log.typed.Mask(text) }

// MaskReply replaces every value typed as a secret in the session, in
// every string v holds (v is a pointer to a reply, or a reply that holds
// pointers, slices or maps), by its mark. Bytes are left, except JSON
// (json.RawMessage), which is masked as text and kept only if it is
// still JSON.
func (s *Session) MaskReply(v any) {
	if v == nil || s.log.typed.Len() == 0 {
		return
	}
	maskValue(s.log.typed, reflect.ValueOf(v), 0)
}

// MaskErr masks an error's message and hint as MaskReply does. Its data
// (an approval) is left: approvals mask their own fields before they are
// bound (sendgate.go, submit.go), and a changed one would not match.
func (s *Session) MaskErr(err error) error {
	if err == nil || s.log.typed.Len() == 0 {
		return err
	}
	msg := s.mask(err.Error())
	var ce *calls.Error
	if errors.As(err, &ce) {
		if hint := s.mask(ce.Hint); msg != err.Error() || hint != ce.Hint {
			return &calls.Error{Kind: ce.Kind, Msg: msg, Hint: hint, Data: ce.Data}
		}
		return err
	}
	var cover *calls.CoveredError
	if errors.As(err, &cover) {
		// The cover's words travel as the error's data (calls.PopupOf):
		// masked like its message.
		masked := &calls.CoveredError{Target: s.mask(cover.Target), By: s.mask(cover.By), Text: s.mask(cover.Text)}
		for _, b := range cover.Buttons {
			masked.Buttons = append(masked.Buttons, s.mask(b))
		}
		return &maskedErr{msg: msg, err: masked}
	}
	if msg != err.Error() {
		return &maskedErr{msg: msg, err: err}
	}
	return err
}

// maskedErr is an error whose message was masked; it keeps the chain for
// errors.Is.
type maskedErr struct {
	msg string
	err error
}

func (e *maskedErr) Error() string { return e.msg }
func (e *maskedErr) Unwrap() error { return e.err }

var rawJSON = reflect.TypeFor[json.RawMessage]()

// maskValue masks the strings of v in place, as deep as replies go.
func maskValue(set *secret.Set, v reflect.Value, depth int) {
	if depth > 32 || !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if v.Kind() == reflect.Interface && v.CanSet() && isNumber(e.Kind()) {
			// A PIN a page or an API row gives as a number (JSON's
			// 48213): its digits are the secret.
			n := fmt.Sprint(e.Interface())
			if m := set.Mask(n); m != n {
				v.Set(reflect.ValueOf(m))
			}
			return
		}
		if v.Kind() == reflect.Interface && !e.CanSet() {
			// A value held by an interface cannot be set in place: mask
			// a copy and put it back.
			c := reflect.New(e.Type()).Elem()
			c.Set(e)
			maskValue(set, c, depth+1)
			if v.CanSet() {
				v.Set(c)
			}
			return
		}
		maskValue(set, e, depth+1)
	case reflect.String:
		if v.CanSet() {
			if m := set.Mask(v.String()); m != v.String() {
				v.SetString(m)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				maskValue(set, v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		if v.Type() == rawJSON {
			if v.CanSet() && v.Len() > 0 {
				if m := set.Mask(string(v.Bytes())); m != string(v.Bytes()) {
					if !json.Valid([]byte(m)) {
						// The mark stood where a number was ({"pin":48213}):
						// the masked text goes as a JSON string, never the
						// value as it was.
						b, _ := json.Marshal(m)
						m = string(b)
					}
					v.SetBytes([]byte(m))
				}
			}
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // a picture, a file
		}
		for i := range v.Len() {
			maskValue(set, v.Index(i), depth+1)
		}
	case reflect.Array:
		for i := range v.Len() {
			maskValue(set, v.Index(i), depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		// A key is the page's words too (a storage key, an API row's
		// field, a form's field name): a key that holds a secret goes
		// under its masked name. Keys are gathered first, since a map
		// changed while it is ranged over may show a key twice.
		type entry struct{ key, val reflect.Value }
		var entries []entry
		for iter := v.MapRange(); iter.Next(); {
			entries = append(entries, entry{iter.Key(), iter.Value()})
		}
		for _, e := range entries {
			c := reflect.New(v.Type().Elem()).Elem()
			c.Set(e.val)
			maskValue(set, c, depth+1)
			key := e.key
			if key.Kind() == reflect.String {
				if m := set.Mask(key.String()); m != key.String() {
					v.SetMapIndex(key, reflect.Value{})
					key = reflect.New(key.Type()).Elem()
					key.SetString(m)
				}
			}
			v.SetMapIndex(key, c)
		}
	}
}

// masked masks a call's reply and error on its way out of the session:
// deferred by every call that returns what a page shows.
func (s *Session) masked(reply any, err *error) {
	s.MaskReply(reply)
	*err = s.MaskErr(*err)
}

// isNumber says a kind is one of Go's numbers, as JSON's decode to.
func isNumber(k reflect.Kind) bool {
	switch k {
	case reflect.Float64, reflect.Float32, reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64, reflect.Uint32:
		return true
	}
	return false
}
