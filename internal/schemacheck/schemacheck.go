// Package schemacheck checks JSON values against a JSON Schema and says what
// is wrong where: each problem carries the JSON pointer of the value it is
// about and a short message ("expected number, got string \"$14.50\"").
//
// It validates with github.com/google/jsonschema-go, the library the MCP SDK
// already links, which costs nothing at start-up (a library that compiles
// the meta-schemas of every draft at init would cost a plain command 10 ms
// or more). That validator stops at the first failure and names the schema
// location, not the value's; this package walks the value beside the schema
// to find each failing value: at every node it checks the node's own
// keywords with its children taken as "anything", then descends into the
// properties and items. So every failing place is named, with the first
// failure found there.
package schemacheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

// Problem is one thing wrong with a value.
type Problem struct {
	Path []string // the JSON pointer's tokens, unescaped; empty for the whole value
	Msg  string
}

// Pointer is the problem's place as a JSON pointer ("/0/price"; "" for the
// whole value).
func (p Problem) Pointer() string {
	if len(p.Path) == 0 {
		return ""
	}
	return "/" + strings.Join(p.Path, "/")
}

// Checker checks values against one schema. It is safe for concurrent use.
type Checker struct {
	root *jsonschema.Schema
	rs   *jsonschema.Resolved

	defs map[string]json.RawMessage // the root's "$defs" and "definitions", as written

	mu    sync.Mutex
	local map[*jsonschema.Schema]*jsonschema.Resolved // a node's own check, by node
}

// Compile reads a JSON Schema (draft 2020-12 or draft-07).
func Compile(raw []byte) (*Checker, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("the schema is not a JSON Schema: %v", err)
	}
	if err := checkTypes(&s); err != nil {
		return nil, err
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("the schema does not compile: %v", err)
	}
	var top map[string]json.RawMessage
	_ = json.Unmarshal(raw, &top) // it is an object: it unmarshaled above
	defs := map[string]json.RawMessage{}
	for _, k := range []string{"$defs", "definitions"} {
		if d, ok := top[k]; ok {
			defs[k] = d
		}
	}
	return &Checker{root: &s, rs: rs, defs: defs, local: map[*jsonschema.Schema]*jsonschema.Resolved{}}, nil
}

// Problems lists what is wrong with v (a JSON value: the types
// encoding/json decodes into; json.Number is read as a number), the
// outer places first; nil when v is valid.
func (c *Checker) Problems(v any) []Problem {
	v = plain(v)
	err := c.rs.Validate(v)
	if err == nil {
		return nil
	}
	var out []Problem
	c.walk(v, c.root, nil, &out)
	if len(out) == 0 { // a failure the walk could not place
		out = append(out, Problem{Msg: message(err, nil)})
	}
	return out
}

// walk reports the failures of s's own keywords at path, then those of
// v's properties and items.
func (c *Checker) walk(v any, s *jsonschema.Schema, path []string, out *[]Problem) {
	s = c.deref(s)
	if s == nil {
		return
	}
	if err := c.own(s).Validate(v); err != nil {
		*out = append(*out, Problem{Path: path, Msg: message(err, s)})
	}
	at := func(tok string) []string { return append(path[:len(path):len(path)], tok) }
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if sub, ok := s.Properties[k]; ok {
				c.walk(x[k], sub, at(k), out)
			} else if s.AdditionalProperties != nil && !falsy(s.AdditionalProperties) {
				c.walk(x[k], s.AdditionalProperties, at(k), out)
			}
		}
	case []any:
		for i, e := range x {
			var sub *jsonschema.Schema
			switch {
			case i < len(s.PrefixItems):
				sub = s.PrefixItems[i]
			case i < len(s.ItemsArray):
				sub = s.ItemsArray[i]
			case s.ItemsArray != nil:
				sub = s.AdditionalItems
			default:
				sub = s.Items
			}
			if sub != nil {
				c.walk(e, sub, at(strconv.Itoa(i)), out)
			}
		}
	}
}

