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

// nearLookalikes are look-alikes TR39's table does not count (small
// capitals such as Cyrillic к, м, т; letters with a diaeresis such as ё
// and ї; Greek letters read as Latin), kept from the hand-picked table
// that came before it: a check that folds more refuses more disguises.
var nearLookalikes = map[rune]rune{
	'в': 'b', 'ё': 'e', 'ї': 'i', 'к': 'k', 'м': 'm', 'т': 't', 'τ': 't', 'χ': 'x', 'κ': 'k', 'ε': 'e',
	'η': 'n', 'ω': 'w', 'Ё': 'E', 'Ї': 'I', 'Ԁ': 'D', 'Ԛ': 'Q',
}

// lookalike returns the Latin letter r mimics, if any.
func lookalike(r rune) (rune, bool) {
	if l, ok := confusablesTable[r]; ok {
		return l, true
	}
	l, ok := nearLookalikes[r]
	return l, ok
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
// letters replaced by the Latin letter they mimic (every one Unicode
// TR39's confusables table knows: table.go, derived in table_test.go; a
// hand-picked Cyrillic and Greek subset before let Armenian, Cherokee,
// Latin-extension and other look-alikes through). Case is kept; compare
// with strings.EqualFold or lower both sides.
func Fold(s string) string {
	s = norm.NFKC.String(s)
	return strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		if l, ok := lookalike(r); ok {
			return l
		}
		return r
	}, s)
}

// ConfusablesJSON is the look-alike table as a JSON object from letter to
// letter, for the page-side copy of Fold (driver/js), so both fold alike.
func ConfusablesJSON() string {
	m := make(map[string]string, len(confusablesTable)+len(nearLookalikes))
	for _, t := range []map[rune]rune{confusablesTable, nearLookalikes} {
		for k, v := range t {
			m[string(k)] = string(v)
		}
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
