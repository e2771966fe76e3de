package form

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/waymark-dev/waymark/calls"
)

// This file turns what a person writes for a date, a time or a colour into
// the one form the browser's date, time and colour fields take, so that
// `fill` takes "06/24/2012" or "24 June 2012" for a date field. A written
// form that could mean two things ("03/04/2012") is refused, never guessed,
// and no error quotes the value, which may be a secret.

// Format is the form an <input type=typ> takes, for the hints.
func Format(typ string) string {
	switch typ {
	case "date":
		return "YYYY-MM-DD, like 2012-06-24"
	case "time":
		return "HH:MM (24-hour), like 15:30"
	case "datetime-local":
		return "YYYY-MM-DDTHH:MM, like 2012-06-24T15:30"
	case "month":
		return "YYYY-MM, like 2012-06"
	case "week":
		return "YYYY-Www, like 2012-W25"
	case "color":
		return "#rrggbb, like #ff8800"
	case "range":
		return "a number within the slider's range"
	}
	return ""
}

// Value returns value in the form an <input type=typ> takes. An empty
// value clears the field.
func Value(typ, value string) (string, error) {
	v := strings.TrimSpace(value)
	if v == "" {
		return "", nil
	}
	var out string
	var err error
	switch typ {
	case "date":
		var y, m, d int
		if y, m, d, err = ParseDate(v); err == nil {
			out = fmt.Sprintf("%04d-%02d-%02d", y, m, d)
		}
	case "time":
		out, err = parseTime(v)
	case "datetime-local":
		out, err = parseDateTime(v)
	case "month":
		out, err = ParseMonth(v)
	case "week":
		out, err = parseWeek(v)
	case "color":
		out, err = parseColor(v)
	default:
		return v, nil
	}
	if err != nil {
		// The value is not quoted: it may be a secret, and errors reach
		// logs and models.
		return "", calls.Errorf(calls.ErrBadInput, "write it as "+Format(typ), "a %s field cannot take that value: %v", typ, err)
	}
	return out, nil
}

// monthNames are static data: a map would be built when the program starts.
var monthNames = [...]string{"january", "february", "march", "april", "may", "june", "july",
	"august", "september", "october", "november", "december"}

// monthOf returns the number of a month written as its name or an
// abbreviation of at least three letters ("jun", "sept"), 0 for none.
func monthOf(w string) int {
	if len(w) < 3 {
		return 0
	}
	for k, n := range monthNames {
		if strings.HasPrefix(n, w) {
			return k + 1
		}
	}
	return 0
}

// fieldREs are the expressions the written forms are read with, compiled
// together at the first fill of such a field: not when the program starts.
var fieldREs = sync.OnceValue(func() *fieldPatterns {
	return &fieldPatterns{
		isoDate:      regexp.MustCompile(`^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$`),
		numDate:      regexp.MustCompile(`^(\d{1,2})([/.-])(\d{1,2})[/.-](\d{4})$`),
		wordsDate:    regexp.MustCompile(`^(?:(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?,?\s+(\d{4})|([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4}))$`),
		time:         regexp.MustCompile(`^(\d{1,2})(?:[:.](\d{2}))?(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$`),
		trailingTime: regexp.MustCompile(`(?i)(?:^|[\sT,]+)(?:at\s+)?(\d{1,2}(?:[:.]\d{2}(?::\d{2})?\s*(?:am|pm)?|\s*(?:am|pm)))$`),
		isoMonth:     regexp.MustCompile(`^(\d{4})[-/](\d{1,2})$`),
		numMonth:     regexp.MustCompile(`^(\d{1,2})[-/.](\d{4})$`),
		wordsMonth:   regexp.MustCompile(`^([a-z]+)\.?,?\s+(\d{4})$`),
		isoWeek:      regexp.MustCompile(`^(\d{4})-?w(\d{1,2})$`),
		wordsWeek:    regexp.MustCompile(`^(?:week|w)\s*(\d{1,2}),?\s+(?:of\s+)?(\d{4})$`),
		hexColor:     regexp.MustCompile(`^#?([0-9a-f]{3}|[0-9a-f]{6})$`),
		rgbColor:     regexp.MustCompile(`^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$`),
	}
})

type fieldPatterns struct {
	isoDate      *regexp.Regexp
	numDate      *regexp.Regexp
	wordsDate    *regexp.Regexp
	time         *regexp.Regexp
	trailingTime *regexp.Regexp
	isoMonth     *regexp.Regexp
	numMonth     *regexp.Regexp
	wordsMonth   *regexp.Regexp
	isoWeek      *regexp.Regexp
	wordsWeek    *regexp.Regexp
	hexColor     *regexp.Regexp
	rgbColor     *regexp.Regexp
}