// deref follows a node that is only a local reference ("#/$defs/name") to
// the schema it names.
func (c *Checker) deref(s *jsonschema.Schema) *jsonschema.Schema {
	for n := 0; s != nil && s.Ref != "" && n < 32; n++ {
		cp := *s
		cp.Ref = ""
		if !reflect.ValueOf(cp).IsZero() {
			return s // a reference beside other keywords: checked as a whole
		}
		t := c.lookup(s.Ref)
		if t == nil {
			return s
		}
		s = t
	}
	return s
}

func (c *Checker) lookup(ref string) *jsonschema.Schema {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if ok {
		return c.root.Defs[name]
	}
	if name, ok = strings.CutPrefix(ref, "#/definitions/"); ok {
		return c.root.Definitions[name]
	}
	return nil
}

// own is s with every property and item schema taken as "anything", so it
// checks only what s itself says of the value. It is resolved as a schema
// of its own, a fresh copy (the validator wants a tree) that carries the
// root's definitions for the references it keeps.
func (c *Checker) own(s *jsonschema.Schema) *jsonschema.Resolved {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.local[s]; ok {
		return r
	}
	cp := *s
	cp.ID, cp.Schema, cp.Defs, cp.Definitions = "", c.root.Schema, nil, nil
	anything := func(m map[string]*jsonschema.Schema) map[string]*jsonschema.Schema {
		if m == nil {
			return nil
		}
		n := make(map[string]*jsonschema.Schema, len(m))
		for k := range m {
			n[k] = &jsonschema.Schema{}
		}
		return n
	}
	some := func(ss []*jsonschema.Schema) []*jsonschema.Schema {
		if ss == nil {
			return nil
		}
		n := make([]*jsonschema.Schema, len(ss))
		for i := range n {
			n[i] = &jsonschema.Schema{}
		}
		return n
	}
	cp.Properties, cp.PatternProperties = anything(s.Properties), nil
	cp.PrefixItems, cp.ItemsArray = some(s.PrefixItems), some(s.ItemsArray)
	if s.AdditionalProperties != nil && !falsy(s.AdditionalProperties) {
		cp.AdditionalProperties = &jsonschema.Schema{}
	}
	if s.Items != nil {
		cp.Items = &jsonschema.Schema{}
	}
	if s.AdditionalItems != nil && !falsy(s.AdditionalItems) {
		cp.AdditionalItems = &jsonschema.Schema{}
	}
	r, err := c.fresh(&cp)
	if err != nil {
		// Cannot happen for a node of a schema that resolved; check nothing.
		r, _ = (&jsonschema.Schema{}).Resolve(nil)
	}
	c.local[s] = r
	return r
}

// fresh resolves a copy of s, read anew from its JSON, with the root's
// definitions beside it.
func (c *Checker) fresh(s *jsonschema.Schema) (*jsonschema.Resolved, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	for k, v := range c.defs {
		doc[k] = v
	}
	if b, err = json.Marshal(doc); err != nil {
		return nil, err
	}
	var n jsonschema.Schema
	if err := json.Unmarshal(b, &n); err != nil {
		return nil, err
	}
	return n.Resolve(nil)
}

func falsy(s *jsonschema.Schema) bool {
	return s.Not != nil && reflect.ValueOf(*s.Not).IsZero()
}

// plain is v with json.Number read as float64, the validator's number; v
// itself is left as it was.
func plain(v any) any {
	switch x := v.(type) {
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = plain(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = plain(e)
		}
		return a
	}
	return v
}

