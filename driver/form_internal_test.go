package driver

import "testing"

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

func TestDateFormats(t *testing.T) {
	for _, c := range []struct{ format, want string }{
		{"DD/MM/YYYY", "05/03/2027"}, {"MM/DD/YYYY", "03/05/2027"}, {"YYYY-MM-DD", "2027-03-05"},
		{"D.M.YY", "5.3.27"}, {"DD.MM.YYYY", "05.03.2027"},
	} {
		if got := formatDate(c.format, 2027, 3, 5); got != c.want {
			t.Errorf("formatDate(%s) = %q, want %q", c.format, got, c.want)
		}
	}
	for s, want := range map[string]string{
		"Use the format DD/MM/YYYY.": "DD/MM/YYYY", "Date (yyyy-mm-dd) please": "YYYY-MM-DD",
		"Enter a valid date": "", "Use 12/12/2012": "", "DD/DD/YYYY": "",
	} {
		if got := dateFormatIn(s); got != want {
			t.Errorf("dateFormatIn(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestRetryValue(t *testing.T) {
	text := &formField{}
	text.Kind = "text"
	if v, _ := retryValue(text, "2027-02-15", "Use the format DD/MM/YYYY"); v != "15/02/2027" {
		t.Errorf("date from the error: %q", v)
	}
	if v, _ := retryValue(text, "+44 (20) 7946-0958", "Digits only, please"); v != "442079460958" {
		t.Errorf("digits only: %q", v)
	}
	if v, _ := retryValue(text, "Ann", "Something is wrong"); v != "Ann" {
		t.Errorf("the same answer again: %q", v)
	}
}

func TestFoldKeyAndTruthy(t *testing.T) {
	if foldKey("First name *") != foldKey("first_name") || foldKey("Experience[2].Company") != "experience[2].company" {
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
