package recipe

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
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

type learnReply struct {
	Error      string `json:"error"`
	Containers []struct {
		Select string   `json:"select"`
		Names  []string `json:"names"`
	} `json:"containers"`
	Row    string                 `json:"row"`
	Fields map[string][]candidate `json:"fields"`
	Lang   string                 `json:"lang"`
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
	if len(rows) == 0 {
		return nil, fmt.Errorf("no recipe: the model gave no rows to look for")
	}
	var rep learnReply
	arg := map[string]any{"fields": l.Fields, "rows": rows}
	if err := run(ctx, ev, learnJS, arg, &rep); err != nil {
		return nil, fmt.Errorf("no recipe: %w", err)
	}
	if rep.Error != "" {
		return nil, fmt.Errorf("no recipe: %s", rep.Error)
	}
	// What a recipe must read back: the model's rows, dates as dates.
	want := make([]map[string]any, len(rows))
	for i, row := range rows {
		want[i] = maps.Clone(row)
	}
	NormalDates(want, l.Fields, rep.Lang, now)
	r := &Recipe{Format: Format, List: l.Path, Row: rep.Row, Learned: len(rows)}
	for _, c := range rep.Containers {
		if stable(c.Names) {
			r.Container = c.Select
			break
		}
	}
	if r.Container == "" {
		return nil, fmt.Errorf("no recipe: the list's container has no stable way to be found")
	}
	for _, f := range l.Fields {
		chosen := false
		for _, c := range rep.Fields[f.Name] {
			if !stable(c.Names) || !readsBack(c, f, want, rep.Lang, now) {
				continue
			}
			nf := c.Field
			nf.Name, nf.Type, nf.Format, nf.Nullable = f.Name, f.Type, f.Format, f.Nullable
			for _, row := range rows {
				if normal(row[f.Name]) == nil {
					nf.Optional = true
				}
			}
			r.Fields = append(r.Fields, nf)
			chosen = true
			break
		}
		if !chosen {
			return nil, fmt.Errorf("no recipe: no stable way reads %s in every row as the model gave it", f.Name)
		}
	}
	got, err := ReadAt(ctx, ev, r, now)
	if err != nil {
		return nil, fmt.Errorf("no recipe: %w", err)
	}
	if why := differ(got.Rows, want, l.Fields); why != "" {
		return nil, fmt.Errorf("no recipe: it does not read the model's rows back: %s", why)
	}
	return r, nil
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
