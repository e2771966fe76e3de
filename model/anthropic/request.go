package anthropic

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/waymark-dev/waymark/internal/model/modelhttp"
	"github.com/waymark-dev/waymark/pilot"
)

// request is one turn in the Messages API's terms, with what is needed to
// read the answer.
type request struct {
	params anthropic.MessageNewParams
	tool   string // the forced tool's name; empty for a free-text answer
	// wrapped says the schema was not an object and went as the "value"
	// property of one, since a tool's input is always an object.
	wrapped bool
}

func newRequest(model string, turn pilot.Turn) (request, error) {
	var req request
	maxTokens := turn.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	req.params = anthropic.MessageNewParams{Model: model, MaxTokens: int64(maxTokens)}
	if turn.System != "" {
		// The breakpoint caches the system prompt, and the tools before it,
		// for the turns that follow (a prompt too short to cache is simply
		// not cached).
		req.params.System = []anthropic.TextBlockParam{{
			Text:         turn.System,
			CacheControl: anthropic.NewCacheControlEphemeralParam(),
		}}
	}
	msgs, err := messages(turn.Messages)
	if err != nil {
		return request{}, err
	}
	req.params.Messages = msgs
	if len(turn.Schema) == 0 {
		return req, nil
	}

	schema, wrapped, err := inputSchema(turn.Schema)
	if err != nil {
		return request{}, err
	}
	req.tool, req.wrapped = toolName(turn.SchemaName), wrapped
	req.params.Tools = []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{
		Name:        req.tool,
		Description: anthropic.String("Give your answer by calling this tool; its input is the answer."),
		InputSchema: schema,
	}}}
	req.params.ToolChoice = anthropic.ToolChoiceParamOfTool(req.tool)
	return req, nil
}

// messages converts the conversation. Images go before the text in user
// messages, as Anthropic recommends; assistant messages cannot hold images,
// so theirs are dropped. Empty messages are skipped: the API refuses them.
func messages(in []pilot.Message) ([]anthropic.MessageParam, error) {
	out := make([]anthropic.MessageParam, 0, len(in))
	for i, msg := range in {
		var blocks []anthropic.ContentBlockParamUnion
		if msg.Role == pilot.RoleUser {
			for _, img := range msg.Images {
				blocks = append(blocks, anthropic.NewImageBlockBase64(mediaType(img), base64.StdEncoding.EncodeToString(img.Data)))
			}
		}
		if msg.Text != "" {
			blocks = append(blocks, anthropic.NewTextBlock(msg.Text))
		}
		if len(blocks) == 0 {
			continue
		}
		switch msg.Role {
		case pilot.RoleUser:
			out = append(out, anthropic.NewUserMessage(blocks...))
		case pilot.RoleAssistant:
			out = append(out, anthropic.NewAssistantMessage(blocks...))
		default:
			return nil, fmt.Errorf("anthropic: message %d has role %q; use %q or %q", i, msg.Role, pilot.RoleUser, pilot.RoleAssistant)
		}
	}
	return out, nil
}

func mediaType(img pilot.Image) string {
	if img.MediaType != "" {
		return img.MediaType
	}
	return http.DetectContentType(img.Data)
}

// inputSchema makes a tool input schema of a JSON Schema. A schema whose
// root is not an object (an array, say) is wrapped as the "value" property
// of one.
func inputSchema(raw json.RawMessage) (anthropic.ToolInputSchemaParam, bool, error) {
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		return anthropic.ToolInputSchemaParam{}, false, fmt.Errorf("anthropic: the answer schema is not a JSON Schema object: %w", err)
	}
	wrapped := !isObjectSchema(s)
	if wrapped {
		s = map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"value": s},
			"required":             []any{"value"},
			"additionalProperties": false,
		}
	}
	p := anthropic.ToolInputSchemaParam{ExtraFields: map[string]any{}}
	for k, v := range s {
		switch k {
		case "type":
		case "properties":
			p.Properties = v
		case "required":
			p.Required = stringList(v)
		default:
			p.ExtraFields[k] = v
		}
	}
	return p, wrapped, nil
}

func isObjectSchema(s map[string]any) bool {
	if t, ok := s["type"]; ok {
		return t == "object"
	}
	_, hasProps := s["properties"]
	return hasProps
}

// stringList converts a decoded JSON array of strings.
func stringList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// toolName makes a valid tool name (^[a-zA-Z0-9_-]{1,64}$) of a schema name.
func toolName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() == 64 {
			break
		}
	}
	if b.Len() == 0 {
		return "answer"
	}
	return b.String()
}

// reply reads the answer.
func (r request) reply(v modelhttp.Vendor, msg *anthropic.Message) (pilot.Reply, error) {
	if msg == nil {
		return pilot.Reply{}, modelhttp.Malformed(v, "the answer was empty; try again")
	}
	reply := pilot.Reply{
		Model: msg.Model,
		Usage: pilot.Usage{
			InputTokens:      int(msg.Usage.InputTokens),
			OutputTokens:     int(msg.Usage.OutputTokens),
			CacheReadTokens:  int(msg.Usage.CacheReadInputTokens),
			CacheWriteTokens: int(msg.Usage.CacheCreationInputTokens),
		},
	}
	var text strings.Builder
	var input json.RawMessage
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			text.WriteString(b.Text)
		case "tool_use":
			if r.tool != "" && b.Name == r.tool && input == nil {
				input = bytes.Clone(b.Input)
			}
		}
	}
	reply.Text = text.String()

	if msg.StopReason == anthropic.StopReasonRefusal {
		return reply, modelhttp.NewError(fmt.Sprintf("%s: the model declined to answer", v.Name), pilot.ErrCannot)
	}
	if r.tool == "" {
		if reply.Text == "" && msg.StopReason != anthropic.StopReasonEndTurn {
			return reply, modelhttp.Malformed(v, "the answer held no text (stop reason %q); try again", msg.StopReason)
		}
		return reply, nil
	}
	switch {
	case input == nil && msg.StopReason == anthropic.StopReasonMaxTokens:
		return reply, modelhttp.Malformed(v, "the answer was cut off at %d tokens; allow more tokens", r.params.MaxTokens)
	case input == nil:
		return reply, modelhttp.Malformed(v, "the model answered without calling the %q tool; try again", r.tool)
	case !json.Valid(input):
		return reply, modelhttp.Malformed(v, "the %q tool input is not valid JSON; try again", r.tool)
	}
	if !r.wrapped {
		reply.Data = input
		return reply, nil
	}
	var w struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(input, &w); err != nil || len(w.Value) == 0 {
		return reply, modelhttp.Malformed(v, "the %q tool input has no \"value\"; try again", r.tool)
	}
	reply.Data = w.Value
	return reply, nil
}
