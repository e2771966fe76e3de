package recipe

import (
	"slices"
	"strings"
	"time"
	"unicode"
)

// choose picks the way to read field f: among ways (found on any page),
// the first stable one that reads every page's rows as the model gave
// them (values[page][field][way] is what each way reads per row). A
// boolean is read by the page's own words for true and false (see
// [Field]): of the ways whose words tell the model's true from its false
// on every page, the one with the fewest words, text before attributes.
func choose(f Field, ways []candidate, values []map[string][][]*string, wants [][]map[string]any, reps []*learnReply, now time.Time) (Field, bool) {
	var best *Field
	bestScore := 0
	for w, c := range ways {
		if !stable(c.Names) {
			continue
		}
		vals := make([][]*string, len(wants))
		for i := range wants {
			if vs := values[i][f.Name]; w < len(vs) {
				vals[i] = vs[w]
			}
		}
		if f.Type == "boolean" && c.By != ByNone {
			if c.By == ByLabel && valueOfAny(c.Label, wants) {
				continue // found after one row's own value: it reads that row alone
			}
			yes, no, missing, ok := yesNoWords(f, vals, wants)
			if !ok || c.By == ByLabel && missing != nil {
				continue // a label some rows lack is no label of the list's
			}
			c.Yes, c.No, c.Missing = yes, no, missing
		}
		fw := f // read as the field, with the words learned
		fw.Yes, fw.No, fw.Missing = c.Yes, c.No, c.Missing
		ok := true
		for i := range wants {
			c.Values = vals[i]
			if c.By == ByNone {
				ok = ok && slices.IndexFunc(wants[i], func(row map[string]any) bool { return normal(row[f.Name]) != nil }) < 0
			} else {
				ok = ok && readsBack(c, fw, wants[i], reps[i].Lang, now)
			}
		}
		if !ok {
			continue
		}
		nf := c.Field
		nf.Name, nf.Type, nf.Format, nf.Nullable = f.Name, f.Type, f.Format, f.Nullable
		for _, rows := range wants {
			for _, row := range rows {
				if normal(row[f.Name]) == nil {
					nf.Optional = true
				}
			}
		}
		if f.Type != "boolean" {
			return nf, true
		}
		score := 2 * (len(nf.Yes) + len(nf.No))
		if nf.Attr != "" {
			score++
		}
		if nf.Missing != nil {
			score += 3 // an element's presence, after words on both sides
		}
		if !namesField(f.Name, append(slices.Clone(nf.Yes), nf.No...)) {
			score += 4 // with one word a side, after every way whose words name the field
		}
		if best == nil || score < bestScore {
			best, bestScore = &nf, score
		}
	}
	if best == nil {
		return Field{}, false
	}
	return *best, true
}

// yesNoWords learns a boolean's words from what a way reads (vals, per
// page per row) beside the model's rows: the words of its true rows and
// of its false ones, and the value of rows where the way reads nothing.
// ok is false when they do not tell true from false: a word on both
// sides, a word where the model gave null, no word at all, a word with a
// digit (a count, a price) or one that is another field's value in its
// row (the way reads that field, and its words would only name rows).
func yesNoWords(f Field, vals [][]*string, wants [][]map[string]any) (yes, no []string, missing *bool, ok bool) {
	for i, rows := range wants {
		if len(vals[i]) != len(rows) {
			return nil, nil, nil, false
		}
		for j, row := range rows {
			w := word(vals[i][j])
			b, isBool := row[f.Name].(bool)
			switch {
			case !isBool && w != "":
				return nil, nil, nil, false
			case !isBool:
				continue
			case w == "":
				if missing != nil && *missing != b {
					return nil, nil, nil, false
				}
				missing = &b
				continue
			case strings.IndexFunc(w, unicode.IsDigit) >= 0:
				return nil, nil, nil, false
			}
			for name, v := range row {
				if s, isStr := v.(string); isStr && name != f.Name && strings.EqualFold(strings.Join(strings.Fields(s), " "), w) {
					return nil, nil, nil, false
				}
			}
			if b {
				yes = appendNew(yes, w)
			} else {
				no = appendNew(no, w)
			}
		}
	}
	for _, w := range yes {
		if slices.Contains(no, w) {
			return nil, nil, nil, false
		}
	}
	if len(yes)+len(no) == 0 {
		return nil, nil, nil, false
	}
	slices.Sort(yes)
	slices.Sort(no)
	return yes, no, missing, true
}

func appendNew(ws []string, w string) []string {
	if slices.Contains(ws, w) {
		return ws
	}
	return append(ws, w)
}

// namesField reports whether a word shares a word of three letters or
// more with a field's name ("in stock" and in_stock): among ways whose
// words tell the model's rows apart equally well (all rows true: any text
// every row shows does), the one that says what the field says.
func namesField(name string, words []string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
	}
	for _, n := range split(name) {
		for _, w := range words {
			if len(n) >= 3 && slices.Contains(split(w), n) {
				return true
			}
		}
	}
	return false
}

// valueOfAny reports whether s is the value of some field in some row.
func valueOfAny(s string, wants [][]map[string]any) bool {
	for _, rows := range wants {
		for _, row := range rows {
			for _, v := range row {
				if x, ok := v.(string); ok && strings.EqualFold(strings.Join(strings.Fields(x), " "), s) {
					return true
				}
			}
		}
	}
	return false
}
