package siteapi

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Rows the browser read are matched with items of an answer by their
// values: a row's value is the item's when they read the same as words
// ("Desk lamp" and "Desk  lamp"), or as a number ("€12.50" and 12.5).

// same reports whether a value the page showed is an answer's value.
func same(shown, api any) bool {
	a, b := text(shown), text(api)
	if a == "" || b == "" {
		return false
	}
	if strings.EqualFold(a, b) {
		return true
	}
	if _, ok := api.(float64); ok {
		if n, ok := number(a); ok {
			f, _ := strconv.ParseFloat(b, 64)
			return n == f
		}
	}
	return false
}

// number reads the one number a price or count is written with
// ("€1,299.50", "12 items"), or false when there is none or several.
func number(s string) (float64, bool) {
	var digits strings.Builder
	seen, gap := false, false
	for _, r := range s {
		switch {
		case unicode.IsDigit(r) || (r == '.' && seen):
			if gap {
				return 0, false
			}
			digits.WriteRune(r)
			seen = true
		case r == ',' && seen:
		case r == '-' && !seen:
			digits.WriteRune(r)
		default:
			if seen {
				gap = true
			}
		}
	}
	if !seen {
		return 0, false
	}
	f, err := strconv.ParseFloat(digits.String(), 64)
	return f, err == nil
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
	types   map[string]map[string]bool
}

// fitList matches rows with items and maps each field to the pointer
// most of its matched values are at.
func fitList(rows []map[string]any, items []any, names []string) fit {
	f := fit{fields: map[string]string{}, types: map[string]map[string]bool{}}
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
					if same(r[name], l.v) {
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
				if same(r[name], l.v) {
					if counts[name] == nil {
						counts[name] = map[string]int{}
					}
					counts[name][l.p]++
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
		f.fields[name] = bestP
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
