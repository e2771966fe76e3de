package form

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/waymark-dev/waymark/calls"
)

// A date field that takes no typing (read-only, with a calendar beside
// it) is filled as a person does: open its calendar, go to the month,
// click the day. The day is found by the date its cell says (aria-label,
// title, data-date: "Monday, 1 March 2027", "2027-03-01"), else by its
// number under the month the calendar shows. Reading the open calendar
// and clicking are the core's (driver/form_calendar.go); where to click
// is decided here.

// Calendar is an open calendar as the core's script reads it: its day
// cells and what its header says.
type Calendar struct {
	Cells []struct {
		Label string `json:"label"`
		Text  string `json:"text"`
	} `json:"cells"`
	Header string `json:"header"`
}

// CalendarStep says what to click on cal to reach the day y-m-d: the
// index of its cell (day >= 0), or else the way to the month ("next" or
// "prev"). An error says the calendar shows no month it can be told by.
func CalendarStep(cal Calendar, y, m, d int) (day int, dir string, err error) {
	want := y*12 + m
	shown, day := 0, -1
	for i, c := range cal.Cells {
		if cy, cm, cd, ok := cellDate(c.Label); ok {
			if cy == y && cm == m && cd == d {
				day = i
				break
			}
			if shown == 0 {
				shown = cy*12 + cm
			}
		}
	}
	if day < 0 && shown == 0 {
		// Cells say only their day: the header says the month.
		if mon, err := ParseMonth(cal.Header); err == nil {
			my, mm := Atoi(mon[:4]), Atoi(mon[5:])
			shown = my*12 + mm
			if shown == want {
				for i, c := range cal.Cells {
					if c.Text == strconv.Itoa(d) {
						day = i
						break
					}
				}
			}
		}
	}
	switch {
	case day >= 0:
		return day, "", nil
	case shown == 0:
		return -1, "", calls.Errorf(calls.ErrNotInteractable, "fill it by hand", "no calendar opened that says its month")
	case shown > want:
		return -1, "prev", nil
	}
	return -1, "next", nil
}

// weekdayRE is a weekday name before a written date: "Monday, ".
var weekdayRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+`)
})

// cellDate reads the date a day cell names, if it names a whole one.
func cellDate(label string) (y, m, d int, ok bool) {
	label = weekdayRE().ReplaceAllString(strings.TrimSpace(label), "")
	y, m, d, err := ParseDate(label)
	return y, m, d, err == nil
}
