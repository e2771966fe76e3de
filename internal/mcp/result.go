package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/sheet"
)

// Every tool answers in two forms from one place, [add]: a short text the
// model reads, and its data as structuredContent, in the shape of the
// tool's outputSchema, which is inferred from the Go type the handler
// returns (jsonschema.For), so the schema cannot drift from the data. A
// client that reads data (a program, a UI) reads structuredContent; a
// model reads the text. The one tool that answers with no data is
// screenshot (an image, [addImage]).
//
// A handler that fails returns an error, and [failure] turns it into the
// tool error: the message, the hint in MCP words and the code. A handler
// whose answer is a result made already (the question for the person, a
// refusal that tells what a submit would press, a replay that stopped
// with its steps) returns it wrapped by [answered].

// handler is a tool's work: the text the model reads and the data, or an
// error.
type handler[In, Out any] func(ctx context.Context, r *sdk.CallToolRequest, in In) (string, Out, error)

// add registers one tool: its input schema from In (annotated by
// annotations.go), its output schema from Out, the arguments checked in
// MCP words (arguments.go) before h runs, and h's answer as text and
// structuredContent.
func add[In, Out any](s *sdk.Server, name, desc string, h handler[In, Out]) {
	tool, args := newTool[In](name, desc)
	tool.OutputSchema = outputSchema[Out](name)
	s.AddTool(tool, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		in, err := decodeArgs[In](tool, args, r.Params.Arguments)
		if err != nil {
			return failure(err), nil
		}
		text, out, err := h(ctx, r, in)
		if err != nil {
			return failure(err), nil
		}
		return reply(text, out), nil
	})
}

// addImage registers a tool that answers with an image and no data
// (screenshot): its handler makes the whole result.
func addImage[In any](s *sdk.Server, name, desc string, h func(context.Context, *sdk.CallToolRequest, In) (*sdk.CallToolResult, error)) {
	tool, args := newTool[In](name, desc)
	s.AddTool(tool, func(ctx context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		in, err := decodeArgs[In](tool, args, r.Params.Arguments)
		if err != nil {
			return failure(err), nil
		}
		return h(ctx, r, in)
	})
}

// reply is a tool's answer: text, and data as structuredContent. A nil
// slice or map goes as its empty value, which the schema allows.
func reply(text string, data any) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: data}
}

// answeredErr carries a result made already through a handler's error.
type answeredErr struct{ res *sdk.CallToolResult }

func (e *answeredErr) Error() string { return "answered" }

// answered makes res the tool's answer, whatever the handler's data.
func answered(res *sdk.CallToolResult) error { return &answeredErr{res} }

// answeredWith is a result made already, if err is one.
func answeredWith(err error) (*sdk.CallToolResult, bool) {
	var a *answeredErr
	if errors.As(err, &a) {
		return a.res, true
	}
	return nil, false
}

// newTool is a tool with its input schema inferred from In, annotated,
// and the schema resolved for checking arguments.
func newTool[In any](name, desc string) (*sdk.Tool, *jsonschema.Resolved) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: schema of tool %s: %v", name, err)) // a programmer error, found at startup
	}
	// A Go slice infers as ["null","array"]; the calls treat null and []
	// alike, and "array" says what to send.
	for _, p := range schema.Properties {
		if slices.Equal(p.Types, []string{"null", "array"}) {
			p.Types, p.Type = nil, "array"
		}
		// A pointer infers as ["null", T]; it is one only to tell an
		// absent argument from a zero one (tabs' index), and T says
		// what to send.
		if len(p.Types) == 2 && p.Types[0] == "null" && p.Types[1] != "array" {
			p.Types, p.Type = nil, p.Types[1]
		}
		// An open object (an approval, a schema) is open by default.
		if a := p.AdditionalProperties; a != nil && reflect.DeepEqual(a, &jsonschema.Schema{}) {
			p.AdditionalProperties = nil
		}
	}
	tool := &sdk.Tool{Name: name, Description: desc, InputSchema: schema}
	annotate(tool, schema) // annotations.go
	resolved, err := schema.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: schema of tool %s: %v", name, err))
	}
	return tool, resolved
}

// anyJSON is the schema of a value of any JSON type: what a
// json.RawMessage or an interface holds.
var anyJSON = &jsonschema.Schema{}

// handedBack is the schema of what a client gives back unchanged and
// never reads (a list's recipe, a sheet's grid recipe): an object, its
// shape the recipe format's (routine/FORMAT.md), not spelled out in every
// tool list.
var handedBack = &jsonschema.Schema{Type: "object"}

// outputSchema is the schema of Out, the data a tool answers with. Raw
// JSON (a page's value, a model's answer) is any JSON; a struct's
// properties outside it are allowed (a newer server may add some). The
// few hand-written descriptions of outputDocs (annotations.go) go on.
func outputSchema[Out any](name string) *jsonschema.Schema {
	s, err := jsonschema.For[Out](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[json.RawMessage](): anyJSON,
		reflect.TypeFor[recipe.Recipe]():   handedBack,
		reflect.TypeFor[sheet.Recipe]():    handedBack,
	}})
	if err != nil {
		panic(fmt.Sprintf("mcp: output schema of tool %s: %v", name, err))
	}
	if s.Type != "object" {
		panic(fmt.Sprintf("mcp: output schema of tool %s is %q: structuredContent is an object", name, s.Type))
	}
	open(s)
	for field, d := range outputDocs()[name] {
		if p := s.Properties[field]; p != nil {
			cp := *p // a type's schema may be shared (handedBack): described on a copy
			cp.Description = d
			s.Properties[field] = &cp
		}
	}
	return s
}

// open drops the "no other properties" the inference puts on every
// object: it doubles the size of the schema, and a client validating an
// answer of a newer server would refuse its new fields.
func open(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if reflect.DeepEqual(s.AdditionalProperties, &jsonschema.Schema{Not: &jsonschema.Schema{}}) {
		s.AdditionalProperties = nil
	}
	open(s.AdditionalProperties)
	open(s.Items)
	for _, p := range s.Properties {
		open(p)
	}
}
