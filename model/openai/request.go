package openai

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/waymark-dev/waymark/internal/model/modelhttp"
	"github.com/waymark-dev/waymark/pilot"
)

// params converts a turn; note, when set, is appended to the system prompt.
func (m *Model) params(turn pilot.Turn, note string) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: m.retry.Model}
	if turn.MaxTokens > 0 {
		// OpenAI's newer models refuse max_tokens; most compatible servers
		// know only max_tokens.
		if m.local {
			p.MaxTokens = openai.Int(int64(turn.MaxTokens))
		} else {
			p.MaxCompletionTokens = openai.Int(int64(turn.MaxTokens))
		}
	}
	system := turn.System
	if note != "" {
		system = strings.TrimSpace(system + "\n\n" + note)
	}
	if system != "" {
		p.Messages = append(p.Messages, openai.SystemMessage(system))
	}
	for i, msg := range turn.Messages {
		switch msg.Role {
		case pilot.RoleUser:
			p.Messages = append(p.Messages, userMessage(msg))
		case pilot.RoleAssistant:
			// Assistant messages cannot hold images; theirs are dropped.
			p.Messages = append(p.Messages, openai.AssistantMessage(msg.Text))
		default:
			return p, fmt.Errorf("openai: message %d has role %q; use %q or %q", i, msg.Role, pilot.RoleUser, pilot.RoleAssistant)
		}
	}
	return p, nil
}

// userMessage is plain text, or text and image_url parts when the message
// holds images: plain text is what every compatible server understands.
func userMessage(msg pilot.Message) openai.ChatCompletionMessageParamUnion {
	if len(msg.Images) == 0 {
		return openai.UserMessage(msg.Text)
	}
	parts := make([]openai.ChatCompletionContentPartUnionParam, 0, len(msg.Images)+1)
	if msg.Text != "" {
		parts = append(parts, openai.TextContentPart(msg.Text))
	}
	for _, img := range msg.Images {
		mt := img.MediaType
		if mt == "" {
			mt = http.DetectContentType(img.Data)
		}
		parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{
			URL: "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(img.Data),
		}))
	}
	return openai.UserMessage(parts)
}

// first returns the first choice's message with the reply's model and usage.
func (m *Model) first(c *openai.ChatCompletion) (openai.ChatCompletionMessage, pilot.Reply, error) {
	if c == nil {
		return openai.ChatCompletionMessage{}, pilot.Reply{}, modelhttp.Malformed(m.vendor, "the answer was empty; try again")
	}
	reply := pilot.Reply{Model: c.Model, Usage: usage(c.Usage)}
	if len(c.Choices) == 0 {
		return openai.ChatCompletionMessage{}, reply, modelhttp.Malformed(m.vendor, "the answer held no choices; try again")
	}
	msg := c.Choices[0].Message
	if msg.Refusal != "" {
		return msg, reply, modelhttp.NewError(fmt.Sprintf("%s: the model declined to answer: %s", m.vendor.Name, modelhttp.Shorten(msg.Refusal, 200)), pilot.ErrCannot)
	}
	return msg, reply, nil
}

// textReply reads a free-text answer.
func (m *Model) textReply(c *openai.ChatCompletion) (pilot.Reply, error) {
	msg, reply, err := m.first(c)
	if err != nil {
		return reply, err
	}
	reply.Text = msg.Content
	if reply.Text == "" && c.Choices[0].FinishReason == "length" {
		return reply, modelhttp.Malformed(m.vendor, "the answer was cut off before any text; allow more tokens")
	}
	return reply, nil
}

// usage maps the server's counts. InputTokens counts the prompt tokens not
// read from the cache, as Anthropic counts them, so that InputTokens +
// CacheReadTokens is the whole prompt with either provider.
func usage(u openai.CompletionUsage) pilot.Usage {
	cached := int(u.PromptTokensDetails.CachedTokens)
	return pilot.Usage{
		InputTokens:      max(int(u.PromptTokens)-cached, 0),
		OutputTokens:     int(u.CompletionTokens),
		CacheReadTokens:  cached,
		CacheWriteTokens: int(u.PromptTokensDetails.CacheWriteTokens),
	}
}
