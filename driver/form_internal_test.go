package driver

import "testing"

// The answer's own rules (PickOption, Truthy, FoldKey) are tested in
// driver/internal/form; matching a key to a scan's field is here.
func TestMatchNeverANearOne(t *testing.T) {
	field := func(key, label string) *formField {
		f := &formField{}
		f.Key, f.Label = key, label
		return f
	}
	sc := &formScan{fields: []*formField{
		field("email", "Email"), field("billing.city", "City"), field("shipping.city", "City"), field("first_name", "First name *"),
	}}
	for key, want := range map[string]string{"email": "email", "EMAIL": "email", "First name": "first_name", "shipping.city": "shipping.city", "E-mail": "email", "mail": "", "City": ""} {
		f, ambiguous := sc.match(key)
		got := ""
		if f != nil {
			got = f.Key
		}
		if got != want || ambiguous != (key == "City") {
			t.Errorf("match(%q) = %q ambiguous=%v, want %q", key, got, ambiguous, want)
		}
	}
}
