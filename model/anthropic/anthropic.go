// Package anthropic is the [pilot.Model] for Anthropic's Messages API, and
// the only package that imports the Anthropic SDK.
//
// Each [pilot.Turn] becomes one POST /v1/messages. The system prompt carries
// a cache breakpoint, so repeated turns read it from Anthropic's prompt
// cache. A structured answer ([pilot.Turn.Schema]) comes back through one
// forced tool call: a tool whose input schema is the answer's schema, with
// tool_choice naming it. Images go as base64 image blocks.
//
// Retries are this package's own (the SDK's are off): a 429 or 5xx answer is
// tried again after the server's Retry-After, at most [Options.MaxRetries]
// times. Failures wrap the pilot's sentinels ([pilot.ErrKeyRefused],
// [pilot.ErrRateLimited], [pilot.ErrModelTimeout], [pilot.ErrMalformed]);
// cancellation of the context aborts the request in flight and returns an
// error that satisfies errors.Is(err, context.Canceled).
//
// The package never reads the environment: the CLI passes the key from
// ANTHROPIC_API_KEY and the model from --model or WAYMARK_MODEL.
package anthropic

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/waymark-dev/waymark/internal/model/modelhttp"
	"github.com/waymark-dev/waymark/model"
	"github.com/waymark-dev/waymark/pilot"
)

// DefaultModel is the model used when [Options.Model] is empty: a current
// Claude Sonnet. The CLI's --model flag and WAYMARK_MODEL override it.
const DefaultModel = anthropic.ModelClaudeSonnet5_5

// DefaultTimeout bounds each try of a call when [Options.Timeout] is zero.
const DefaultTimeout = 2 * time.Minute

// DefaultMaxTokens caps an answer when [pilot.Turn.MaxTokens] is zero; the
// Messages API requires a cap.
const DefaultMaxTokens = 4096

// Options configures a [Model]: the options every HTTP provider shares.
// APIKey is required (the CLI reads it from ANTHROPIC_API_KEY) and sent in
// the x-api-key header; an empty BaseURL means https://api.anthropic.com,
// an empty Model [DefaultModel], a zero Timeout [DefaultTimeout].
type Options = model.Options

// Model is a [pilot.Model] backed by the Anthropic Messages API. It is safe
// for concurrent use.
type Model struct {
	client   anthropic.Client
	vendor   modelhttp.Vendor
	retry    modelhttp.Retrier
	pictures bool // Options.Pictures, resolved
}

var _ pilot.Model = (*Model)(nil)

// New returns a Model for opts. It starts nothing and sends nothing.
func New(opts Options) (*Model, error) {
	if opts.APIKey == "" {
		return nil, fmt.Errorf("anthropic: %w; set ANTHROPIC_API_KEY", pilot.ErrNoKey)
	}
	v := modelhttp.Vendor{Name: "the Anthropic API", KeyEnv: "ANTHROPIC_API_KEY", HasKey: true}
	r := modelhttp.NewRetrier(opts)
	if r.Model == "" {
		r.Model = DefaultModel
	}
	if r.Timeout <= 0 {
		r.Timeout = DefaultTimeout
	}
	v.Limit = r.Timeout
	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}

	copts := []option.RequestOption{
		// The library never reads the environment (STYLE rule 6); without
		// this the SDK would pick up ANTHROPIC_* variables and profiles.
		option.WithoutEnvironmentDefaults(),
		// The key goes in x-api-key, the header the Messages API documents
		// and Anthropic-compatible gateways read. SDK v2.15's WithAPIKey
		// would send it as "Authorization: Bearer" instead.
		option.WithHeader("X-Api-Key", opts.APIKey),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0), // retries are ours: see modelhttp.Retrier
		// An explicit per-try timeout also stops the SDK from refusing
		// large max_tokens without streaming.
		option.WithRequestTimeout(r.Timeout),
	}
	if opts.BaseURL != "" {
		u, err := url.Parse(opts.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("anthropic: base URL %q is not an http(s) URL; pass one like https://api.anthropic.com", opts.BaseURL)
		}
		copts = append(copts, option.WithBaseURL(opts.BaseURL))
		v.Name = "the Anthropic API at " + opts.BaseURL
	}
	// Every Claude model since Claude 3 reads pictures.
	return &Model{client: anthropic.NewClient(copts...), vendor: v, retry: r, pictures: opts.Pictures.Reads(true)}, nil
}

// ReadsPictures says whether the pilot may send the model the page's
// screenshot (pilot.PictureReader): yes, unless Options.Pictures says
// it is text-only.
func (m *Model) ReadsPictures() bool { return m.pictures }

// Next sends one turn and returns the model's reply.
func (m *Model) Next(ctx context.Context, turn pilot.Turn) (pilot.Reply, error) {
	req, err := newRequest(m.retry.Model, turn)
	if err != nil {
		return pilot.Reply{}, err
	}
	var msg *anthropic.Message
	o := m.retry.Run(ctx, turn.Purpose, func(ctx context.Context) (*http.Response, error) {
		var res *http.Response
		var err error
		msg, err = m.client.Messages.New(ctx, req.params, option.WithResponseInto(&res))
		return res, err
	})
	if o.Err != nil {
		err := m.vendor.CallError(ctx, o)
		m.retry.LogDone(ctx, turn.Purpose, o, pilot.Usage{}, err)
		return pilot.Reply{}, err
	}
	reply, err := req.reply(m.vendor, msg)
	m.retry.LogDone(ctx, turn.Purpose, o, reply.Usage, err)
	return reply, err
}
