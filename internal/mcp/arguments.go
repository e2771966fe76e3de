package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
)

// A tool's arguments are checked against its input schema before it runs,
// and what does not fit is told in the words of the tool, as a bad_input
// tool error the model can correct: which argument is missing, unknown or
// of the wrong type or value, and what the tool takes. The SDK's own
// check would answer with the validator's text (`validating "arguments":
// validating root: required: missing properties: ["target"]`).

// decodeArgs checks raw against the tool's schema and decodes it into In.
func decodeArgs[In any](tool *sdk.Tool, schema *jsonschema.Resolved, raw json.RawMessage) (In, error) {
	var in In
	args := map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return in, argError(tool, "%s takes its arguments as a JSON object", tool.Name)
		}
	}
	if err := argProblem(tool, args); err != nil {
		return in, err
	}
	if err := schema.Validate(args); err != nil {
		// A rule the plain checks above do not know: still in the tool's words.
		return in, argError(tool, "the arguments of %s do not fit what it takes (%v)", tool.Name, err)
	}
	b, _ := json.Marshal(args)
	if err := json.Unmarshal(b, &in); err != nil {
		return in, argError(tool, "the arguments of %s do not fit what it takes (%v)", tool.Name, err)
	}
	return in, nil
}

// argProblem is the first thing wrong with args that can be said plainly:
// an unknown argument, a missing one, one of the wrong type or value.
func argProblem(tool *sdk.Tool, args map[string]any) error {
	s, _ := tool.InputSchema.(*jsonschema.Schema)
	if s == nil {
		return nil
	}
	for _, name := range slices.Sorted(maps.Keys(args)) {
		if _, ok := s.Properties[name]; !ok {
			return argError(tool, "%s has no argument %q", tool.Name, name)
		}
	}
	for _, name := range s.Required {
		if _, ok := args[name]; !ok {
			return argError(tool, "%s needs the argument %s (%s)", tool.Name, name, argWhat(s.Properties[name]))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(args)) {
		p, v := s.Properties[name], args[name]
		if want := argTypes(p); len(want) > 0 && !typeFits(want, jsonType(v)) {
			return argError(tool, "%s's argument %s is %s, not %s: give %s", tool.Name, name, strings.Join(want, " or "), jsonType(v), argWhat(p))
		}
		if len(p.Enum) > 0 && !slices.ContainsFunc(p.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
			return argError(tool, "%s's argument %s is one of %s, not %v", tool.Name, name, enumList(p.Enum), mustCompact(v))
		}
	}
	return nil
}

// argError is a bad_input error whose hint says what the tool takes.
func argError(tool *sdk.Tool, format string, args ...any) error {
	return calls.Errorf(calls.ErrBadInput, "call "+tool.Name+" with "+takes(tool), format, args...)
}

// takes lists a tool's arguments: name, type, required or not.
func takes(tool *sdk.Tool) string {
	s, _ := tool.InputSchema.(*jsonschema.Schema)
	if s == nil || len(s.Properties) == 0 {
		return "no arguments"
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		part := name + " (" + strings.Join(argTypes(s.Properties[name]), " or ")
		if slices.Contains(s.Required, name) {
			part += ", required"
		}
		parts = append(parts, part+")")
	}
	return strings.Join(parts, ", ")
}

// argWhat is what an argument holds: its description, or its type.
func argWhat(p *jsonschema.Schema) string {
	switch {
	case p == nil:
		return "a value"
	case len(p.Enum) > 0:
		return "one of " + enumList(p.Enum)
	case p.Description != "":
		return p.Description
	}
	return "a " + strings.Join(argTypes(p), " or ")
}

// argTypes are the JSON types an argument takes; none: any.
func argTypes(p *jsonschema.Schema) []string {
	if p == nil {
		return nil
	}
	if p.Type != "" {
		return []string{p.Type}
	}
	return p.Types
}

// jsonType is the JSON Schema type of a decoded JSON value; a whole
// number is an integer as well as a number.
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// typeFits reports whether a value of JSON type got is one of want: an
// integer is a number too.
func typeFits(want []string, got string) bool {
	return slices.Contains(want, got) || (got == "integer" && slices.Contains(want, "number"))
}

func enumList(e []any) string {
	var s []string
	for _, v := range e {
		s = append(s, fmt.Sprint(v))
	}
	return strings.Join(s, ", ")
}

func mustCompact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
