package form

import (
	"strconv"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// How an answer is matched to what a field offers or holds: a
// checkbox's yes or no, the option that is the answer, whether the field
// holds what the write meant, (the day a calendar's cell names: calendar.go).

// Truthy reads a checkbox's answer; ok is false for one that is neither.
func Truthy(v string) (on, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "checked", "1", "y", "x":
		return true, true
	case "false", "no", "off", "unchecked", "0", "n", "":
		return false, true
	}
	return false, false
}

// PickOption returns the index of the option that is the answer: the
// one whose words are the answer, else (loose) the one option starting
// with it, else the one containing it. -1 for none, and for several at
// the first tier that has any: never a near miss, never a guess.
func PickOption(options []string, value string, loose bool) int {
	want := foldWords(value)
	if want == "" {
		return -1
	}
	tiers := []func(string) bool{func(o string) bool { return o == want }}
	if loose {
		tiers = append(tiers, func(o string) bool { return strings.HasPrefix(o, want) }, func(o string) bool { return strings.Contains(o, want) })
	}
	for n, ok := range tiers {
		found := -1
		for i, o := range options {
			if !ok(foldWords(o)) {
				continue
			}
			if found >= 0 && n > 0 && foldWords(options[found]) != foldWords(o) {
				return -1 // two options fit as well: which one is a guess
			}
			if found < 0 {
				found = i
			}
		}
		if found >= 0 {
			return found
		}
	}
	return -1
}

// foldWords lower-cases words and folds their spaces.
func foldWords(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// dateFormats are the usual ways a field writes a date.
var dateFormats = []string{"YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY", "DD.MM.YYYY", "D/M/YYYY", "M/D/YYYY", "DD-MM-YYYY"}

// SameValue says whether what a field of kind (written in format, for a
// date) holds, got, is what the write meant, want.
func SameValue(kind, format, want, got string) bool {
	switch kind {
	case calls.FieldFile:
		return want != "" && strings.Contains(got, want)
	case calls.FieldDate:
		// The same day, however the field writes it: in its own format, or
		// in any of the usual ones ("05/03/2027" reads either way alone).
		if y, m, d, err := ParseDate(want); err == nil {
			got = strings.TrimSpace(got)
			for _, f := range append([]string{format}, dateFormats...) {
				if f != "" && got == FormatDate(f, y, m, d) {
					return true
				}
			}
			if y2, m2, d2, err := ParseDate(got); err == nil {
				return y == y2 && m == m2 && d == d2
			}
		}
	case calls.FieldSlider:
		a, err1 := strconv.ParseFloat(strings.TrimSpace(want), 64)
		b, err2 := strconv.ParseFloat(strings.TrimSpace(got), 64)
		return err1 == nil && err2 == nil && a == b
	}
	return foldWords(want) == foldWords(got)
}
