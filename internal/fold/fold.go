// Package fold gives the one form in which waymark compares words a page
// wrote with words it looks for: the submit gate's commit words, the
// fence's closing tag. A page can make "Pay now" look the same to a person
// and different to a byte comparison (a soft hyphen, a zero-width space,
// fullwidth letters, a Cyrillic "а"); folded, both read "pay now".
package fold

import (
	"encoding/json"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// confusables maps letters that look like Latin ones to those letters:
// Cyrillic and Greek look-alikes, the usual way to dodge a word check
// (from Unicode's confusables.txt, the letters of the Latin alphabet
// only).
var confusables = map[rune]rune{
	// Cyrillic lower case
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'һ': 'h', 'і': 'i', 'ї': 'i', 'ј': 'j', 'к': 'k', 'м': 'm',
	'о': 'o', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x', 'ѕ': 's', 'ԁ': 'd', 'ԛ': 'q',
	'ԝ': 'w', 'ү': 'y', 'ɡ': 'g', 'ᴠ': 'v', 'ⅼ': 'l', 'ɑ': 'a', 'ο': 'o', 'ν': 'v', 'ρ': 'p', 'τ': 't',
	'υ': 'u', 'χ': 'x', 'ι': 'i', 'κ': 'k', 'α': 'a', 'ε': 'e', 'η': 'n', 'ω': 'w', 'γ': 'y',
	// Cyrillic upper case
	'А': 'A', 'В': 'B', 'Е': 'E', 'Ё': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C',
	'Т': 'T', 'У': 'Y', 'Х': 'X', 'І': 'I', 'Ї': 'I', 'Ј': 'J', 'Ѕ': 'S', 'Ԁ': 'D', 'Ԛ': 'Q', 'Ԝ': 'W',
	'Ү': 'Y',
	// Greek upper case
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
}

// invisible reports whether r is a character a person does not see: a
// format character (soft hyphen, zero-width space and joiners, word
// joiner, byte order mark, bidi controls, Mongolian vowel separator) or a
// variation selector.
func invisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r) || r == '\u180e' || r == '\u034f'
}

// Fold returns s as a person reads it: NFKC (fullwidth and compatibility
// forms become plain ones), invisible characters removed, look-alike
// letters replaced by the Latin letter they mimic. Case is kept; compare
// with strings.EqualFold or lower both sides.
func Fold(s string) string {
	s = norm.NFKC.String(s)
	return strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		if l, ok := confusables[r]; ok {
			return l
		}
		return r
	}, s)
}

// ConfusablesJSON is the look-alike table as a JSON object from letter to
// letter, for the page-side copy of Fold (driver/js), so both fold alike.
func ConfusablesJSON() string {
	m := make(map[string]string, len(confusables))
	for k, v := range confusables {
		m[string(k)] = string(v)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// Line is a page's words as one line of waymark's output: every run of
// white space and control characters (a line break, an escape sequence's
// ESC, a bell) becomes one space, so that a title or a description a page
// wrote can neither start a line of its own nor act on a terminal.
func Line(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}
