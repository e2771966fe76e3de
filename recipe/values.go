package recipe

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/waymark-dev/waymark/sheet"
)

// ParseNumber reads the first number written in s: "£1,299.00" is 1299,
// and so is "1.299,00 €" in a page whose language (lang, its BCP 47 tag)
// writes a comma before the decimals. When both marks appear the last one
// is the decimal one whatever the language.
func ParseNumber(s, lang string) (float64, bool) { return sheet.ParseNumber(s, lang) }

// Value turns a field's text as the page shows it into the schema's type:
// a number for number and integer, true/false for boolean, the text with
// its spaces collapsed for a string. No text is null. ok is false when
// the text does not read as the type.
func Value(text *string, typ, lang string) (v any, ok bool) { return sheet.Value(text, typ, lang) }

// Same reports whether a value read from the page equals the model's, after
// the schema's normalisation: spaces collapsed, "" is null, numbers by value.
func Same(page, model any) bool {
	return normal(page) == normal(model)
}

func normal(v any) any {
	switch x := v.(type) {
	case string:
		t := strings.Join(strings.Fields(x), " ")
		if t == "" {
			return nil
		}
		return t
	case int:
		return float64(x)
	case float64:
		return x
	}
	return v
}

// Shown reports whether text writes the number n anywhere, in either way
// of marking decimals: a model's number the page does not show is refused.
func Shown(n float64, text string) bool {
	for _, written := range sheet.Numbers(text) {
		for _, tok := range spacedApart(written) {
			for _, lang := range []string{"en", "de"} {
				if f, ok := ParseNumber(tok, lang); ok && (f == n || f == -n) {
					return true
				}
			}
		}
	}
	return false
}

// spacedApart splits a run of numbers the page's text put side by side
// ("395.67 1", a price and the day of the date after it) where a space
// is no thousands separator: a part joins the one before only when that
// one is one to three digits and it is three digits (with decimals), as
// in "1 299,00".
func spacedApart(tok string) []string {
	parts := strings.FieldsFunc(tok, func(r rune) bool { return r == ' ' || r == '\u00a0' || r == '\u202f' })
	if len(parts) < 2 {
		return []string{tok}
	}
	var out []string
	cur, last := parts[0], parts[0]
	for _, p := range parts[1:] {
		if grouped(last, p) {
			cur += " " + p
		} else {
			out = append(out, cur)
			cur = p
		}
		last = p
	}
	return append(out, cur)
}

// grouped says whether next continues prev's number as a group of three.
func grouped(prev, next string) bool {
	digits := func(s string) bool { return strings.Trim(s, "0123456789") == "" }
	if len(prev) > 3 || !digits(prev) {
		return false
	}
	whole, _, _ := strings.Cut(strings.TrimRight(next, ".,"), ",")
	whole, _, _ = strings.Cut(whole, ".")
	return len(whole) == 3 && digits(whole)
}

// ValueAt is [Value] for a field: a string of format date or date-time is
// a date as the page writes it ([ParseDateIn] in the page's language,
// relative ones against now), given in ISO 8601; ok is false when it
// reads as no date.
//
// A field the schema allows null reads as null where the page writes
// words instead of a value ("on request", "n/a", "—", "sold out", "TBA",
// "Preis auf Anfrage", in any language): text with no digit in it, of a
// few words. Text with digits that is not the type is still a misfit, as
// is a long text (the recipe reading another element).
//
// A boolean with words of its own (Field.Yes, No, Missing) reads them:
// a word seen in no learned row is not ok, nullable or not.
func ValueAt(text *string, f Field, lang string, now time.Time) (v any, ok bool) {
	if f.words() {
		return yesNo(text, f)
	}
	v, ok = sheet.ValueAt(text, f.Type, f.Format, lang, now)
	if !ok && f.Nullable && text != nil && wordsForNone(*text) {
		return nil, true
	}
	return v, ok
}

// wordsForNone reports whether a page's text where a value should be is
// words saying there is none: no digit, and at most five words.
func wordsForNone(s string) bool {
	if strings.IndexFunc(s, unicode.IsDigit) >= 0 {
		return false
	}
	n := len(strings.Fields(s))
	return n > 0 && n <= 5
}

// NormalDates gives the dates of rows (their fields of format date or
// date-time, as a model wrote them from the page) in ISO 8601, in place,
// as a recipe reads them. A value that reads as no date is left as it is.
func NormalDates(rows []map[string]any, fields []Field, lang string, now time.Time) {
	for _, f := range fields {
		if f.Format == "" {
			continue
		}
		for _, row := range rows {
			if s, ok := row[f.Name].(string); ok {
				if v, ok := ValueAt(&s, f, lang, now); ok && v != nil {
					row[f.Name] = v
				}
			}
		}
	}
}

// HasDates reports whether some field is a date.
func HasDates(fields []Field) bool {
	for _, f := range fields {
		if f.Format != "" {
			return true
		}
	}
	return false
}

// PageLang is the language the page says it is written in (its root's
// lang), "" when it says none.
func PageLang(ctx context.Context, ev Evaler) (string, error) {
	var lang string
	err := run(ctx, ev, "return norm(document.documentElement.lang || '');", nil, &lang)
	return lang, err
}

// word is a page's text as a yes/no word: spaces collapsed, lower case;
// "" is none.
func word(text *string) string {
	if text == nil {
		return ""
	}
	return strings.ToLower(strings.Join(strings.Fields(*text), " "))
}

// yesNo reads a boolean by its field's words.
func yesNo(text *string, f Field) (any, bool) {
	w := word(text)
	switch {
	case w == "" && f.Missing != nil:
		return *f.Missing, true
	case w == "":
		return nil, true
	case slices.Contains(f.Yes, w):
		return true, true
	case slices.Contains(f.No, w):
		return false, true
	}
	return nil, false
}
