package sheet

import (
	"testing"
	"time"
)

// TestParseDateLanguages: dates as pages in the languages the submit gate
// knows write them, absolute and relative (issue 28: the reader knew
// English month names and relative words only).
func TestParseDateLanguages(t *testing.T) {
	now := time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC)
	d := func(y int, m time.Month, dd int) time.Time { return time.Date(y, m, dd, 0, 0, 0, 0, time.UTC) }
	for in, want := range map[string]time.Time{
		"3. November 2026":       d(2026, 11, 3), // German
		"3. Nov. 2026":           d(2026, 11, 3),
		"14. März 2026":          d(2026, 3, 14),
		"3 nov. 2026":            d(2026, 11, 3), // French
		"1er février 2026":       d(2026, 2, 1),
		"3 décembre 2026":        d(2026, 12, 3),
		"3 de noviembre de 2026": d(2026, 11, 3), // Spanish
		"3 nov 2026":             d(2026, 11, 3),
		"3 novembre 2026":        d(2026, 11, 3), // Italian
		"3 de novembro de 2026":  d(2026, 11, 3), // Portuguese
		"3 november 2026":        d(2026, 11, 3), // Dutch, Swedish
		"3 mrt 2026":             d(2026, 3, 3),
		"3 listopada 2026":       d(2026, 11, 3), // Polish
		"3 października 2026":    d(2026, 10, 3),
		"3. maj 2026":            d(2026, 5, 3),  // Danish
		"2026年3月14日":             d(2026, 3, 14), // Japanese, Chinese
		"2026年11月3日":             d(2026, 11, 3),
		"2026년 3월 14일":           d(2026, 3, 14), // Korean
		"hace 2 días":            now.AddDate(0, 0, -2),
		"vor 3 Tagen":            now.AddDate(0, 0, -3),
		"vor 5 Minuten":          now.Add(-5 * time.Minute),
		"il y a 2 heures":        now.Add(-2 * time.Hour),
		"il y a un an":           now.AddDate(-1, 0, 0),
		"2 giorni fa":            now.AddDate(0, 0, -2),
		"há 3 semanas":           now.AddDate(0, 0, -21),
		"2 dagen geleden":        now.AddDate(0, 0, -2),
		"3 dni temu":             now.AddDate(0, 0, -3),
		"för 2 månader sedan":    now.AddDate(0, -2, 0),
		"for 4 timer siden":      now.Add(-4 * time.Hour),
		"gestern":                d(2026, 11, 9),
		"hier":                   d(2026, 11, 9),
		"ayer":                   d(2026, 11, 9),
		"heute":                  d(2026, 11, 10),
		"aujourd'hui":            d(2026, 11, 10),
		"wczoraj":                d(2026, 11, 9),
		"i går":                  d(2026, 11, 9),
		"November 3, 2026":       d(2026, 11, 3), // English still
		"3 hours ago":            now.Add(-3 * time.Hour),
	} {
		got, ok := ParseDate(in, now)
		if !ok || !got.Equal(want) {
			t.Errorf("ParseDate(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"3 foo 2026", "mar", "hier ist nichts", "3 jui 2026", "vor allem", "32 novembre 2026"} {
		if got, ok := ParseDate(in, now); ok {
			t.Errorf("ParseDate(%q) = %v, want refused", in, got)
		}
	}
}
