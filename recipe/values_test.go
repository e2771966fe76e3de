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
