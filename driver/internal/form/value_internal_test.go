package form

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestFieldValue(t *testing.T) {
	for _, tc := range []struct {
		typ, in, want string
	}{
		{"date", "2012-06-24", "2012-06-24"},
		{"date", "06/24/2012", "2012-06-24"},
		{"date", "24/06/2012", "2012-06-24"},
		{"date", "24.06.2012", "2012-06-24"},
		{"date", "24 June 2012", "2012-06-24"},
		{"date", "June 24, 2012", "2012-06-24"},
		{"date", "Jun 24th 2012", "2012-06-24"},
		{"date", "2012/6/4", "2012-06-04"},
		{"date", "29 Feb 2012", "2012-02-29"},
		{"date", "", ""},
		{"time", "15:30", "15:30"},
		{"time", "3:30 PM", "15:30"},
		{"time", "3pm", "15:00"},
		{"time", "12:05 am", "00:05"},
		{"time", "09:15:20", "09:15:20"},
		{"datetime-local", "2012-06-24T15:30", "2012-06-24T15:30"},
		{"datetime-local", "06/24/2012 3:30 PM", "2012-06-24T15:30"},
		{"datetime-local", "24 June 2012 at 15:30", "2012-06-24T15:30"},
		{"month", "June 2012", "2012-06"},
		{"month", "06/2012", "2012-06"},
		{"month", "2012-06", "2012-06"},
		{"week", "2012-W25", "2012-W25"},
		{"week", "week 25 2012", "2012-W25"},
		{"color", "#F80", "#ff8800"},
		{"color", "rgb(255, 136, 0)", "#ff8800"},
		{"range", "30", "30"},
	} {
		got, err := Value(tc.typ, tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Value(%s, %q) = %q, %v; want %q", tc.typ, tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ typ, in string }{
		{"date", "03/04/2012"}, // 3 April or 4 March: refused, not guessed
		{"date", "31 June 2012"},
		{"date", "29 Feb 2013"},
		{"date", "next tuesday"},
		{"time", "25:00"},
		{"time", "13pm"},
		{"datetime-local", "2012-06-24"},
		{"month", "Smarch 2012"},
		{"week", "2012-W60"},
		{"color", "orange"},
	} {
		_, err := Value(tc.typ, tc.in)
		if !errors.Is(err, calls.ErrBadInput) {
			t.Errorf("Value(%s, %q) err = %v, want bad input", tc.typ, tc.in, err)
		}
		if err != nil && strings.Contains(err.Error(), tc.in) {
			t.Errorf("Value(%s, %q) err quotes the value: %v", tc.typ, tc.in, err)
		}
	}
}
