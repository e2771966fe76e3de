package siteapi

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/waymark-dev/waymark/sheet"
)

// Rows the browser read are matched with items of an answer by their
// values, across the ways a site writes one value twice: as words
// ("Desk lamp" and "Desk  lamp"), as a number ("€12.50" and 12.5, "12,50 €"
// and 12.5), in minor units ("$42.64" and 4264, kept in the recipe as the
// field's Divide), as a yes or no ("In stock" and true), and as a date
// ("3 Nov 2026" and "2026-11-03T10:00:00Z").

// Ways a shown value is an answer's (what [match] says).
const (
	asIs  = ""      // the same words or number
	minor = "minor" // the answer counts the page's amount in hundredths
)

// same reports whether a value the page showed is an answer's value, as
// it is (a recipe's Divide already applied).
func same(shown, api any) bool {
	how, ok := match(shown, api)
	return ok && how == asIs
}

// match reports whether a value the page showed is an answer's value, and
// how: as it is, or in minor units.
func match(shown, api any) (string, bool) {
	a, b := text(shown), text(api)
	if a == "" || b == "" {
		return asIs, false
	}
	if strings.EqualFold(a, b) {
		return asIs, true
	}
	switch v := api.(type) {
	case float64:
		n, ok := number(a)
		if !ok {
			if sn, isNum := shown.(float64); isNum {
				n, ok = sn, true
			}
		}
		if !ok {
			return asIs, false
		}
		if n == v {
			return asIs, true
		}
		// Minor units: an integer answer a hundred times what the page
		// shows as an amount (with its decimals or its currency).
		if v == math.Trunc(v) && math.Abs(n*100-v) < 0.5 && n != 0 && (strings.ContainsAny(a, ".,") || hasCurrency(a)) {
			return minor, true
		}
	case bool:
		if w, ok := yesNo(a); ok && w == v {
			return asIs, true
		}
	case string:
		if sameDay(a, v) {
			return asIs, true
		}
		// An amount the answer writes as text ("42.64", "1299.00"), as
		// many APIs write decimals, and the page as money ("42,64 €").
		if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			if n, ok := number(a); ok && n == f {
				return asIs, true
			}
		}
	}
	return asIs, false
}

// number reads the one number a price or count is written with
// ("€1,299.50", "12,50 €", "12 items"), or false when there is none or
// several.
func number(s string) (float64, bool) {
	// Most shown values are words: no digit, no number, and no regexp
	// run (fitList compares every row with every leaf of every item).
	if strings.IndexFunc(s, unicode.IsDigit) < 0 {
		return 0, false
	}
	if len(sheet.Numbers(s)) != 1 {
		return 0, false
	}
	return sheet.ParseNumber(s, "")
}

// hasCurrency reports whether s holds a currency sign or code.
func hasCurrency(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Sc, r) {
			return true
		}
	}
	up := strings.ToUpper(s)
	for _, code := range []string{"USD", "EUR", "GBP", "CHF", "JPY", "CAD", "AUD", "SEK", "NOK", "DKK", "PLN", "CZK"} {
		if strings.Contains(up, code) {
			return true
		}
	}
	return false
}

// yesWords and noWords are how pages say a flag the answer gives as true
// or false, in the languages the submit gate knows.
var (
	yesWords = []string{"yes", "true", "in stock", "available", "✓", "✔", "ja", "auf lager", "verfügbar", "lieferbar", "oui", "en stock", "disponible", "sí", "si", "en existencia", "sì", "disponibile", "in voorraad", "sim", "em estoque", "tak", "dostępny"}
	noWords  = []string{"no", "false", "out of stock", "sold out", "unavailable", "not available", "✗", "✘", "nein", "ausverkauft", "nicht verfügbar", "nicht lieferbar", "non", "épuisé", "rupture de stock", "indisponible", "agotado", "no disponible", "esaurito", "non disponibile", "uitverkocht", "niet beschikbaar", "esgotado", "indisponível", "nie", "niedostępny", "brak"}
)

