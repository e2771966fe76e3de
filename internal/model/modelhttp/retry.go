package modelhttp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/internal/wait"
	"github.com/waymark-dev/waymark/model"
	"github.com/waymark-dev/waymark/pilot"
)

const (
	// DefaultMaxRetries is how many times a 429 or 5xx answer is retried
	// when a provider's Options.MaxRetries is zero.
	DefaultMaxRetries = 2
	// maxWait caps each wait between tries, whatever Retry-After says.
	maxWait = 30 * time.Second
	// firstBackoff is the wait after the first failed try when the server
	// sends no Retry-After; it doubles with each try.
	firstBackoff = 500 * time.Millisecond
	// maxErrorBody bounds how much of an error response is kept.
	maxErrorBody = 64 << 10
)

// Retrier runs one model request with bounded retries. The SDK's own retries
// are off, so these are the only ones and tests see every try. All fields
// must be set; [Retrier.WithDefaults] fills the ones a provider's options may
// leave empty.
type Retrier struct {
	Model      string
	MaxRetries int           // retries after the first try; never negative
	Timeout    time.Duration // bounds each try
	Sleep      func(context.Context, time.Duration) error
	Now        func() time.Time // for Retry-After dates
	Log        *slog.Logger
}

// WithDefaults returns r with the zero values of a provider's options given
// their meaning: MaxRetries zero means [DefaultMaxRetries] and negative
// means none; a nil Sleep means [wait.Sleep]; a nil Now means [time.Now]; a
// nil Log discards. Model and Timeout are the provider's to default.
func (r Retrier) WithDefaults() Retrier {
	switch {
	case r.MaxRetries == 0:
		r.MaxRetries = DefaultMaxRetries
	case r.MaxRetries < 0:
		r.MaxRetries = 0
	}
	if r.Sleep == nil {
		r.Sleep = wait.Sleep
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	if r.Log == nil {
		r.Log = slog.New(slog.DiscardHandler)
	}
	return r
}

// NewRetrier is the retrier a provider's options ask for, with
// [Retrier.WithDefaults] applied. Model and Timeout stay as given, for the
// provider to default.
func NewRetrier(o model.Options) Retrier {
	return Retrier{
		Model:      o.Model,
		MaxRetries: o.MaxRetries,
		Timeout:    o.Timeout,
		Sleep:      o.Sleep,
		Now:        time.Now,
		Log:        o.Logger,
	}.WithDefaults()
}

// Outcome is how the last try of a call ended.
type Outcome struct {
	Status   int         // HTTP status of the last try; 0 when no response arrived
	Header   http.Header // its headers
	Body     []byte      // the body of an error response, at most 64 KiB
	Err      error       // the last try's error; nil on success
	TimedOut bool        // the last try ran out of time
	Tries    int
	Dur      time.Duration // the whole call, waits included
}

// Run calls send until it succeeds, fails in a way a retry cannot fix, or the
// tries run out. send gets a context bounded by the per-try timeout and
// returns the HTTP response it saw, if any, with the SDK's error.
func (r *Retrier) Run(ctx context.Context, purpose pilot.Purpose, send func(context.Context) (*http.Response, error)) Outcome {
	start := time.Now()
	var o Outcome
	for {
		o.Tries++
		tctx, cancel := context.WithTimeout(ctx, r.Timeout)
		res, err := send(tctx)
		tryExpired := errors.Is(tctx.Err(), context.DeadlineExceeded)
		cancel()

		o = Outcome{Tries: o.Tries, Err: err}
		if res != nil {
			o.Status, o.Header = res.StatusCode, res.Header
		}
		if err != nil && res != nil && res.StatusCode >= 400 && res.Body != nil {
			o.Body, _ = io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		}
		o.TimedOut = err != nil && ctx.Err() == nil && (tryExpired || isNetTimeout(err))
		if err == nil || ctx.Err() != nil || o.TimedOut || !retryable(o.Status) || o.Tries > r.MaxRetries {
			o.Dur = time.Since(start)
			return o
		}

		wait := r.wait(o.Header, o.Tries)
		r.Log.LogAttrs(ctx, slog.LevelWarn, "model call retry",
			slog.String("purpose", string(purpose)),
			slog.String("model", r.Model),
			slog.Int("status", o.Status),
			slog.Int("try", o.Tries),
			slog.Int64("wait_ms", wait.Milliseconds()))
		if err := r.Sleep(ctx, wait); err != nil {
			o.Err = err
			o.Dur = time.Since(start)
			return o
		}
	}
}

// LogDone writes the one line each call leaves in the log: never the
// prompt, the messages, the images or the key.
func (r *Retrier) LogDone(ctx context.Context, purpose pilot.Purpose, o Outcome, u pilot.Usage, err error, extra ...slog.Attr) {
	level := slog.LevelInfo
	if err != nil {
		level = slog.LevelWarn
	}
	attrs := []slog.Attr{
		slog.String("purpose", string(purpose)),
		slog.String("model", r.Model),
		slog.Int64("dur_ms", o.Dur.Milliseconds()),
		slog.Int("input_tokens", u.InputTokens),
		slog.Int("output_tokens", u.OutputTokens),
		slog.Int("status", o.Status),
		slog.Int("tries", o.Tries),
	}
	if u.CacheReadTokens != 0 || u.CacheWriteTokens != 0 {
		attrs = append(attrs, slog.Int("cache_read_tokens", u.CacheReadTokens), slog.Int("cache_write_tokens", u.CacheWriteTokens))
	}
	attrs = append(attrs, extra...)
	if err != nil {
		attrs = append(attrs, slog.String("error_kind", errorKind(err)))
	}
	r.Log.LogAttrs(ctx, level, "model call", attrs...)
}

// errorKind names an error's category for the log without its text, which
// may quote the server.
func errorKind(err error) string {
	for _, k := range []struct {
		err  error
		name string
	}{
		{context.Canceled, "canceled"},
		{pilot.ErrKeyRefused, "key_refused"},
		{pilot.ErrRateLimited, "rate_limited"},
		{pilot.ErrModelTimeout, "timeout"},
		{pilot.ErrMalformed, "malformed"},
		{pilot.ErrCannot, "cannot"},
	} {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	return "other"
}

// wait is how long to wait before the next try: what the server asked for,
// else an exponential backoff, never more than maxWait.
func (r *Retrier) wait(h http.Header, tries int) time.Duration {
	d, ok := retryAfter(h, r.Now())
	if !ok {
		d = firstBackoff << min(tries-1, 8)
	}
	return min(d, maxWait)
}

// retryAfter reads retry-after-ms (sent by Anthropic and OpenAI) or
// Retry-After, in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(min(ms, float64(maxWait.Milliseconds())) * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(min(s, maxWait.Seconds()) * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// retryable reports whether a status is worth another try.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

func isNetTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
