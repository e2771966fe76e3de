package sheet

import (
	"strings"
	"time"
)

// Kind is what a cell's text is: a number, a date, yes/no, text… A
// column's kind is its cells' majority; a header is told by the kinds
// shifting under it.
type Kind string

// The kinds of cells.
const (
	KindEmpty    Kind = ""
	KindText     Kind = "text"
	KindNumber   Kind = "number"
	KindCurrency Kind = "currency" // a number with a currency sign or code: "$14.50", "12,00 €"
	KindPercent  Kind = "percent"  // "12.5%"
	KindDate     Kind = "date"
	KindYesNo    Kind = "yes/no"
)

// numeric reports whether a kind is read as a number.
func (k Kind) numeric() bool { return k == KindNumber || k == KindCurrency || k == KindPercent }

// slashedDate is 03/04/2012 or 3/4/26: a date whichever way it reads.
var slashedDate = lazyRE(`^\d{1,2}/\d{1,2}/(?:\d{2}|\d{4})$`)

// plainNumber reports whether t is a number written whole: digits grouped
// by thousands with commas, dots, apostrophes or spaces, decimals after a
// point or a comma ("1,234.50", "1.234,50", "12", "0.5"); "Order 12" is
// text. Written by hand, not as a regular expression: it runs on every
// cell of a sheet.
func plainNumber(t string) bool {
	if strings.HasPrefix(t, "−") {
		t = t[len("−"):]
	} else if t != "" && (t[0] == '-' || t[0] == '+') {
		t = t[1:]
	}
	lead := digits(t)
	if lead == 0 {
		return false
	}
	if decimalTail(t[lead:]) {
		return true // 12, 0.5, 1234,50
	}
	if lead > 3 {
		return false
	}
	rest := t[lead:]
	for groups := 0; ; groups++ {
		if groups > 0 && (rest == "" || decimalTail(rest)) {
			return true
		}
		n := groupSep(rest)
		if n == 0 || digits(rest[n:]) < 3 || len(rest) > n+3 && isDigit(rest[n+3]) {
			return false
		}
		rest = rest[n+3:]
	}
}

// decimalTail reports whether s is empty or a point or comma and digits.
func decimalTail(s string) bool {
	return s == "" || (s[0] == '.' || s[0] == ',') && len(s) > 1 && digits(s[1:]) == len(s)-1
}

// groupSep is the length of the thousands mark s starts with, or 0.
func groupSep(s string) int {
	switch {
	case s == "":
		return 0
	case s[0] == ',' || s[0] == '.' || s[0] == '\'' || s[0] == ' ':
		return 1
	case strings.HasPrefix(s, "\u00a0"):
		return len("\u00a0")
	case strings.HasPrefix(s, "\u202f"):
		return len("\u202f")
	}
	return 0
}

// digits counts the ASCII digits s starts with.
func digits(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// currencies are the signs and codes a currency amount is written with,
// before or after the number.
var currencies = []string{"US$", "CA$", "A$", "$", "€", "£", "¥", "₹", "₽", "₩", "₺", "₪", "CHF", "USD", "EUR", "GBP", "JPY", "CAD", "AUD", "kr"}

// kindNow is the time relative dates are read against when a cell's kind
// is told; only whether the text reads as a date matters.
var kindNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// KindOf tells what a cell's text is. Yes/no is yes, no, true, false, y,
// n, ✓ or ✗, or the same words in the languages written dates are read
// in (ja/nein, oui/non, sí/no, sim/não, tak/nie, はい/いいえ…); a number must be the whole text (with a sign, a currency or
// a percent sign, or accounting parentheses); a date is one recipe
// reads ("2026-11-01", "1 Nov 2026", "24/06/2012"), or numbers with
// slashes that read either way.
func KindOf(v string) Kind {
	t := strings.TrimSpace(v)
	if t == "" {
		return KindEmpty
	}
	if len(t) > 64 {
		return KindText // no number or date is that long: skip the parsing
	}
	switch strings.ToLower(t) {
	case "yes", "no", "true", "false", "y", "n", "✓", "✔", "✗", "✘",
		"ja", "nein", "wahr", "falsch", "oui", "non", "vrai", "faux", "sí", "verdadero", "falso",
		"sim", "não", "vero", "tak", "nie", "nee", "nej", "はい", "いいえ", "是", "否", "예", "아니오":
		return KindYesNo
	}
	if k, ok := numberKind(t); ok {
		return k
	}
	if hasDigit(t) {
		if slashedDate.MatchString(t) {
			return KindDate
		}
		if _, ok := ParseDate(t, kindNow); ok {
			return KindDate
		}
	}
	return KindText
}

// numberKind reads t as a number, a currency amount or a percentage.
func numberKind(t string) (Kind, bool) {
	kind := KindNumber
	if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[1 : len(t)-1]) // accounting: (1,234.00) is negative
	}
	t = strings.TrimLeft(t, "-−+ ")
	if s, ok := strings.CutSuffix(t, "%"); ok {
		t, kind = strings.TrimSpace(s), KindPercent
	} else if s, ok := trimCurrency(t); ok {
		t, kind = s, KindCurrency
	}
	if !plainNumber(t) {
		return "", false
	}
	return kind, true
}

// trimCurrency takes a currency sign or code off either end of t.
func trimCurrency(t string) (string, bool) {
	for _, c := range currencies {
		if s, ok := strings.CutPrefix(t, c); ok {
			return strings.TrimLeft(strings.TrimSpace(s), "-−+"), true
		}
		if s, ok := strings.CutSuffix(t, c); ok {
			return strings.TrimSpace(s), true
		}
	}
	return t, false
}

// Number reads a cell's text as a number: "1,234.50", "$14.50",
// "12.5%" (12.5: a percentage is given as written), "(1,200)" (-1200).
// ok is false for text that is not a number.
func Number(v string) (float64, bool) {
	t := strings.TrimSpace(v)
	k, ok := numberKind(t)
	if !ok || !k.numeric() {
		return 0, false
	}
	n, ok := ParseNumber(t, "")
	if !ok {
		return 0, false
	}
	if (strings.HasPrefix(t, "(") || strings.HasPrefix(t, "-") || strings.HasPrefix(t, "−")) && n > 0 {
		n = -n
	}
	return n, true
}

func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}