var (
	reType     = lazyre.New(`^type: (.*) has type "(\w+)", want (?:"(\w+)"|one of \[(.*)\])$`)
	reRequired = lazyre.New(`^required: missing properties: \[(.*)\]$`)
	reExtra    = lazyre.New(`^unexpected additional properties \[(.*)\]$`)
	reBound    = lazyre.New(`^(minimum|maximum|exclusiveMinimum|exclusiveMaximum): (\S+) is (?:less|greater) than (?:or equal to )?(\S+)$`)
	reLength   = lazyre.New(`^(minLength|maxLength): .* contains (\d+) Unicode code points, (?:fewer|more) than (\d+)$`)
	reItems    = lazyre.New(`^(minItems|maxItems): array length (\d+) is (?:less|greater) than (\d+)$`)
	reQuoted   = lazyre.New(`"((?:[^"\\]|\\.)*)"`)
)

// message is the innermost failure of err, said plainly; s, when known, is
// the schema node that failed (for its enum and const).
func message(err error, s *jsonschema.Schema) string {
	for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(u) {
		err = u
	}
	msg := err.Error()
	if m := reType.FindStringSubmatch(msg); m != nil {
		want := m[3]
		if want == "" {
			want = strings.Join(quoted(m[4]), " or ")
		}
		got := "got " + m[2]
		if m[2] == "string" {
			got += " " + strconv.Quote(m[1])
		}
		return fmt.Sprintf("expected %s, %s", want, got)
	}
	if m := reRequired.FindStringSubmatch(msg); m != nil {
		return "missing " + plural("property", "properties", quoted(m[1]))
	}
	if m := reExtra.FindStringSubmatch(msg); m != nil {
		return "unknown " + plural("property", "properties", quoted(m[1]))
	}
	if m := reBound.FindStringSubmatch(msg); m != nil {
		bound, got := trimFloat(m[3]), number(m[2])
		switch m[1] {
		case "minimum":
			return fmt.Sprintf("must be at least %s, got %s", bound, got)
		case "maximum":
			return fmt.Sprintf("must be at most %s, got %s", bound, got)
		case "exclusiveMinimum":
			return fmt.Sprintf("must be more than %s, got %s", bound, got)
		default:
			return fmt.Sprintf("must be less than %s, got %s", bound, got)
		}
	}
	if m := reLength.FindStringSubmatch(msg); m != nil {
		if m[1] == "minLength" {
			return fmt.Sprintf("must be at least %s characters long, got %s", m[3], m[2])
		}
		return fmt.Sprintf("must be at most %s characters long, got %s", m[3], m[2])
	}
	if m := reItems.FindStringSubmatch(msg); m != nil {
		if m[1] == "minItems" {
			return fmt.Sprintf("must have at least %s items, got %s", m[3], m[2])
		}
		return fmt.Sprintf("must have at most %s items, got %s", m[3], m[2])
	}
	if s != nil && strings.HasPrefix(msg, "enum: ") && len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			vals[i] = literal(e)
		}
		return "value must be one of " + strings.Join(vals, ", ")
	}
	if s != nil && strings.HasPrefix(msg, "const: ") && s.Const != nil {
		return "value must be " + literal(*s.Const)
	}
	if q := quoted(msg); strings.HasPrefix(msg, "pattern: ") && len(q) == 2 {
		return fmt.Sprintf("does not match the pattern %q", q[1])
	}
	return msg
}

// quoted reads the strings of a Go %q list: `"a" "b"` → [a b].
func quoted(list string) []string {
	var out []string
	for _, m := range reQuoted.FindAllStringSubmatch(list, -1) {
		if s, err := strconv.Unquote(`"` + m[1] + `"`); err == nil {
			out = append(out, s)
		}
	}
	return out
}

func plural(one, many string, names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	if len(q) == 1 {
		return one + " " + q[0]
	}
	return many + " " + strings.Join(q, ", ")
}

// literal writes an enum or const value: strings in single quotes, the
// rest as JSON.
func literal(v any) string {
	if s, ok := v.(string); ok {
		return "'" + s + "'"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// number writes the validator's rational ("-2/1") as a number.
func number(s string) string {
	var r big.Rat
	if _, ok := r.SetString(s); !ok {
		return s
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func trimFloat(s string) string {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return s
}
