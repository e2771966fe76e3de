package recipe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/internal/targets"
)

// List is what a schema says of a list: where its rows are in the answer
// and the fields of a row, in the schema's order.
type List struct {
	Path   string  // the answer's property holding the rows; "" when the answer is the array
	Fields []Field // Name and Type only
}

// ListOf reads a list schema: an array of objects, or an object whose only
// property is one. Any other schema is not a list and has no recipe.
func ListOf(schema json.RawMessage) (*List, error) {
	var s struct {
		Type       any             `json:"type"`
		Items      json.RawMessage `json:"items"`
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("the schema is not JSON: %v", err)
	}
	if typeOf(s.Type) == "object" {
		keys, props, err := ordered(s.Properties)
		if err != nil || len(keys) != 1 {
			return nil, fmt.Errorf("the schema is not a list: an object must hold one list and nothing else")
		}
		l, err := ListOf(props[keys[0]])
		if err != nil || l.Path != "" {
			return nil, fmt.Errorf("the schema is not a list: its property %s is not an array of objects", keys[0])
		}
		l.Path = keys[0]
		return l, nil
	}
	if typeOf(s.Type) != "array" || len(s.Items) == 0 {
		return nil, fmt.Errorf("the schema is not a list: it must be an array of objects, or an object holding one")
	}
	var item struct {
		Type       any             `json:"type"`
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(s.Items, &item); err != nil || typeOf(item.Type) != "object" {
		return nil, fmt.Errorf("the schema is not a list of objects: its items must be objects with properties")
	}
	keys, props, err := ordered(item.Properties)
	if err != nil || len(keys) == 0 {
		return nil, fmt.Errorf("the schema's items have no properties")
	}
	l := &List{}
	for _, k := range keys {
		var p struct {
			Type   any    `json:"type"`
			Format string `json:"format"`
		}
		json.Unmarshal(props[k], &p)
		t := typeOf(p.Type)
		nullable := false
		if ts, ok := p.Type.([]any); ok {
			for _, x := range ts {
				nullable = nullable || x == "null"
			}
		}
		switch t {
		case "string", "number", "integer", "boolean":
		default:
			return nil, fmt.Errorf("field %s: a recipe reads strings, numbers and booleans, not %q", k, t)
		}
		f := Field{Name: k, Type: t, Nullable: nullable}
		if t == "string" && (p.Format == FormatDate || p.Format == FormatDateTime) {
			f.Format = p.Format
		}
		l.Fields = append(l.Fields, f)
	}
	return l, nil
}

// typeOf is a schema's type, the first that is not null of a list.
func typeOf(t any) string {
	switch x := t.(type) {
	case string:
		return x
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}

// ordered returns an object's keys in the order sheet.
func ordered(raw json.RawMessage) ([]string, map[string]json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var keys []string
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, nil, err
		}
	}
	return keys, m, nil
}

