package schemacheck

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const products = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "array",
  "items": {"$ref": "#/$defs/product"},
  "$defs": {
    "product": {
      "type": "object",
      "required": ["name", "price"],
      "additionalProperties": false,
      "properties": {
        "name": {"type": "string", "minLength": 1},
        "price": {"type": "number", "minimum": 0},
        "size": {"enum": ["S", "M", "L"]},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2}
      }
    }
  }
}`

func TestProblems(t *testing.T) {
	c, err := Compile([]byte(products))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, value string
		want        []string
	}{
		{"valid", `[{"name": "Mug", "price": 12.5, "size": "M", "tags": ["a"]}]`, nil},
		{"wrong type, with the string", `[{"name": "Mug", "price": "$14.50"}]`, []string{`/0/price: expected number, got string "$14.50"`}},
		// One problem per place (the validator stops at a place's first),
		// every place with one.
		{"every place with a problem", `[{"name": "Mug", "price": 1}, {"price": -1, "colour": "red", "size": "XL", "tags": ["a", 2, "c"]}]`, []string{
			`/1: unknown property 'colour'`,
			`/1/price: must be at least 0, got -1`,
			`/1/size: value must be one of 'S', 'M', 'L'`,
			`/1/tags: must have at most 2 items, got 3`,
			`/1/tags/1: expected string, got integer`,
		}},
		{"missing", `[{"price": 1}]`, []string{`/0: missing property 'name'`}},
		{"the whole value", `{"name": "Mug"}`, []string{`: expected array, got object`}},
		{"too short", `[{"name": "", "price": 1}]`, []string{`/0/name: must be at least 1 characters long, got 0`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(tt.value), &v); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range c.Problems(v) {
				got = append(got, p.Pointer()+": "+p.Msg)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// A value decoded with UseNumber is checked as numbers, and left as it was.
func TestProblemsNumbers(t *testing.T) {
	c, err := Compile([]byte(`{"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}}`))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(`{"n": 5}`)))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	ps := c.Problems(v)
	if len(ps) != 1 || ps[0].Pointer() != "/n" || ps[0].Msg != "must be at most 3, got 5" {
		t.Errorf("problems = %+v", ps)
	}
	if _, ok := v["n"].(json.Number); !ok {
		t.Errorf("the value was changed: %T", v["n"])
	}
}

func TestCompileErrors(t *testing.T) {
	for _, raw := range []string{`{`, `{"type": 3}`, `{"$ref": "#/$defs/missing"}`,
		`{"type": "nonsense"}`, `{"type": ["string", "nul"]}`,
		`{"type": "object", "properties": {"price": {"type": "numbr"}}}`,
		`{"type": "array", "items": {"anyOf": [{"type": "strin"}]}}`,
		`{"$defs": {"p": {"type": "float"}}, "$ref": "#/$defs/p"}`} {
		if _, err := Compile([]byte(raw)); err == nil {
			t.Errorf("Compile(%s): no error", raw)
		}
	}
}
