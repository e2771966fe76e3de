package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/waymark-dev/waymark/internal/model/modelhttp"
	"github.com/waymark-dev/waymark/pilot"
)

// mode is a way of asking for a structured answer, in the order they are
// tried.
type mode int32

const (
	modeJSONSchema mode = iota // response_format: json_schema
	modeTool                   // one forced function call
	modeText                   // the schema in the prompt, JSON read from the text
)

func (md mode) String() string {
	switch md {
	case modeJSONSchema:
		return "json_schema"
	case modeTool:
		return "tool"
	default:
		return "text"
	}
}

// fallback says a mode did not work with this server; err is what to
// report if no mode is left.
type fallback struct {
	reason string
	err    error
}

func (f *fallback) Error() string { return f.reason }

// answerSchema is a turn's schema, and its object form for the modes whose
// schemas must be objects.
type answerSchema struct {
	raw     json.RawMessage
	name    string
	object  map[string]any
	wrapped bool // object holds raw as its "value" property
}

func newAnswerSchema(turn pilot.Turn) (answerSchema, error) {
	s := answerSchema{raw: turn.Schema, name: schemaName(turn.SchemaName)}
	if err := json.Unmarshal(turn.Schema, &s.object); err != nil {
		return s, fmt.Errorf("openai: the answer schema is not a JSON Schema object: %w", err)
	}
	if !isObjectSchema(s.object) {
		s.wrapped = true
		s.object = map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"value": s.object},
			"required":             []any{"value"},
			"additionalProperties": false,
		}
	}
	return s, nil
}

func isObjectSchema(s map[string]any) bool {
	if t, ok := s["type"]; ok {
		return t == "object"
	}
	_, hasProps := s["properties"]
	return hasProps
}

// unwrap takes the answer out of its {"value": …} wrapper, if any.
func (s answerSchema) unwrap(v modelhttp.Vendor, data json.RawMessage) (json.RawMessage, error) {
	if !s.wrapped {
		return data, nil
	}
	var w struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &w); err != nil || len(w.Value) == 0 {
		return nil, modelhttp.Malformed(v, "the answer has no \"value\"; try again")
	}
	return w.Value, nil
}

// schemaName makes a valid function and schema name (^[a-zA-Z0-9_-]{1,64}$).
func schemaName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if b.Len() == 64 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "answer"
	}
	return b.String()
}

// structured asks for a structured answer, starting at the first mode this
// server has not turned down, and moving on when it turns one down.
func (m *Model) structured(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	schema, err := newAnswerSchema(turn)
	if err != nil {
		return pilot.Reply{}, err
	}
	var spent pilot.Usage // by tries that fell back
	for md := mode(m.mode.Load()); ; md++ {
		reply, o, err := m.try(ctx, turn, md, schema)
		reply.Usage = reply.Usage.Add(spent)
		var fb *fallback
		if errors.As(err, &fb) {
			if md == modeText {
				err = fb.err
			} else {
				spent = reply.Usage
				m.advance(md + 1)
				m.retry.Log.LogAttrs(ctx, slog.LevelInfo, "structured answers: falling back",
					slog.String("purpose", string(turn.Purpose)),
					slog.String("model", m.retry.Model),
					slog.Int("status", o.Status),
					slog.String("from", md.String()),
					slog.String("to", (md+1).String()),
					slog.String("reason", fb.reason))
				continue
			}
		}
		if err == nil {
			m.advance(md)
		}
		m.retry.LogDone(ctx, turn.Purpose, o, reply.Usage, err, slog.String("mode", md.String()))
		return reply, err
	}
}

// advance records that no mode before md is worth trying again.
func (m *Model) advance(md mode) {
	for {
		cur := m.mode.Load()
		if cur >= int32(md) || m.mode.CompareAndSwap(cur, int32(md)) {
			return
		}
	}
}

// try asks once (with retries) in one mode.
func (m *Model) try(ctx context.Context, turn pilot.Turn, md mode, s answerSchema) (pilot.Reply, modelhttp.Outcome, error) {
	note := ""
	if md == modeText {
		note = "Answer with only a JSON value, and no other text, that is valid against this JSON Schema:\n" + string(s.raw)
	}
	p, err := m.params(turn, note)
	if err != nil {
		return pilot.Reply{}, modelhttp.Outcome{}, err
	}
	switch md {
	case modeJSONSchema:
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: s.name, Schema: s.object, Strict: openai.Bool(false)},
		}}
	case modeTool:
		p.Tools = []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        s.name,
			Description: openai.String("Give your answer by calling this function; its arguments are the answer."),
			Parameters:  shared.FunctionParameters(s.object),
		})}
		p.ToolChoice = openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: s.name})
	}

	c, o, err := m.send(ctx, turn.Purpose, p)
	if err != nil {
		if md == modeJSONSchema && rejected(o, "response_format", "json_schema") {
			return pilot.Reply{}, o, &fallback{reason: "the server rejected response_format json_schema", err: err}
		}
		if md == modeTool && rejected(o, "tool", "function") {
			return pilot.Reply{}, o, &fallback{reason: "the server rejected tools", err: err}
		}
		return pilot.Reply{}, o, err
	}
	msg, reply, err := m.first(c)
	if err != nil {
		return reply, o, err
	}
	switch md {
	case modeJSONSchema:
		data := json.RawMessage(strings.TrimSpace(msg.Content))
		if !json.Valid(data) {
			return reply, o, &fallback{reason: "the answer to json_schema was not JSON", err: modelhttp.Malformed(m.vendor, "the answer was not JSON; try again")}
		}
		reply.Data, err = s.unwrap(m.vendor, data)
	case modeTool:
		var data json.RawMessage
		for _, call := range msg.ToolCalls {
			if call.Function.Name == s.name && data == nil {
				data = json.RawMessage(call.Function.Arguments)
			}
		}
		if data == nil || !json.Valid(data) {
			return reply, o, &fallback{reason: "the answer had no valid call to the function", err: modelhttp.Malformed(m.vendor, "the model answered without calling %q; try again", s.name)}
		}
		reply.Text = msg.Content // any words beside the call
		reply.Data, err = s.unwrap(m.vendor, data)
	default:
		data, ok := lenientJSON(msg.Content)
		if !ok {
			return reply, o, modelhttp.Malformed(m.vendor, "the answer held no JSON value; try again")
		}
		reply.Data = data
	}
	return reply, o, err
}

// rejected reports whether a failed request was turned down for a feature
// the server lacks: a client error (other than key, quota and missing-model
// errors) whose message names the feature.
func rejected(o modelhttp.Outcome, words ...string) bool {
	switch o.Status {
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
	default:
		return false
	}
	body := strings.ToLower(string(o.Body))
	for _, w := range words {
		if strings.Contains(body, w) {
			return true
		}
	}
	return false
}