// yesNo reads a yes or a no a page shows.
func yesNo(s string) (bool, bool) {
	l := strings.ToLower(strings.Trim(s, " .!"))
	for _, w := range noWords { // "not available" before "available"
		if l == w {
			return false, true
		}
	}
	for _, w := range yesWords {
		if l == w {
			return true, true
		}
	}
	return false, false
}

// sameDay reports whether a date the page shows and one the answer gives
// (ISO 8601, with or without a time) are the same day. The answer's day
// is its own, as written (a time of 23:30Z is that date, as the page's
// server wrote it).
func sameDay(shown, api string) bool {
	if len(api) < 10 || api[4] != '-' || api[7] != '-' {
		return false
	}
	d, err := time.Parse("2006-01-02", api[:10])
	if err != nil {
		return false
	}
	// A date with no year is read in the answer's year.
	p, ok := sheet.ParseDate(shown, d)
	return ok && p.Year() == d.Year() && p.YearDay() == d.YearDay()
}

// fieldsOf returns the row fields in a stable order: as the first row
// lists them, then any more in name order.
func fieldsOf(rows []map[string]any) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		var names []string
		for k := range r {
			if !seen[k] {
				seen[k] = true
				names = append(names, k)
			}
		}
		sort.Strings(names)
		out = append(out, names...)
	}
	return out
}

// fit is how well a list in an answer holds the browser's rows.
type fit struct {
	rows    int               // rows found, every value of theirs in one item
	partial int               // values found in all
	fields  map[string]string // field → pointer inside an item
	minor   map[string]bool   // field → the answer gives it in minor units
	types   map[string]map[string]bool
}

// fitList matches rows with items and maps each field to the pointer
// most of its matched values are at.
func fitList(rows []map[string]any, items []any, names []string) fit {
	f := fit{fields: map[string]string{}, minor: map[string]bool{}, types: map[string]map[string]bool{}}
	counts := map[string]map[string]int{}
	itemLeaves := make([][]leaf, len(items))
	for i, it := range items {
		leaves(it, "", 4, func(p string, v any) { itemLeaves[i] = append(itemLeaves[i], leaf{p, v}) })
	}
	for _, r := range rows {
		best, bestN, want := -1, 0, 0
		for _, n := range names {
			if text(r[n]) != "" {
				want++
			}
		}
		for i := range items {
			n := 0
			for _, name := range names {
				for _, l := range itemLeaves[i] {
					if _, ok := match(r[name], l.v); ok {
						n++
						break
					}
				}
			}
			if n > bestN {
				best, bestN = i, n
			}
		}
		if best < 0 {
			continue
		}
		f.partial += bestN
		if bestN == want {
			f.rows++
		}
		for _, name := range names {
			for _, l := range itemLeaves[best] {
				if how, ok := match(r[name], l.v); ok {
					if counts[name] == nil {
						counts[name] = map[string]int{}
					}
					counts[name][l.p+"\x00"+how]++
				}
			}
		}
	}
	for name, c := range counts {
		var bestP string
		bestN := 0
		for p, n := range c {
			if n > bestN || (n == bestN && (len(p) < len(bestP) || len(p) == len(bestP) && p < bestP)) {
				bestP, bestN = p, n
			}
		}
		bestP, how, _ := strings.Cut(bestP, "\x00")
		f.fields[name], f.minor[name] = bestP, how == minor
		f.types[name] = map[string]bool{}
		for _, it := range items {
			v, ok := at(it, bestP)
			f.types[name][jsonType(v, ok)] = true
		}
	}
	return f
}

type leaf struct {
	p string
	v any
}

func jsonType(v any, ok bool) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "null"
}

// lists returns the pointer of every array of objects in v.
func lists(v any, prefix string, depth int, out map[string][]any) {
	switch x := v.(type) {
	case map[string]any:
		if depth == 0 {
			return
		}
		for k, c := range x {
			lists(c, join(prefix, k), depth-1, out)
		}
	case []any:
		objects := 0
		for _, it := range x {
			if _, ok := it.(map[string]any); ok {
				objects++
			}
		}
		if objects > 0 && objects == len(x) {
			out[prefix] = x
		}
	}
}
