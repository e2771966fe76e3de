package driver

import (
	"testing"

	"github.com/waymark-dev/waymark/driver/internal/form"
)

func TestPickOption(t *testing.T) {
	opts := []string{"Springfield Gardens", "Springfield", "Spring Lake", "West Springfield"}
	for _, c := range []struct {
		answer string
		loose  bool
		want   int
	}{
		{"springfield", true, 1}, // exact beats the longer one starting with it
		{"Spring L", true, 2},    // the one starting with it
		{"Spring", true, -1},     // two start with it: a guess
		{"Lake", true, 2},        // the one containing it
		{"field", true, -1},      // three contain it
		{"Springfeld", true, -1}, // a near miss is none
		{"Spring", false, -1},    // a radio takes only its exact words
		{"  spring  LAKE ", false, 2},
		{"", true, -1},
	} {
		if got := pickOption(opts, c.answer, c.loose); got != c.want {
			t.Errorf("pickOption(%q, loose=%v) = %d, want %d", c.answer, c.loose, got, c.want)
		}
	}
}

func TestFoldKeyAndTruthy(t *testing.T) {
	if form.FoldKey("First name *") != form.FoldKey("first_name") || form.FoldKey("Experience[2].Company") != "experience[2].company" {
		t.Error("foldKey")
	}
	for v, want := range map[string]bool{"yes": true, "True": true, "x": true, "no": false, "": false} {
		if got, ok := truthy(v); !ok || got != want {
			t.Errorf("truthy(%q) = %v %v", v, got, ok)
		}
	}
	if _, ok := truthy("maybe"); ok {
		t.Error("truthy(maybe) is not an answer")
	}
}

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