// RowsOf returns the rows of an answer (decoded JSON) under l.
func (l *List) RowsOf(data any) []map[string]any {
	if l.Path != "" {
		m, _ := data.(map[string]any)
		data = m[l.Path]
	}
	arr, _ := data.([]any)
	var out []map[string]any
	for _, e := range arr {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// Answer puts rows where l says the answer holds them.
func (l *List) Answer(rows []map[string]any) any {
	arr := make([]any, len(rows))
	for i, r := range rows {
		arr[i] = r
	}
	if l.Path != "" {
		return map[string]any{l.Path: arr}
	}
	return arr
}

type candidate struct {
	Field
	Names  []string  `json:"names"`
	Values []*string `json:"values"`
}

// key names a way to read a field, the same on every page.
func (c candidate) key() string {
	return strings.Join([]string{c.By, c.Select, c.Header, c.Label, c.Attr}, "\x00")
}

// found is a way to find the list's container.
type found struct {
	Select string   `json:"select"`
	Names  []string `json:"names"`
}

type learnReply struct {
	Error      string                 `json:"error"`
	Containers []found                `json:"containers"`
	Row        string                 `json:"row"`
	Fields     map[string][]candidate `json:"fields"`
	Extra      map[string][][]*string `json:"extra"`
	Lang       string                 `json:"lang"`
}

// Learn finds the rows a model gave (rows, under list l) in the page and
// returns the recipe that reads them, checked by reading them back with it
// exactly. When there is none, the error says why. Relative dates count
// from now ([LearnAt] takes the clock).
func Learn(ctx context.Context, ev Evaler, l *List, rows []map[string]any) (*Recipe, error) {
	return LearnAt(ctx, ev, l, rows, time.Now())
}

// LearnAt is [Learn] with relative dates counted from now. rows hold the
// values as the page writes them (the model's); dates among them are
// compared as dates.
func LearnAt(ctx context.Context, ev Evaler, l *List, rows []map[string]any, now time.Time) (*Recipe, error) {
	return LearnPages(ctx, ev, l, []Page{{Rows: rows}}, now)
}

// LearnPages is [LearnAt] against every page of a list a model read: the
// page in the tab (the last, its Snapshot empty) and the ones before it,
// kept by [Snapshot]. The recipe is kept only if it reads every page's rows
// back exactly, so a row shape only one page shows (a sale price beside
// the price, an author missing, a badge) is part of it. Each field is read
// by the first way, among those found on any page, the latest page's
// first, that reads every page's rows; a field all pages leave null is
// read as none.
func LearnPages(ctx context.Context, ev Evaler, l *List, pages []Page, now time.Time) (*Recipe, error) {
	if len(pages) == 0 {
		return nil, fmt.Errorf("no recipe: no page to learn from")
	}
	at := func(i int) string {
		if len(pages) == 1 {
			return ""
		}
		return fmt.Sprintf("page %d of %d the model read: ", i+1, len(pages))
	}
	learn := func(i int, extra map[string][]candidate) (*learnReply, error) {
		var rep learnReply
		arg := map[string]any{"fields": l.Fields, "rows": pages[i].Rows, "extra": extra}
		if pages[i].Snapshot != "" {
			arg["snapshot"] = pages[i].Snapshot
		}
		if err := run(ctx, ev, learnJS, arg, &rep); err != nil {
			return nil, fmt.Errorf("no recipe: %s%w", at(i), err)
		}
		if rep.Error != "" {
			return nil, fmt.Errorf("no recipe: %s%s", at(i), rep.Error)
		}
		return &rep, nil
	}
	last := len(pages) - 1
	reps := make([]*learnReply, len(pages))
	wants := make([][]map[string]any, len(pages))
	for i, pg := range pages {
		if len(pg.Rows) == 0 {
			return nil, fmt.Errorf("no recipe: %sthe model gave no rows to look for", at(i))
		}
		rep, err := learn(i, nil)
		if err != nil {
			return nil, err
		}
		reps[i] = rep
		// What a recipe must read back: the model's rows, dates as dates.
		wants[i] = make([]map[string]any, len(pg.Rows))
		for j, row := range pg.Rows {
			wants[i][j] = maps.Clone(row)
		}
		NormalDates(wants[i], l.Fields, rep.Lang, now)
		if rep.Row != reps[0].Row {
			return nil, fmt.Errorf("no recipe: the rows are <%s> on one page the model read and <%s> on another", reps[0].Row, rep.Row)
		}
	}
	r := &Recipe{Format: Format, List: l.Path, Row: reps[last].Row}
	for _, pg := range pages {
		r.Learned += len(pg.Rows)
	}
	for _, c := range reps[last].Containers {
		if stable(c.Names) && everyPage(reps, func(rep *learnReply) bool {
			return slices.ContainsFunc(rep.Containers, func(o found) bool { return o.Select == c.Select })
		}) {
			r.Container = c.Select
			break
		}
	}
	if r.Container == "" {
		if len(pages) > 1 {
			return nil, fmt.Errorf("no recipe: the list's container has no stable way to be found on every page the model read")
		}
		return nil, fmt.Errorf("no recipe: the list's container has no stable way to be found")
	}
	// The ways to read each field: the latest page's first. With more
	// than one page, each page reads all of them.
	ways := map[string][]candidate{}
	for i := last; i >= 0; i-- {
		for _, f := range l.Fields {
			for _, c := range reps[i].Fields[f.Name] {
				if !slices.ContainsFunc(ways[f.Name], func(w candidate) bool { return w.key() == c.key() }) {
					w := c
					w.Values = nil
					ways[f.Name] = append(ways[f.Name], w)
				}
			}
		}
	}
	values := make([]map[string][][]*string, len(pages)) // page, field, way: a value per row
	for i := range pages {
		values[i] = map[string][][]*string{}
		if len(pages) == 1 {
			// The page's own ways read it already: by way, as ways lists
			// them (a way found twice is listed once).
			for _, f := range l.Fields {
				own := map[string][]*string{}
				for _, c := range reps[i].Fields[f.Name] {
					if _, ok := own[c.key()]; !ok {
						own[c.key()] = c.Values
					}
				}
				for _, w := range ways[f.Name] {
					values[i][f.Name] = append(values[i][f.Name], own[w.key()])
				}
			}
			continue
		}
		rep, err := learn(i, ways)
		if err != nil {
			return nil, err
		}
		values[i] = rep.Extra
	}
	for _, f := range l.Fields {
		nf, ok := choose(f, ways[f.Name], values, wants, reps, now)
		if !ok {
			if len(pages) > 1 {
				return nil, fmt.Errorf("no recipe: no stable way reads %s in every row of every page the model read as the model gave it", f.Name)
			}
			return nil, fmt.Errorf("no recipe: no stable way reads %s in every row as the model gave it", f.Name)
		}
		r.Fields = append(r.Fields, nf)
	}
	for i, pg := range pages {
		var snap *string
		if pg.Snapshot != "" {
			snap = &pg.Snapshot
		}
		got, err := readIn(ctx, ev, r, snap, now)
		if err != nil {
			return nil, fmt.Errorf("no recipe: %s%w", at(i), err)
		}
		if why := differ(got.Rows, wants[i], l.Fields); why != "" {
			return nil, fmt.Errorf("no recipe: %sit does not read the model's rows back: %s", at(i), why)
		}
	}
	return r, nil
}

// everyPage reports whether ok holds for every page's reply.
func everyPage(reps []*learnReply, ok func(*learnReply) bool) bool {
	for _, rep := range reps {
		if !ok(rep) {
			return false
		}
	}
	return true
}

// stable reports whether every class name or attribute value a way uses
// looks written by a person (internal/targets judges it).
func stable(names []string) bool {
	for _, n := range names {
		for _, tok := range strings.Fields(n) {
			if !targets.Stable(tok) {
				return false
			}
		}
	}
	return true
}

func readsBack(c candidate, f Field, rows []map[string]any, lang string, now time.Time) bool {
	if c.By == ByNone {
		return true
	}
	if len(c.Values) != len(rows) {
		return false
	}
	for i, row := range rows {
		v, ok := ValueAt(c.Values[i], f, lang, now)
		if !ok || !Same(v, row[f.Name]) {
			return false
		}
	}
	return true
}

// differ says how the rows read differ from the model's, or "".
func differ(got, want []map[string]any, fields []Field) string {
	if len(got) != len(want) {
		return fmt.Sprintf("it reads %d rows, the model gave %d", len(got), len(want))
	}
	for i := range got {
		for _, f := range fields {
			if !Same(got[i][f.Name], want[i][f.Name]) {
				return fmt.Sprintf("row %d %s: the page gives %v, the model %v", i+1, f.Name, got[i][f.Name], want[i][f.Name])
			}
		}
	}
	return ""
}

// Differ says how rows read by a recipe differ from rows expected, or "".
func Differ(got, want []map[string]any, l *List) string { return differ(got, want, l.Fields) }