// ParseDate reads 2012-06-24, 2012/06/24, 06/24/2012 (month first, as in
// the US, when the day is over 12), 24/06/2012, 24.06.2012 (day first), 24
// June 2012, June 24, 2012.
func ParseDate(s string) (y, m, d int, err error) {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	switch {
	case fieldREs().isoDate.MatchString(s):
		p := fieldREs().isoDate.FindStringSubmatch(s)
		y, m, d = Atoi(p[1]), Atoi(p[2]), Atoi(p[3])
	case fieldREs().numDate.MatchString(s):
		p := fieldREs().numDate.FindStringSubmatch(s)
		a, b := Atoi(p[1]), Atoi(p[3])
		y = Atoi(p[4])
		switch {
		case p[2] == ".":
			d, m = a, b // 24.06.2012: day first wherever dots are written
		case a > 12 && b <= 12:
			d, m = a, b
		case b > 12 && a <= 12:
			m, d = a, b
		case a == b:
			m, d = a, b
		default:
			return 0, 0, 0, fmt.Errorf("it could be day first or month first")
		}
	case fieldREs().wordsDate.MatchString(s):
		p := fieldREs().wordsDate.FindStringSubmatch(s)
		day, mon, year := p[1], p[2], p[3]
		if day == "" {
			day, mon, year = p[5], p[4], p[6]
		}
		if m = monthOf(mon); m == 0 {
			return 0, 0, 0, fmt.Errorf("its month is not a month's name")
		}
		y, d = Atoi(year), Atoi(day)
	default:
		return 0, 0, 0, fmt.Errorf("not a date it can read")
	}
	if m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, 0, 0, fmt.Errorf("there is no such day")
	}
	return y, m, d, nil
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// parseTime reads 15:30, 15:30:20, 3:30 pm, 3pm, 3.30 PM.
func parseTime(s string) (string, error) {
	p := fieldREs().time.FindStringSubmatch(strings.ToLower(strings.TrimSpace(s)))
	if p == nil || p[2] == "" && p[4] == "" {
		return "", fmt.Errorf("not a time it can read")
	}
	h, mi, sec := Atoi(p[1]), Atoi(p[2]), Atoi(p[3])
	if ampm := strings.ReplaceAll(p[4], ".", ""); ampm != "" {
		if h < 1 || h > 12 {
			return "", fmt.Errorf("its hour is not on a 12-hour clock")
		}
		h %= 12
		if ampm == "pm" {
			h += 12
		}
	}
	if h > 23 || mi > 59 || sec > 59 {
		return "", fmt.Errorf("there is no such time")
	}
	if p[3] != "" {
		return fmt.Sprintf("%02d:%02d:%02d", h, mi, sec), nil
	}
	return fmt.Sprintf("%02d:%02d", h, mi), nil
}

// parseDateTime reads a date and a time after it: 2012-06-24T15:30,
// 2012-06-24 15:30, 06/24/2012 3:30 PM, 24 June 2012 at 15:30.
func parseDateTime(s string) (string, error) {
	loc := fieldREs().trailingTime.FindStringSubmatchIndex(s)
	if loc == nil {
		return "", fmt.Errorf("no time after the date")
	}
	t, err := parseTime(s[loc[2]:loc[3]])
	if err != nil {
		return "", err
	}
	y, m, d, err := ParseDate(strings.TrimSpace(s[:loc[0]]))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%04d-%02d-%02dT%s", y, m, d, t), nil
}

// ParseMonth reads 2012-06, 06/2012, June 2012.
func ParseMonth(s string) (string, error) {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	var y, m int
	if p := fieldREs().isoMonth.FindStringSubmatch(s); p != nil {
		y, m = Atoi(p[1]), Atoi(p[2])
	} else if p := fieldREs().numMonth.FindStringSubmatch(s); p != nil {
		y, m = Atoi(p[2]), Atoi(p[1])
	} else if p := fieldREs().wordsMonth.FindStringSubmatch(s); p != nil {
		m = monthOf(p[1])
		y = Atoi(p[2])
	} else {
		return "", fmt.Errorf("not a month it can read")
	}
	if m < 1 || m > 12 {
		return "", fmt.Errorf("there is no such month")
	}
	return fmt.Sprintf("%04d-%02d", y, m), nil
}

// parseWeek reads 2012-W25 and "week 25 2012".
func parseWeek(s string) (string, error) {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	var y, w int
	if p := fieldREs().isoWeek.FindStringSubmatch(s); p != nil {
		y, w = Atoi(p[1]), Atoi(p[2])
	} else if p := fieldREs().wordsWeek.FindStringSubmatch(s); p != nil {
		y, w = Atoi(p[2]), Atoi(p[1])
	} else {
		return "", fmt.Errorf("not a week it can read")
	}
	if w < 1 || w > 53 {
		return "", fmt.Errorf("a year has 52 or 53 weeks")
	}
	return fmt.Sprintf("%04d-W%02d", y, w), nil
}

// parseColor reads #f80, #ff8800, ff8800 and rgb(255, 136, 0).
func parseColor(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if p := fieldREs().hexColor.FindStringSubmatch(s); p != nil {
		h := p[1]
		if len(h) == 3 {
			h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
		}
		return "#" + h, nil
	}
	if p := fieldREs().rgbColor.FindStringSubmatch(s); p != nil {
		r, g, b := Atoi(p[1]), Atoi(p[2]), Atoi(p[3])
		if r > 255 || g > 255 || b > 255 {
			return "", fmt.Errorf("a channel is over 255")
		}
		return fmt.Sprintf("#%02x%02x%02x", r, g, b), nil
	}
	return "", fmt.Errorf("not a colour it can read")
}

// Atoi is s as a number, 0 when it is not one.
func Atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
