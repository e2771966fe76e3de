package form

import (
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestDateFormats(t *testing.T) {
	for _, c := range []struct{ format, want string }{
		{"DD/MM/YYYY", "05/03/2027"}, {"MM/DD/YYYY", "03/05/2027"}, {"YYYY-MM-DD", "2027-03-05"},
		{"D.M.YY", "5.3.27"}, {"DD.MM.YYYY", "05.03.2027"},
	} {
		if got := FormatDate(c.format, 2027, 3, 5); got != c.want {
			t.Errorf("FormatDate(%s) = %q, want %q", c.format, got, c.want)
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
	text := &calls.FormField{}
	text.Kind = "text"
	if v, _ := Retry(text, "2027-02-15", "Use the format DD/MM/YYYY"); v != "15/02/2027" {
		t.Errorf("date from the error: %q", v)
	}
	if v, _ := Retry(text, "+44 (20) 7946-0958", "Digits only, please"); v != "442079460958" {
		t.Errorf("digits only: %q", v)
	}
	if v, _ := Retry(text, "Ann", "Something is wrong"); v != "Ann" {
		t.Errorf("the same answer again: %q", v)
	}
}
