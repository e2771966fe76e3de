// Package model holds what the HTTP model providers share: the [Options]
// that [github.com/waymark-dev/waymark/model/anthropic] and
// [github.com/waymark-dev/waymark/model/openai] both take. Each provider is
// a [pilot.Model]; so are model/rules (no network, no key) and
// model/scripted (for tests).
//
// [pilot.Model]: https://pkg.go.dev/github.com/waymark-dev/waymark/pilot#Model
package model

import (
	"context"
	"log/slog"
	"net/http"
	"time"
)

// Options configure an HTTP model provider. Where a field is empty, each
// provider says what it means (its DefaultModel, DefaultTimeout, its own
// API's address).
type Options struct {
	// APIKey is the provider's key. Anthropic's API and OpenAI's need one;
	// a local server reached through BaseURL may not. The library never
	// reads the environment: the caller passes the key.
	APIKey string
	// BaseURL is the API's root, for a proxy, a gateway or a local server
	// (for OpenAI-compatible servers it includes the /v1). Empty means the
	// provider's own API.
	BaseURL string
	// Model names the model. Empty means the provider's DefaultModel, where
	// it has one.
	Model string
	// HTTPClient sends the requests. Nil means a new client with Go's
	// default transport.
	HTTPClient *http.Client
	// MaxRetries bounds the retries after a 429 or 5xx answer. Zero means 2;
	// a negative value means none.
	MaxRetries int
	// Timeout bounds each try. Zero means the provider's default.
	Timeout time.Duration
	// Logger receives one line per call and one per retry or fallback,
	// never the prompt, the messages, the images or the key. Nil means
	// discard.
	Logger *slog.Logger
	// Sleep waits between tries; tests replace it. Nil means a timer that
	// stops early when ctx is done.
	Sleep func(ctx context.Context, d time.Duration) error
	// Pictures says whether the model reads pictures: whether the pilot
	// may send it the page's screenshot (pilot.Options.Vision). The zero
	// value leaves it to the provider: yes for Anthropic's models and for
	// OpenAI's own API (but for its few text-only models), no for any
	// other server at BaseURL (Ollama, vLLM, llama.cpp serve many
	// text-only models, and some refuse a request with an image).
	Pictures Pictures
}

// Pictures says whether a model reads pictures ([Options.Pictures]).
type Pictures int

// The values of [Pictures].
const (
	PicturesDefault  Pictures = iota // the provider decides
	PicturesRead                     // the model reads pictures
	PicturesTextOnly                 // the model reads text alone: none is sent
)

// Reads resolves p against the provider's default.
func (p Pictures) Reads(def bool) bool {
	switch p {
	case PicturesRead:
		return true
	case PicturesTextOnly:
		return false
	}
	return def
}
