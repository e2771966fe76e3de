package anthropic

// This file is identical in internal/model/anthropic and internal/model/openai
// except for the package clause. It belongs in a shared internal package; it
// is copied only because each provider was written in its own directory.

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

	"github.com/waymark-dev/waymark/pilot"
)

const (
	// defaultMaxRetries is how many times a 429 or 5xx answer is retried
	// when Options.MaxRetries is zero.
	defaultMaxRetries = 2
	// maxWait caps each wait between tries, whatever Retry-After says.
	maxWait = 30 * time.Second
	// firstBackoff is the wait after the first failed try when the server
	// sends no Retry-After; it doubles with each try.
	firstBackoff = 500 * time.Millisecond
	// maxErrorBody bounds how much of an error response is kept.
	maxErrorBody = 64 << 10
)

// retrier runs one model request with bounded retries. The SDK's own retries
// are off, so these are the only ones and tests see every try.
type retrier struct {
	model      string
	maxRetries int           // retries after the first try; never negative
	timeout    time.Duration // bounds each try
	sleep      func(context.Context, time.Duration) error
	now        func() time.Time // for Retry-After dates
	log        *slog.Logger
}

// outcome is how the last try of a call ended.
type outcome struct {
	status   int         // HTTP status of the last try; 0 when no response arrived
	header   http.Header // its headers
	body     []byte      // the body of an error response, at most maxErrorBody bytes
	err      error       // the last try's error; nil on success
	timedOut bool        // the last try ran out of time
	tries    int
	dur      time.Duration // the whole call, waits included
}

// run calls send until it succeeds, fails in a way a retry cannot fix, or the
// tries run out. send gets a context bounded by the per-try timeout and
// returns the HTTP response it saw, if any, with the SDK's error.
func (r *retrier) run(ctx context.Context, purpose pilot.Purpose, send func(context.Context) (*http.Response, error)) outcome {
	start := time.Now()
	var o outcome
	for {
		o.tries++
		tctx, cancel := context.WithTimeout(ctx, r.timeout)
		res, err := send(tctx)
		tryExpired := errors.Is(tctx.Err(), context.DeadlineExceeded)
		cancel()

		o = outcome{tries: o.tries, err: err}
		if res != nil {
			o.status, o.header = res.StatusCode, res.Header
		}
		if err != nil && res != nil && res.StatusCode >= 400 && res.Body != nil {
			o.body, _ = io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		}
		o.timedOut = err != nil && ctx.Err() == nil && (tryExpired || isNetTimeout(err))
		if err == nil || ctx.Err() != nil || o.timedOut || !retryable(o.status) || o.tries > r.maxRetries {
			o.dur = time.Since(start)
			return o
		}

		wait := r.wait(o.header, o.tries)
		r.log.LogAttrs(ctx, slog.LevelWarn, "model call retry",
			slog.String("purpose", string(purpose)),
			slog.String("model", r.model),
			slog.Int("status", o.status),
			slog.Int("try", o.tries),
			slog.Int64("wait_ms", wait.Milliseconds()))
		if err := r.sleep(ctx, wait); err != nil {
			o.err = err
			o.dur = time.Since(start)
			return o
		}
	}
}

// logDone writes the one line each call leaves in the log: never the
// prompt, the messages, the images or the key.
func (r *retrier) logDone(ctx context.Context, purpose pilot.Purpose, o outcome, u pilot.Usage, err error, extra ...slog.Attr) {
	level := slog.LevelInfo
	if err != nil {
		level = slog.LevelWarn
	}
	attrs := []slog.Attr{
		slog.String("purpose", string(purpose)),
		slog.String("model", r.model),
		slog.Int64("dur_ms", o.dur.Milliseconds()),
		slog.Int("input_tokens", u.InputTokens),
		slog.Int("output_tokens", u.OutputTokens),
		slog.Int("status", o.status),
		slog.Int("tries", o.tries),
	}
	if u.CacheReadTokens != 0 || u.CacheWriteTokens != 0 {
		attrs = append(attrs, slog.Int("cache_read_tokens", u.CacheReadTokens), slog.Int("cache_write_tokens", u.CacheWriteTokens))
	}
	attrs = append(attrs, extra...)
	if err != nil {
		attrs = append(attrs, slog.String("error_kind", errorKind(err)))
	}
	r.log.LogAttrs(ctx, level, "model call", attrs...)
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
func (r *retrier) wait(h http.Header, tries int) time.Duration {
	d, ok := retryAfter(h, r.now())
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

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
