package recipe

import (
	"time"

	"github.com/waymark-dev/waymark/sheet"
)

// Dates are read by package written (the one owner, shared with sheet).

// ParseDate reads a date as pages write them: "2026-11-01", "1 Nov 2026",
// "Nov 1, 2026", "01.11.2026", "24/06/2012" and "06/24/2012" (the order
// the numbers tell), and relative ones ("5 minutes ago", "3 hours ago",
// "yesterday", "today", "just now") against now. A date of numbers that
// reads both ways ("03/04/2012") is refused: [ParseDateIn] reads it in a
// page whose language writes the month first.
func ParseDate(s string, now time.Time) (time.Time, bool) { return sheet.ParseDate(s, now) }

// ParseDateIn is [ParseDate] for a page in the language lang (its BCP 47
// tag): in one that writes the month first (en-US), "03/04/2012" is
// 4 March; elsewhere a date that reads both ways is refused rather than
// guessed.
func ParseDateIn(s, lang string, now time.Time) (time.Time, bool) {
	return sheet.ParseDateIn(s, lang, now)
}

// Date formats (Field.Format, a JSON Schema string's format).
const (
	FormatDate     = sheet.FormatDate     // 2026-11-01
	FormatDateTime = sheet.FormatDateTime // 2026-11-01T09:30:00Z
)

// ISODate writes a date read from a page as the format asks: "2026-11-01"
// for date, RFC 3339 for date-time.
func ISODate(d time.Time, format string) string { return sheet.ISODate(d, format) }
