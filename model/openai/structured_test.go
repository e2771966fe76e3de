package openai

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/internal/model/modelhttp/modelhttptest"
	"github.com/waymark-dev/waymark/pilot"
)

// shape names how a request asked for a structured answer.
func shape(body map[string]any) string {
	switch {
	case body["response_format"] != nil:
		return "json_schema"
	case body["tools"] != nil && body["tool_choice"] != nil:
		return "tool"
	}
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		if c, _ := m.(map[string]any)["content"].(string); strings.Contains(c, "valid against this JSON Schema") {
			return "text"
		}
	}
	return "plain"
}

func TestStructuredFallback(t *testing.T) {
	noSchema := reply{Status: 400, Body: `{"error":{"message":"Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.","type":"invalid_request_error","param":"response_format"}}`}
	noTools := reply{Status: 400, Body: `{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"api_error"}}`}
	tool := reply{Status: 200, Body: toolAnswer("act", `{"ref":"e5"}`)}
	text := reply{Status: 200, Body: textAnswer("Sure. {\"ref\": \"e5\"} is the one.")}
	tests := []struct {
		name       string
		script     []reply // answers to the first call, then to the second
		wantShapes []string
		wantErr    error
		wantMode   mode
		wantUsage  pilot.Usage // of the first call
	}{
		{
			name:       "json_schema rejected, then tool; remembered",
			script:     []reply{noSchema, tool, tool},
			wantShapes: []string{"json_schema", "tool", "tool"},
			wantMode:   modeTool,
			wantUsage:  pilot.Usage{InputTokens: 20, OutputTokens: 5, CacheReadTokens: 10},
		},
		{
			name:       "json_schema answered with prose, then tool; usage of both tries",
			script:     []reply{{Status: 200, Body: textAnswer("I think the ref is e5.")}, tool, tool},
			wantShapes: []string{"json_schema", "tool", "tool"},
			wantMode:   modeTool,
			wantUsage:  pilot.Usage{InputTokens: 40, OutputTokens: 10, CacheReadTokens: 20},
		},
		{
			name:       "json_schema and tools rejected, then lenient text; remembered",
			script:     []reply{noSchema, noTools, text, text},
			wantShapes: []string{"json_schema", "tool", "text", "text"},
			wantMode:   modeText,
			wantUsage:  pilot.Usage{InputTokens: 20, OutputTokens: 5, CacheReadTokens: 10},
		},
		{
			name:       "tool ignored (no call in the answer), then text",
			script:     []reply{noSchema, {Status: 200, Body: textAnswer("e5")}, text, text},
			wantShapes: []string{"json_schema", "tool", "text", "text"},
			wantMode:   modeText,
			wantUsage:  pilot.Usage{InputTokens: 40, OutputTokens: 10, CacheReadTokens: 20},
		},
		{
			name:       "no JSON in the text either is ErrMalformed",
			script:     []reply{noSchema, noTools, {Status: 200, Body: textAnswer("I cannot tell.")}},
			wantShapes: []string{"json_schema", "tool", "text"},
			wantErr:    pilot.ErrMalformed,
			wantMode:   modeText,
		},
		{
			name:       "an unrelated 400 does not fall back",
			script:     []reply{{Status: 400, Body: `{"error":{"message":"context length exceeded","type":"invalid_request_error"}}`}},
			wantShapes: []string{"json_schema"},
			wantErr:    errors.New("any"),
			wantMode:   modeJSONSchema,
		},
		{
			name:       "a rate limit does not fall back",
			script:     []reply{{Status: 429, Body: `{"error":{"message":"json_schema quota"}}`}},
			wantShapes: []string{"json_schema"},
			wantErr:    pilot.ErrRateLimited,
			wantMode:   modeJSONSchema,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, tt.script...)
			var sl modelhttptest.Sleeps
			m := newTestModel(t, api.URL(), false, func(o *Options) { o.MaxRetries, o.Sleep = -1, sl.Sleep })
			turn := pilot.Turn{
				Purpose:    pilot.PurposeAct,
				Messages:   []pilot.Message{{Role: pilot.RoleUser, Text: "click Sign in"}},
				Schema:     json.RawMessage(actSchema),
				SchemaName: "act",
			}
			got, err := m.Next(context.Background(), turn)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("Next: %v", err)
			case tt.wantErr != nil && err == nil:
				t.Fatal("Next succeeded, want an error")
			case tt.wantErr != nil && tt.wantErr.Error() != "any" && !errors.Is(err, tt.wantErr):
				t.Fatalf("Next error = %v, want %v", err, tt.wantErr)
			}
			if err == nil {
				if diff := cmp.Diff(json.RawMessage(`{"ref":"e5"}`), got.Data, jsonEqual); diff != "" {
					t.Errorf("Data (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.wantUsage, got.Usage); diff != "" {
					t.Errorf("Usage (-want +got):\n%s", diff)
				}
				// The second call goes straight to the mode that worked.
				if _, err := m.Next(context.Background(), turn); err != nil {
					t.Fatalf("second Next: %v", err)
				}
			}
			var shapes []string
			for _, r := range api.Requests() {
				shapes = append(shapes, shape(r.Body))
			}
			if diff := cmp.Diff(tt.wantShapes, shapes); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			if got := mode(m.mode.Load()); got != tt.wantMode {
				t.Errorf("remembered mode %s, want %s", got, tt.wantMode)
			}
		})
	}
}

// jsonEqual compares JSON texts by value.
var jsonEqual = cmp.Transformer("json", func(b json.RawMessage) any {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return string(b)
	}
	return v
})

func TestLenientJSON(t *testing.T) {
	tests := []struct {
		name, text, want string
		ok               bool
	}{
		{name: "plain object", text: ` {"a":1} `, want: `{"a":1}`, ok: true},
		{name: "plain scalar", text: `42`, want: `42`, ok: true},
		{name: "fenced with language", text: "Here:\n```json\n{\"a\": [1, 2]}\n```\nDone.", want: `{"a": [1, 2]}`, ok: true},
		{name: "fenced without language", text: "```\n[1,2]\n```", want: `[1,2]`, ok: true},
		{name: "object in prose", text: `The answer is {"a": "b"} as asked.`, want: `{"a": "b"}`, ok: true},
		{name: "array in prose", text: `Prices: [1, 2.5] total`, want: `[1, 2.5]`, ok: true},
		{name: "brackets inside strings", text: `ok {"a": "}{][", "b": "\"}"} end`, want: `{"a": "}{][", "b": "\"}"}`, ok: true},
		{name: "thinking skipped", text: "<think>maybe {x} or {\"no\": 1}</think>\n{\"yes\": true}", want: `{"yes": true}`, ok: true},
		{name: "invalid first candidate", text: `see {not json} then {"a":1}`, want: `{"a":1}`, ok: true},
		{name: "nested", text: `x {"a":{"b":[{"c":1}]}} y`, want: `{"a":{"b":[{"c":1}]}}`, ok: true},
		{name: "unbalanced", text: `{"a": 1`, ok: false},
		{name: "none", text: `no json here`, ok: false},
		{name: "empty", text: ``, ok: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := lenientJSON(tt.text)
			if ok != tt.ok || string(got) != tt.want {
				t.Errorf("lenientJSON(%q) = %q, %v; want %q, %v", tt.text, got, ok, tt.want, tt.ok)
			}
		})
	}
}
