package form

import "testing"

// Matching a key to a scan's field: never a near one.
func TestMatchNeverANearOne(t *testing.T) {
	mk := func(key, label string) *field {
		f := &field{}
		f.Key, f.Label = key, label
		return f
	}
	sc := &Scan{fields: []*field{
		mk("email", "Email"), mk("billing.city", "City"), mk("shipping.city", "City"), mk("first_name", "First name *"),
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
