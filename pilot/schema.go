package pilot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer renders validation messages in English.
var printer = message.NewPrinter(language.English)

// checker validates answers against a JSON Schema.
type checker struct{ s *jsonschema.Schema }

func compileSchema(raw json.RawMessage) (*checker, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("answer.json", doc); err != nil {
		return nil, fmt.Errorf("the schema: %v", err)
	}
	s, err := c.Compile("answer.json")
	if err != nil {
		return nil, fmt.Errorf("the schema does not compile: %v", err)
	}
	return &checker{s}, nil
}

// problems lists what is wrong with v, each with its JSON pointer:
// "/2/price: expected number, got string "£12"".
func (c *checker) problems(v any) []string {
	err := c.s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{err.Error()}
	}
	var out []string
	collect(ve, v, &out)
	if len(out) == 0 {
		out = append(out, ve.Error())
	}
	return out
}

// collect walks to the leaf errors, which say what is wrong where.
func collect(ve *jsonschema.ValidationError, root any, out *[]string) {
	if len(ve.Causes) == 0 {
		ptr := "/" + strings.Join(ve.InstanceLocation, "/")
		msg := ve.ErrorKind.LocalizedString(printer)
		if tk, ok := ve.ErrorKind.(*kind.Type); ok {
			msg = fmt.Sprintf("expected %s, got %s", strings.Join(tk.Want, " or "), tk.Got)
			if got, ok := at(root, ve.InstanceLocation); ok {
				if s, isStr := got.(string); isStr {
					msg += fmt.Sprintf(" %q", s)
				}
			}
		}
		if ptr == "/" {
			ptr = ""
		}
		*out = append(*out, fmt.Sprintf("%s: %s", orRoot(ptr), msg))
		return
	}
	for _, c := range ve.Causes {
		collect(c, root, out)
	}
}

func orRoot(p string) string {
	if p == "" {
		return "(the answer)"
	}
	return p
}

// at returns the value at a location.
func at(v any, loc []string) (any, bool) {
	for _, k := range loc {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}
