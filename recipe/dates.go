package recipe

import (
	"github.com/waymark-dev/waymark/internal/lazyre"
	"strconv"
	"strings"
	"time"
)

var (
	agoRE  = lazyre.New(`(?i)\b(an?|\d+)\s*(second|sec|minute|min|hour|hr|day|week|month|year)s?\s+ago\b`)
	layout = []string{"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02",
		"2 January 2006", "2 Jan 2006", "January 2, 2006", "Jan 2, 2006", "January 2 2006", "Jan 2 2006", "Mon, 2 Jan 2006", "Monday, January 2, 2006", "02.01.2006"}
)

// ParseDate reads a date as pages write them: "2026-11-01", "1 Nov 2026",
// "Nov 1, 2026", "01.11.2026", and relative ones ("5 minutes ago",
// "3 hours ago", "yesterday", "today", "just now") against now.
func ParseDate(s string, now time.Time) (time.Time, bool) {
	t := strings.TrimSpace(strings.Join(strings.Fields(s), " "))
	low := strings.ToLower(t)
	switch {
	case low == "just now" || low == "now":
		return now, true
	case strings.HasPrefix(low, "today"):
		return day(now), true
	case strings.HasPrefix(low, "yesterday"):
		return day(now).AddDate(0, 0, -1), true
	}
	if m := agoRE.FindStringSubmatch(low); m != nil {
		n := 1
		if m[1] != "a" && m[1] != "an" {
			n, _ = strconv.Atoi(m[1])
		}
		switch m[2] {
		case "second", "sec":
			return now.Add(-time.Duration(n) * time.Second), true
		case "minute", "min":
			return now.Add(-time.Duration(n) * time.Minute), true
		case "hour", "hr":
			return now.Add(-time.Duration(n) * time.Hour), true
		case "day":
			return now.AddDate(0, 0, -n), true
		case "week":
			return now.AddDate(0, 0, -7*n), true
		case "month":
			return now.AddDate(0, -n, 0), true
		case "year":
			return now.AddDate(-n, 0, 0), true
		}
	}
	for _, l := range layout {
		if d, err := time.ParseInLocation(l, t, now.Location()); err == nil {
			return d, true
		}
	}
	return time.Time{}, false
}

func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}
