// Package openai is the [pilot.Model] for OpenAI and for every server that
// speaks its Chat Completions API (Ollama, vLLM, llama.cpp's server, LM
// Studio), and the only package that imports the OpenAI SDK.
//
// Each [pilot.Turn] becomes a POST {BaseURL}/chat/completions. A structured
// answer ([pilot.Turn.Schema]) is asked for in the first of three ways the
// server accepts, and the [Model] remembers which one worked:
//
//  1. response_format {type: json_schema} with the schema (strict: false);
//  2. if the server rejects that (a 400 that names response_format or
//     json_schema) or answers with something that is not JSON: one forced
//     function call whose parameters are the schema;
//  3. if the server rejects tools too, or answers without the call: the
//     schema in the system prompt and JSON read leniently from the text
//     (code fences stripped, the first balanced {...} or [...] taken).
//
// Images go as image_url parts with data: URLs. Retries are this package's
// own (the SDK's are off): a 429 or 5xx answer is tried again after the
// server's Retry-After, at most [Options.MaxRetries] times. Failures wrap
// the pilot's sentinels; cancellation of the context aborts the request in
// flight and returns an error that satisfies errors.Is(err, context.Canceled).
//
// The package never reads the environment: the CLI passes OPENAI_API_KEY,
// OPENAI_BASE_URL (--base-url) and WAYMARK_MODEL (--model).
package openai

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/waymark-dev/waymark/internal/model/modelhttp"
	"github.com/waymark-dev/waymark/model"
	"github.com/waymark-dev/waymark/pilot"
)

// DefaultModel is the model used with OpenAI's own API when [Options.Model]
// is empty. The CLI's --model flag and WAYMARK_MODEL override it.
const DefaultModel = openai.ChatModelGPT5_5

// DefaultBaseURL is OpenAI's API root.
const DefaultBaseURL = "https://api.openai.com/v1"

// Timeouts for each try when [Options.Timeout] is zero. A local server may
// first have to load the model into memory, hence its longer default.
const (
	DefaultTimeout      = 2 * time.Minute
	DefaultLocalTimeout = 5 * time.Minute
)

// Options configures a [Model]: the options every HTTP provider shares.
// APIKey is sent as "Authorization: Bearer"; OpenAI's own API needs it,
// local servers such as Ollama need none. BaseURL includes the /v1 (e.g.
// http://localhost:11434/v1); empty means [DefaultBaseURL]. An empty Model
// means [DefaultModel] with OpenAI's API and is refused with another
// BaseURL, since each server has its own. A zero Timeout means
// [DefaultTimeout], or [DefaultLocalTimeout] when BaseURL is set.
type Options = model.Options

// Model is a [pilot.Model] backed by a Chat Completions API. It is safe for
// concurrent use.
type Model struct {
	chat   openai.ChatCompletionService
	vendor modelhttp.Vendor
	retry  modelhttp.Retrier
	// local is set for servers other than OpenAI's, which take max_tokens
	// where OpenAI wants max_completion_tokens.
	local bool
	// pictures is Options.Pictures, resolved (textOnly).
	pictures bool
	// mode is the first way of asking for structured answers still worth
	// trying. It only moves forward, as servers turn ways down.
	mode atomic.Int32
}

var _ pilot.Model = (*Model)(nil)

// New returns a Model for opts. It starts nothing and sends nothing.
func New(opts Options) (*Model, error) {
	local := opts.BaseURL != "" && !isOpenAI(opts.BaseURL)
	v := modelhttp.Vendor{Name: "the OpenAI API", KeyEnv: "OPENAI_API_KEY", HasKey: opts.APIKey != ""}
	if opts.BaseURL != "" {
		u, err := url.Parse(opts.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("openai: base URL %q is not an http(s) URL; pass one like http://localhost:11434/v1", opts.BaseURL)
		}
		if local {
			v.Name = "the server at " + opts.BaseURL
		}
	}
	if opts.APIKey == "" && !local {
		return nil, fmt.Errorf("openai: %w; set OPENAI_API_KEY, or OPENAI_BASE_URL (--base-url) for a local server that needs none", pilot.ErrNoKey)
	}
	r := modelhttp.NewRetrier(opts)
	if r.Model == "" {
		if local {
			return nil, modelhttp.ConfigError(fmt.Sprintf("openai: no model named for %s; pass the name of one it serves with --model or WAYMARK_MODEL", v.Name))
		}
		r.Model = DefaultModel
	}
	switch {
	case r.Timeout > 0:
	case local:
		r.Timeout = DefaultLocalTimeout
	default:
		r.Timeout = DefaultTimeout
	}
	v.Limit = r.Timeout
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	base := opts.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}

	copts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0), // retries are ours: see modelhttp.Retrier
		option.WithRequestTimeout(r.Timeout),
	}
	if opts.APIKey != "" {
		copts = append(copts, option.WithAPIKey(opts.APIKey))
	}
	// The service is built directly rather than through openai.NewClient,
	// which would read OPENAI_* variables: the library never reads the
	// environment (STYLE rule 6).
	pictures := opts.Pictures.Reads(!local && !textOnly(r.Model))
	return &Model{chat: openai.NewChatCompletionService(copts...), vendor: v, retry: r, local: local, pictures: pictures}, nil
}

// ReadsPictures says whether the pilot may send the model the page's
// screenshot (pilot.PictureReader): as Options.Pictures says, else yes
// for OpenAI's own API but its text-only models, and no for any other
// server, which must be told (model.PicturesRead, [model] pictures).
func (m *Model) ReadsPictures() bool { return m.pictures }

// textOnly reports whether an OpenAI model reads no pictures: the few
// chat models of its API without vision (as of 2026-12).
func textOnly(name string) bool {
	name = strings.ToLower(name)
	for _, p := range []string{"gpt-3.5", "o1-mini", "o3-mini"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func isOpenAI(base string) bool {
	u, err := url.Parse(base)
	return err == nil && strings.EqualFold(u.Hostname(), "api.openai.com")
}

// Next sends one turn and returns the model's reply.
func (m *Model) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	if len(turn.Schema) == 0 {
		params, err := m.params(turn, "")
		if err != nil {
			return pilot.Reply{}, err
		}
		c, o, err := m.send(ctx, turn.Purpose, params)
		var reply pilot.Reply
		if err == nil {
			reply, err = m.textReply(c)
		}
		m.retry.LogDone(ctx, turn.Purpose, o, reply.Usage, err)
		return reply, err
	}
	return m.structured(ctx, turn)
}

// send makes one request, with retries.
func (m *Model) send(ctx context.Context, purpose pilot.Purpose, params openai.ChatCompletionNewParams) (*openai.ChatCompletion, modelhttp.Outcome, error) {
	var c *openai.ChatCompletion
	o := m.retry.Run(ctx, purpose, func(ctx context.Context) (*http.Response, error) {
		var res *http.Response
		var err error
		c, err = m.chat.New(ctx, params, option.WithResponseInto(&res))
		return res, err
	})
	if o.Err != nil {
		return nil, o, m.vendor.CallError(ctx, o)
	}
	return c, o, nil
}
