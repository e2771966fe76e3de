package openai

// This file is identical in internal/model/anthropic and internal/model/openai
// except for the package clause (see retry.go).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/waymark-dev/waymark/pilot"
)

// callError is a failed model call: a message that says what to do next,
// and the sentinels and causes it unwraps to.
type callError struct {
	msg  string
	errs []error
}

func (e *callError) Error() string   { return e.msg }
func (e *callError) Unwrap() []error { return e.errs }

func newError(msg string, errs ...error) error {
	var keep []error
	for _, err := range errs {
		if err != nil {
			keep = append(keep, err)
		}
	}
	return &callError{msg: msg, errs: keep}
}

// vendor names the far side in messages.
type vendor struct {
	name   string        // "the Anthropic API", "the server at http://localhost:11434/v1"
	keyEnv string        // the environment variable the key comes from
	hasKey bool          // whether a key was sent
	limit  time.Duration // the per-try timeout, for the timeout message
}

// callError turns the outcome of a failed call into an error that wraps the
// pilot's sentinels. ctx is the caller's context.
func (v vendor) callError(ctx context.Context, o outcome) error {
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return newError(fmt.Sprintf("%s did not answer before the caller's deadline", v.name), pilot.ErrModelTimeout, err)
		}
		return newError(fmt.Sprintf("call to %s canceled", v.name), err)
	}
	if o.timedOut {
		return newError(fmt.Sprintf("%s did not answer within %s; try again, or allow a longer timeout", v.name, v.limit), pilot.ErrModelTimeout, o.err)
	}
	msg := serverMessage(o.status, o.body)
	switch s := o.status; {
	case s == 0:
		return newError(fmt.Sprintf("cannot reach %s: %v; check the network and the base URL", v.name, o.err), o.err)
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		if !v.hasKey {
			return newError(fmt.Sprintf("%s wants an API key (HTTP %d: %s); set %s", v.name, s, msg, v.keyEnv), pilot.ErrKeyRefused)
		}
		return newError(fmt.Sprintf("%s refused the key in %s (HTTP %d: %s); check it", v.name, v.keyEnv, s, msg), pilot.ErrKeyRefused)
	case s == http.StatusTooManyRequests:
		return newError(fmt.Sprintf("%s is rate limiting requests (HTTP 429 after %d tries: %s); wait a minute and try again", v.name, o.tries, msg), pilot.ErrRateLimited)
	case s >= 500:
		return newError(fmt.Sprintf("%s failed (HTTP %d after %d tries: %s); try again later", v.name, s, o.tries, msg), o.err)
	case s == http.StatusNotFound:
		return newError(fmt.Sprintf("%s answered 404 (%s); check the model name (--model or WAYMARK_MODEL) and the base URL", v.name, msg), o.err)
	case s >= 400:
		return newError(fmt.Sprintf("%s rejected the request (HTTP %d: %s)", v.name, s, msg), o.err)
	default:
		return newError(fmt.Sprintf("%s sent an answer that could not be read (%v); try again", v.name, o.err), pilot.ErrMalformed, o.err)
	}
}

// serverMessage is the human part of an error body: error.message in the
// Anthropic and OpenAI shapes, error or message as some compatible servers
// send it, else the text itself, shortened.
func serverMessage(status int, body []byte) string {
	var shapes struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	msg := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &shapes) == nil {
		var nested struct {
			Message string `json:"message"`
		}
		var flat string
		switch {
		case json.Unmarshal(shapes.Error, &nested) == nil && nested.Message != "":
			msg = nested.Message
		case json.Unmarshal(shapes.Error, &flat) == nil && flat != "":
			msg = flat
		case shapes.Message != "":
			msg = shapes.Message
		case shapes.Detail != nil:
			b, _ := json.Marshal(shapes.Detail)
			msg = string(b)
		}
	}
	if msg == "" {
		return http.StatusText(status)
	}
	return shorten(msg, 300)
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// malformed is an answer that arrived but does not hold what was asked for.
func malformed(v vendor, format string, args ...any) error {
	return newError(fmt.Sprintf("%s: ", v.name)+fmt.Sprintf(format, args...), pilot.ErrMalformed)
}
