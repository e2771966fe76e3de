package sheet

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// unspaced takes out the marks that group digits by thousands but never
// mark decimals. Built once: a sheet reads every cell with it.
var unspaced = strings.NewReplacer("'", "", " ", "", "\u00a0", "", "\u202f", "")

var numberToken = lazyRE(`[-−]?\d[\d.,'\x{00a0}\x{202f} ]*`)

// commaDecimal holds the languages that write 1.299,00 (a comma before
// the decimals); regions that write 1,299.00 are named apart.
var (
	commaDecimal  = map[string]bool{"de": true, "fr": true, "es": true, "it": true, "nl": true, "pt": true, "ru": true, "pl": true, "cs": true, "sk": true, "sv": true, "da": true, "nb": true, "no": true, "nn": true, "fi": true, "tr": true, "el": true, "hu": true, "ro": true, "bg": true, "uk": true, "id": true, "vi": true, "hr": true, "sl": true, "sr": true, "lt": true, "lv": true, "et": true, "ca": true, "is": true}
	pointExcepted = map[string]bool{"es-mx": true, "es-us": true, "de-ch": true, "it-ch": true, "de-li": true}
)

// ParseNumber reads the first number written in s: "£1,299.00" is 1299,
// and so is "1.299,00 €" in a page whose language (lang, its BCP 47 tag)
// writes a comma before the decimals. When both marks appear the last one
// is the decimal one whatever the language.
func ParseNumber(s, lang string) (float64, bool) {
	tok := strings.TrimRight(numberToken.FindString(s), ".,' \u00a0\u202f")
	if tok == "" {
		return 0, false
	}
	neg := strings.HasPrefix(tok, "-") || strings.HasPrefix(tok, "−")
	tok = strings.TrimLeft(tok, "-−")
	tok = unspaced.Replace(tok)
	dot, comma := strings.LastIndexByte(tok, '.'), strings.LastIndexByte(tok, ',')
	decimal := byte('.')
	switch {
	case dot >= 0 && comma >= 0:
		if comma > dot {
			decimal = ','
		}
	case comma >= 0:
		// One comma followed by exactly three digits is a thousands mark
		// unless the language says otherwise.
		if writesComma(lang) || strings.Count(tok, ",") == 1 && len(tok)-comma-1 != 3 {
			decimal = ','
		}
	case dot >= 0:
		if writesComma(lang) && (strings.Count(tok, ".") > 1 || len(tok)-dot-1 == 3) {
			decimal = ','
		} else if strings.Count(tok, ".") > 1 {
			decimal = ','
		}
	}
	group := ","
	if decimal == ',' {
		group = "."
	}
	tok = strings.ReplaceAll(tok, group, "")
	tok = strings.Replace(tok, string(decimal), ".", 1)
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}

func writesComma(lang string) bool {
	l := strings.ToLower(strings.ReplaceAll(lang, "_", "-"))
	if pointExcepted[l] {
		return false
	}
	base, _, _ := strings.Cut(l, "-")
	return commaDecimal[base]
}

// Numbers returns the numbers written in text, as
func Numbers(text string) []string { return numberToken.FindAllString(text, -1) }

// Value turns a field's text as the page shows it into the schema's type:
// a number for number and integer, true/false for boolean, the text with
// its spaces collapsed for a string. No text is null. ok is false when
// the text does not read as the type.
func Value(text *string, typ, lang string) (v any, ok bool) {
	if text == nil {
		return nil, true
	}
	t := strings.Join(strings.Fields(*text), " ")
	if t == "" {
		return nil, true
	}
	switch typ {
	case "number", "integer":
		n, ok := ParseNumber(t, lang)
		if !ok {
			return nil, false
		}
		return n, true
	case "boolean":
		switch strings.ToLower(t) {
		case "true", "yes", "✓", "✔":
			return true, true
		case "false", "no", "✗", "✘":
			return false, true
		}
		return nil, false
	}
	return t, true
}

// ValueAt is [Value] for a value of a schema's type and format: a string
// of format date or date-time is a date as written ([ParseDateIn] in the
// language lang, relative ones against now), given in ISO 8601; ok is
// false when it reads as no date.
func ValueAt(text *string, typ, format, lang string, now time.Time) (v any, ok bool) {
	v, ok = Value(text, typ, lang)
	s, isString := v.(string)
	if format == "" || !ok || !isString {
		return v, ok
	}
	d, ok := ParseDateIn(s, lang, now)
	if !ok {
		return nil, false
	}
	return ISODate(d, format), true
}
