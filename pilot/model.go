package pilot

import (
	"context"
	"encoding/json"
	"errors"
)

// Purpose says what a model call is for. Each call carries it, so a
// cheaper model can take some purposes and logs can tell calls apart.
type Purpose string

// The purposes of model calls.
const (
	PurposeAct     Purpose = "act"     // choose the element and operation for an instruction
	PurposeObserve Purpose = "observe" // list candidate elements for a question
	PurposeExtract Purpose = "extract" // read data from the page into a schema
	PurposeHeal    Purpose = "heal"    // find a recorded step's element on a changed page
	PurposeDecide  Purpose = "decide"  // the agent loop's next step
)

// Model is the seam to a language model: one request, one reply. Providers
// (Anthropic, OpenAI-compatible servers, the rules model, a scripted model
// for tests) implement it; the pilot never imports a vendor SDK.
type Model interface {
	Next(ctx context.Context, turn Turn) (Reply, error)
}

// Turn is one request to a model.
type Turn struct {
	Purpose  Purpose
	System   string    // the system prompt; providers cache it where they can
	Messages []Message // the conversation, oldest first
	// Schema, when set, asks for a structured answer: a JSON value that
	// validates against this JSON Schema, returned in [Reply.Data].
	Schema     json.RawMessage
	SchemaName string // a short name for the answer's shape, e.g. "act"
	MaxTokens  int    // zero means the provider's default
}

// Message is one message of a turn.
type Message struct {
	Role   Role
	Text   string
	Images []Image // for models that read pictures; others ignore them
}

// Role is who says a message.
type Role string

// Roles of messages.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Image is a picture sent with a message.
type Image struct {
	MediaType string // "image/png" or "image/jpeg"
	Data      []byte
}

// Reply is a model's answer.
type Reply struct {
	Text  string          // free text, when no schema was asked for (or beside it)
	Data  json.RawMessage // the structured answer, when a schema was asked for
	Usage Usage
	Model string // the model that answered, as the provider names it
}

// Usage counts the tokens of one call.
type Usage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
}

// Add returns the sum of two usages.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.InputTokens + v.InputTokens, u.OutputTokens + v.OutputTokens,
		u.CacheReadTokens + v.CacheReadTokens, u.CacheWriteTokens + v.CacheWriteTokens}
}

// Failures of a model call. Providers wrap their errors in these, with a
// message that says what to do next.
var (
	ErrNoKey        = errors.New("no API key")
	ErrKeyRefused   = errors.New("the API key was refused")
	ErrRateLimited  = errors.New("rate limited")
	ErrModelTimeout = errors.New("the model did not answer in time")
	// ErrModelUnavailable: the model server failed (HTTP 5xx) or could
	// not be reached.
	ErrModelUnavailable = errors.New("the model server is unavailable")
	ErrMalformed        = errors.New("the model's answer could not be read")
	ErrCannot           = errors.New("the model cannot do this")
)

// Models routes each purpose to its model: a purpose with no model of its
// own goes to Default, except heal, which goes to act's model first.
type Models struct {
	Default   Model
	ByPurpose map[Purpose]Model
}

// Next sends the turn to the model for its purpose.
func (m Models) Next(ctx context.Context, turn Turn) (Reply, error) {
	return m.For(turn.Purpose).Next(ctx, turn)
}

// For returns the model that takes a purpose.
func (m Models) For(p Purpose) Model {
	if x, ok := m.ByPurpose[p]; ok && x != nil {
		return x
	}
	if p == PurposeHeal {
		if x, ok := m.ByPurpose[PurposeAct]; ok && x != nil {
			return x
		}
	}
	return m.Default
}
