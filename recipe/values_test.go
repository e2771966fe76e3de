package recipe

import (
	"testing"
	"time"
)

func TestParseNumber(t *testing.T) {
	for _, c := range []struct {
		in, lang string
		want     float64
	}{
		{"£1,299.00", "en", 1299},
		{"1.299,00 €", "de", 1299},
		{"1.299,00 €", "", 1299},
		{"1 299,50 €", "fr", 1299.5},
		{"$14.50", "en-US", 14.5},
		{"12,50 €", "", 12.5},
		{"1,299", "en", 1299},
		{"1.299", "de", 1299},
		{"−3", "", -3},
		{"CHF 1'299.50", "de-CH", 1299.5},
		{"Price: 22", "", 22},
	} {
		got, ok := ParseNumber(c.in, c.lang)
		if !ok || got != c.want {
			t.Errorf("ParseNumber(%q, %q) = %v %v, want %v", c.in, c.lang, got, ok, c.want)
		}
	}
	if _, ok := ParseNumber("free", "en"); ok {
		t.Error("read a number from text with none")
	}
}

func TestShown(t *testing.T) {
	page := `- listitem: Trail Mug — £1,299.00
- listitem: Tote — 22,50 €`
	for _, n := range []float64{1299, 22.5} {
		if !Shown(n, page) {
			t.Errorf("%v is on the page", n)
		}
	}
	for _, n := range []float64{1300, 13, 22} {
		if Shown(n, page) {
			t.Errorf("%v is not on the page", n)
		}
	}
}

// TestShownBesideANumber: the page's text joined with single spaces puts
// a price beside the number the next element starts with ("£395.67 1
// March 2026", a card's price and its date); the price is still shown,
// and a number grouped with spaces ("1 299,00 €") still reads whole.
func TestShownBesideANumber(t *testing.T) {
	page := "The Cedar Cushion Jonas Novak £395.67 1 March 2026 Add to cart Le Sac 1\u202f299,00 € 12 avis"
	for _, n := range []float64{395.67, 1299, 12, 1} {
		if !Shown(n, page) {
			t.Errorf("%v is on the page", n)
		}
	}
	for _, n := range []float64{395671, 299, 2991, 1299.12} {
		if Shown(n, page) {
			t.Errorf("%v is not on the page", n)
		}
	}
}

func TestParseDate(t *testing.T) {
	now := time.Date(2026, 11, 5, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"5 minutes ago": now.Add(-5 * time.Minute),
		"3 hours ago":   now.Add(-3 * time.Hour),
		"an hour ago":   now.Add(-time.Hour),
		"yesterday":     time.Date(2026, 11, 4, 0, 0, 0, 0, time.UTC),
		"3 days ago":    now.AddDate(0, 0, -3),
		"2026-11-01":    time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		"1 Nov 2026":    time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		"Nov 1, 2026":   time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		"01.11.2026":    time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
	} {
		if got, ok := ParseDate(in, now); !ok || !got.Equal(want) {
			t.Errorf("ParseDate(%q) = %v %v, want %v", in, got, ok, want)
		}
	}
	if _, ok := ParseDate("soon", now); ok {
		t.Error("read a date from no date")
	}
}

func TestParseDateOfNumbers(t *testing.T) {
	now := time.Date(2026, 11, 5, 12, 0, 0, 0, time.UTC)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		in, lang string
		want     time.Time // zero: refused
	}{
		{"06/24/2012", "", day(2012, 6, 24)},      // 24 is no month: US order, whatever the page says
		{"24/06/2012", "en-US", day(2012, 6, 24)}, // 24 is no month: day first, even in a US page
		{"24/6/2012", "de", day(2012, 6, 24)},
		{"03/04/2012", "en-US", day(2012, 3, 4)}, // the page writes the month first
		{"03/04/2012", "en_us", day(2012, 3, 4)},
		{"03/04/2012", "en-GB", time.Time{}}, // March or April: not guessed
		{"03/04/2012", "", time.Time{}},
		{"04/04/2012", "", day(2012, 4, 4)}, // both ways the same
		{"31/02/2012", "", time.Time{}},     // no such day
		{"13/13/2012", "", time.Time{}},
	} {
		got, ok := ParseDateIn(c.in, c.lang, now)
		if c.want.IsZero() {
			if ok {
				t.Errorf("ParseDateIn(%q, %q) = %v, want it refused", c.in, c.lang, got)
			}
			continue
		}
		if !ok || !got.Equal(c.want) {
			t.Errorf("ParseDateIn(%q, %q) = %v %v, want %v", c.in, c.lang, got, ok, c.want)
		}
	}
}

func TestValueAtGivesDatesInISO(t *testing.T) {
	now := time.Date(2026, 11, 5, 12, 0, 0, 0, time.UTC)
	date := Field{Name: "on", Type: "string", Format: FormatDate}
	stamp := Field{Name: "at", Type: "string", Format: FormatDateTime}
	for _, c := range []struct {
		f          Field
		text, lang string
		want       any
	}{
		{date, "3 Nov 2026", "en", "2026-11-03"},
		{date, "yesterday", "", "2026-11-04"},
		{date, "06/24/2026", "en-US", "2026-06-24"},
		{stamp, "3 hours ago", "", "2026-11-05T09:00:00Z"},
		{stamp, "2026-11-01T09:30:00Z", "", "2026-11-01T09:30:00Z"},
		{Field{Name: "s", Type: "string"}, "3 Nov 2026", "", "3 Nov 2026"}, // no format: text as written
	} {
		text := c.text
		if got, ok := ValueAt(&text, c.f, c.lang, now); !ok || got != c.want {
			t.Errorf("ValueAt(%q, %s) = %v %v, want %v", c.text, c.f.Format, got, ok, c.want)
		}
	}
	bad := "03/04/2026"
	if v, ok := ValueAt(&bad, date, "fr", now); ok {
		t.Errorf("an ambiguous date read as %v", v)
	}
	rows := []map[string]any{{"on": "2 Nov 2026"}, {"on": "soon"}, {"on": nil}}
	NormalDates(rows, []Field{date}, "", now)
	if rows[0]["on"] != "2026-11-02" || rows[1]["on"] != "soon" || rows[2]["on"] != nil {
		t.Errorf("NormalDates gave %v", rows)
	}
}
