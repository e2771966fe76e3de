package notice

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// fold maps the accented Latin letters of the European languages the
// phrase lists cover to their plain forms, so that "Paramètres" matches
// "parametres" and "Zaloguj się" matches "zaloguj sie".
var fold = strings.NewReplacer(
	"á", "a", "à", "a", "â", "a", "ä", "a", "ã", "a", "å", "a", "ą", "a",
	"é", "e", "è", "e", "ê", "e", "ë", "e", "ę", "e", "ě", "e",
	"í", "i", "ì", "i", "î", "i", "ï", "i",
	"ó", "o", "ò", "o", "ô", "o", "ö", "o", "õ", "o", "ø", "o", "ő", "o",
	"ú", "u", "ù", "u", "û", "u", "ü", "u", "ů", "u", "ű", "u",
	"ñ", "n", "ń", "n", "ç", "c", "ć", "c", "č", "c", "ś", "s", "š", "s",
	"ź", "z", "ż", "z", "ž", "z", "ł", "l", "ř", "r", "ý", "y",
	"ß", "ss", "æ", "ae", "œ", "oe",
)

// norm lower-cases and folds s, turns everything but letters and digits
// into single spaces, and pads it with a space at each end, so that a
// phrase matches on word boundaries with strings.Contains.
func norm(s string) string {
	s = fold.Replace(strings.ToLower(s))
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(' ')
	space := true
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	if !space {
		b.WriteByte(' ')
	}
	return b.String()
}

// phrases is a list of words or phrases, written in plain lower case. A
// phrase ending in '*' matches any word it begins ("necessar*" matches
// "necessary" and "necessarie"); a phrase starting with '=' must be the
// whole text ("=ok"); a phrase starting with '~' matches anywhere, for
// scripts written without spaces.
type phrases []string

// in reports whether normalised text n (from norm) holds one of p.
func (p phrases) in(n string) bool { return p.which(n) != "" }

// which returns the first phrase of p in normalised text n, or "".
func (p phrases) which(n string) string {
	for _, ph := range p {
		switch {
		case ph[0] == '=':
			if n == " "+ph[1:]+" " {
				return ph
			}
		case ph[0] == '~':
			if strings.Contains(n, ph[1:]) {
				return ph
			}
		case ph[len(ph)-1] == '*':
			if strings.Contains(n, " "+ph[:len(ph)-1]) {
				return ph
			}
		default:
			if strings.Contains(n, " "+ph+" ") {
				return ph
			}
		}
	}
	return ""
}

// quote returns s collapsed, capped at limit runes with an ellipsis, and
// quoted with Go escaping: the only way page text enters a message.
func quote(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > limit {
		r := []rune(s)
		s = strings.TrimSpace(string(r[:limit-1])) + "…"
	}
	return strconv.Quote(s)
}
