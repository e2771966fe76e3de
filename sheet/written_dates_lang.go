package sheet

// Dates in the languages the submit gate knows (German, French, Spanish,
// Italian, Portuguese, Dutch, Polish, Swedish, Danish, beside English):
// month names written out or cut short ("3. November 2026", "3 nov. 2026",
// "3 de noviembre de 2026", "3 listopada 2026") and relative dates
// ("hace 2 días", "vor 3 Tagen", "il y a 2 heures", "2 giorni fa").
// Written here rather than taken from github.com/markusmobius/go-dateparser:
// package sheet is linked by the thin front, which stays on the standard
// library, and that library's 200 locales cost waymark-full more than
// these ten languages need: 7.4 MB more binary (108.9 to 116.3 MB) and
// 380 ms or more of package init on every start, --version included
// (GODEBUG=inittrace=1, its internal/data package; measured for issue 28).

import (
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// monthNames are the months' names, in each language's forms (Polish
// also in the genitive a date uses: "3 listopada").
var monthNames = [12][]string{
	{"january", "januar", "janvier", "enero", "gennaio", "janeiro", "januari", "styczeń", "stycznia"},
	{"february", "februar", "février", "febrero", "febbraio", "fevereiro", "februari", "luty", "lutego"},
	{"march", "märz", "mars", "marzo", "março", "maart", "marzec", "marca", "marts"},
	{"april", "avril", "abril", "aprile", "kwiecień", "kwietnia"},
	{"may", "mai", "mayo", "maggio", "maio", "mei", "maj", "maja"},
	{"june", "juni", "juin", "junio", "giugno", "junho", "czerwiec", "czerwca"},
	{"july", "juli", "juillet", "julio", "luglio", "julho", "lipiec", "lipca"},
	{"august", "août", "agosto", "augustus", "sierpień", "sierpnia", "augusti"},
	{"september", "septembre", "septiembre", "settembre", "setembro", "wrzesień", "września"},
	{"october", "oktober", "octobre", "octubre", "ottobre", "outubro", "październik", "października"},
	{"november", "novembre", "noviembre", "novembro", "listopad", "listopada"},
	{"december", "dezember", "décembre", "diciembre", "dicembre", "dezembro", "grudzień", "grudnia"},
}

// monthShort are cut-short names that are no prefix of a full one.
var monthShort = map[string]time.Month{"mrt": time.March, "sept": time.September, "mär": time.March}

// monthOf reads a month's name, whole or cut short (at least three
// letters, naming one month in every language).
func monthOf(w string) (time.Month, bool) {
	if m, ok := monthShort[w]; ok {
		return m, true
	}
	found := time.Month(0)
	for i, names := range monthNames {
		for _, n := range names {
			if n == w {
				return time.Month(i + 1), true
			}
			if len([]rune(w)) >= 3 && strings.HasPrefix(n, w) {
				if found != 0 && found != time.Month(i+1) {
					return 0, false // "jui": juin or juillet
				}
				found = time.Month(i + 1)
			}
		}
	}
	return found, found != 0
}

// dateFillers are the words between a date's parts ("3 de noviembre de
// 2026").
var dateFillers = map[string]bool{"de": true, "del": true, "di": true, "den": true, "le": true, "el": true, "the": true, "of": true}

// wordDate reads day, month name and year in either order.
func wordDate(low string, loc *time.Location) (time.Time, bool) {
	if len(low) > 40 || strings.IndexFunc(low, unicode.IsDigit) < 0 {
		return time.Time{}, false // a sheet reads every cell: most are no date
	}
	fields := strings.FieldsFunc(low, func(r rune) bool { return unicode.IsSpace(r) || r == '.' || r == ',' })
	var day, year int
	var month time.Month
	for _, f := range fields {
		if dateFillers[f] {
			continue
		}
		f = strings.TrimSuffix(strings.TrimSuffix(f, "er"), "º") // 1er, 1º
		if n, err := strconv.Atoi(f); err == nil {
			switch {
			case len(f) == 4 && year == 0:
				year = n
			case len(f) <= 2 && day == 0:
				day = n
			default:
				return time.Time{}, false
			}
			continue
		}
		m, ok := monthOf(f)
		if !ok || month != 0 {
			return time.Time{}, false
		}
		month = m
	}
	if day == 0 || month == 0 || year == 0 {
		return time.Time{}, false
	}
	d := time.Date(year, month, day, 0, 0, 0, 0, loc)
	if d.Day() != day {
		return time.Time{}, false // 31 febbraio
	}
	return d, true
}

// dayWords are the words for today and yesterday; nowWords for now.
// Built at first use: every start of waymark links this package.
var (
	dayWords = sync.OnceValue(func() map[string]int {
		return map[string]int{
			"today": 0, "heute": 0, "aujourd'hui": 0, "hoy": 0, "oggi": 0, "hoje": 0, "vandaag": 0, "dzisiaj": 0, "dziś": 0, "idag": 0, "i dag": 0,
			"yesterday": -1, "gestern": -1, "hier": -1, "ayer": -1, "ieri": -1, "ontem": -1, "gisteren": -1, "wczoraj": -1, "igår": -1, "i går": -1,
		}
	})
	nowWords = sync.OnceValue(func() map[string]bool {
		return map[string]bool{"just now": true, "now": true, "gerade eben": true, "jetzt": true, "à l'instant": true, "maintenant": true,
			"ahora": true, "ahora mismo": true, "adesso": true, "agora": true, "zojuist": true, "teraz": true, "przed chwilą": true, "nyss": true,
			"just nu": true, "lige nu": true}
	})
)

// dayWord reads "yesterday" and its kind, alone or before a time of day
// ("gestern, 14:30").
func dayWord(low string) (int, bool) {
	for w, n := range dayWords() {
		if rest, ok := strings.CutPrefix(low, w); ok && (rest == "" || !unicode.IsLetter([]rune(rest)[0])) {
			if rest != "" && strings.IndexFunc(rest, unicode.IsLetter) >= 0 {
				continue // "hier ist nichts": words, not a time
			}
			return n, true
		}
	}
	return 0, false
}

var (
	// agoWords mark a relative date in the past: before it ("vor",
	// "il y a", "hace", "há", "för", "for") or after it ("ago", "fa",
	// "geleden", "temu", "sedan", "siden").
	agoLangRE = lazyRE(`^(?:vor|il y a|hace|há|ha|för|for)\s+(\S+)\s+(\p{L}+)(?:\s+(?:sedan|siden))?$|^(\S+)\s+(\p{L}+)\s+(?:fa|geleden|temu)$`)
	// agoCount are the words for one.
	agoCount = map[string]int{"a": 1, "an": 1, "un": 1, "une": 1, "una": 1, "um": 1, "uma": 1, "ein": 1, "einem": 1, "einer": 1, "een": 1, "ett": 1, "en": 1, "et": 1}
	// agoUnits maps the start of a unit's word in each language to it.
	agoUnits = []struct {
		prefixes []string
		unit     string
	}{
		{[]string{"sec", "sek", "seg"}, "second"},
		{[]string{"min"}, "minute"},
		{[]string{"hour", "hr", "stund", "heure", "hora", "ora", "ore", "uur", "godzin", "timm", "time"}, "hour"},
		{[]string{"day", "tag", "jour", "día", "dia", "giorn", "dag", "dni", "dzień", "dage"}, "day"},
		{[]string{"week", "woche", "semaine", "semana", "settiman", "tydzień", "tygodni", "veck", "uge"}, "week"},
		{[]string{"month", "monat", "mois", "mes", "maand", "miesiąc", "miesięcy", "månad", "måned"}, "month"},
		{[]string{"year", "jahr", "an", "ans", "année", "año", "ano", "anno", "anni", "jaar", "jaren", "rok", "lat", "år"}, "year"},
	}
)

// agoLang reads a relative date in the past in the gate's languages:
// how many, and which unit (as agoRE names them).
func agoLang(low string) (int, string, bool) {
	if len(low) > 40 || !agoLangHint(low) {
		return 0, "", false // a sheet reads every cell: most are no date
	}
	m := agoLangRE.FindStringSubmatch(low)
	if m == nil {
		return 0, "", false
	}
	count, word := m[1], m[2]
	if count == "" {
		count, word = m[3], m[4]
	}
	n, ok := agoCount[count]
	if !ok {
		var err error
		if n, err = strconv.Atoi(count); err != nil {
			return 0, "", false
		}
	}
	for _, u := range agoUnits {
		for _, p := range u.prefixes {
			if word == p || (len(p) >= 3 && strings.HasPrefix(word, p)) {
				return n, u.unit, true
			}
		}
	}
	return 0, "", false
}

// agoLangHint says whether low starts or ends with a word agoLangRE
// needs, before the expression is tried.
func agoLangHint(low string) bool {
	first, _, _ := strings.Cut(low, " ")
	switch first {
	case "vor", "il", "hace", "há", "ha", "för", "for":
		return true
	}
	i := strings.LastIndexByte(low, ' ')
	switch low[i+1:] {
	case "fa", "geleden", "temu":
		return true
	}
	return false
}
