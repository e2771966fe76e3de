package secret

import (
	"regexp"
	"strings"
	"sync"
)

// cardRun is a run of digit groups separated by single spaces or dashes.
var cardRun = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d+(?:[ -]\d+)*`) })

// cards finds payment card numbers: 13 to 19 digits, in groups or not, that
// pass the Luhn check and start like a card a network issues. A run that
// continues with more digits is not a card (order numbers, timestamps), but
// a card followed by a separate group (the CVV) or preceded by one is.
// The issuer prefixes keep most order numbers and phone numbers out: one in
// ten random numbers passes Luhn.
func cards(s string) []Finding {
	// Text with no digit holds no run: it is not searched (\d is ASCII's
	// digits in package regexp), as the needs of the expressions spare
	// text that cannot match (detect.go).
	if !strings.ContainsAny(s, "0123456789") {
		return nil
	}
	var fs []Finding
	for _, m := range cardRun().FindAllStringIndex(s, -1) {
		fs = append(fs, cardsIn(s, m[0], m[1])...)
	}
	return fs
}

// cardsIn looks for cards among the sub-runs of s[start:end] that begin
// and end on group boundaries, taking the longest from each start.
func cardsIn(s string, start, end int) []Finding {
	// groups[i] is the [start,end) of the i-th digit group.
	var groups [][2]int
	for i := start; i < end; {
		j := i
		for j < end && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		groups = append(groups, [2]int{i, j})
		i = j + 1
	}
	var fs []Finding
	for a := 0; a < len(groups); a++ {
		// Look no further than 19 digits from a: no card is longer, and
		// this keeps a long run of short groups linear.
		best, digits := -1, 0
		for b := a; b < len(groups); b++ {
			if digits += groups[b][1] - groups[b][0]; digits > 19 {
				break
			}
			if isCard(s[groups[a][0]:groups[b][1]]) {
				best = b
			}
		}
		if best >= 0 {
			fs = append(fs, Finding{KindCard, groups[a][0], groups[best][1]})
			a = best
		}
	}
	return fs
}

// isCard reports whether a digit run with separators is a plausible card.
func isCard(run string) bool {
	d := make([]byte, 0, 19)
	for i := 0; i < len(run); i++ {
		if c := run[i]; c >= '0' && c <= '9' {
			d = append(d, c)
		}
	}
	n := len(d)
	if n < 13 || n > 19 || !issued(d) {
		return false
	}
	return luhn(d)
}

// issued reports whether the digits start like a card of a major network:
// Visa 4 (13, 16 or 19 digits), Mastercard 51–55 and 2221–2720, Amex 34
// and 37, Diners 30, 36, 38, 39, Discover and UnionPay 6, JCB 35, Maestro 5.
func issued(d []byte) bool {
	switch d[0] {
	case '4':
		return len(d) == 13 || len(d) == 16 || len(d) == 19
	case '3', '5', '6':
		return len(d) >= 14
	case '2':
		p := int(d[0]-'0')*1000 + int(d[1]-'0')*100 + int(d[2]-'0')*10 + int(d[3]-'0')
		return p >= 2221 && p <= 2720 && len(d) == 16
	}
	return false
}

// luhn reports whether the digits pass the Luhn checksum.
func luhn(d []byte) bool {
	sum := 0
	for i := len(d) - 1; i >= 0; i-- {
		v := int(d[i] - '0')
		if (len(d)-1-i)%2 == 1 {
			v *= 2
			if v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return sum%10 == 0
}
