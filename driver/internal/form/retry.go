package form

import (
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// A value the page refuses is written once more with its error in mind
// (driver/form_fill.go): in the date format the error names, or as digits.

// Retry is the answer written again after the page refused it: in
// the date format its error names, or its digits alone when the error asks
// for digits; else the same answer, typed key by key this time (pages that
// check on key presses refuse a pasted value).
func Retry(f *calls.FormField, value, pageErr string) (string, bool) {
	switch f.Kind {
	case calls.FieldText, calls.FieldTextarea, calls.FieldDate:
	default:
		return value, true
	}
	if format := dateFormatIn(pageErr); format != "" {
		if y, m, d, err := ParseDate(value); err == nil {
			f.Format = format
			return FormatDate(format, y, m, d), true
		}
	}
	low := strings.ToLower(pageErr)
	if strings.Contains(low, "digits") || strings.Contains(low, "numbers only") {
		var b strings.Builder
		for _, r := range value {
			if r >= '0' && r <= '9' {
				b.WriteRune(r)
			}
		}
		return b.String(), true
	}
	return value, true
}

// dateFormatIn finds a written date format in a page's words:
// "Use the format DD/MM/YYYY".
func dateFormatIn(s string) string {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == ',' || r == ':' }) {
		w = strings.TrimRight(w, ".")
		if isDateFormat(w) {
			return strings.ToUpper(w)
		}
	}
	return ""
}

// isDateFormat says whether w is a format such as DD/MM/YYYY or YYYY-MM-DD.
func isDateFormat(w string) bool {
	u := strings.ToUpper(w)
	if len(u) < 8 {
		return false
	}
	var sep rune
	parts := strings.FieldsFunc(u, func(r rune) bool {
		if r == '/' || r == '-' || r == '.' {
			sep = r
			return true
		}
		return false
	})
	if sep == 0 || len(parts) != 3 {
		return false
	}
	has := map[byte]bool{}
	for _, p := range parts {
		if strings.Trim(p, string(p[0])) != "" || !strings.Contains("DMY", p[:1]) {
			return false
		}
		has[p[0]] = true
	}
	return has['D'] && has['M'] && has['Y']
}

// FormatDate writes a date in a format such as DD/MM/YYYY, D.M.YY or
// YYYY-MM-DD.
func FormatDate(format string, y, m, d int) string {
	var b strings.Builder
	for i := 0; i < len(format); {
		c := format[i]
		j := i
		for j < len(format) && format[j] == c {
			j++
		}
		n := j - i
		switch c {
		case 'D':
			fmt.Fprintf(&b, "%0*d", n, d)
		case 'M':
			fmt.Fprintf(&b, "%0*d", n, m)
		case 'Y':
			if n <= 2 {
				fmt.Fprintf(&b, "%02d", y%100)
			} else {
				fmt.Fprintf(&b, "%04d", y)
			}
		default:
			b.WriteString(format[i:j])
		}
		i = j
	}
	return b.String()
}
