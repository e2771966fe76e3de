package modelhttp

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

// NewError returns an error with the message msg that unwraps to the
// non-nil errs.
func NewError(msg string, errs ...error) error {
	var keep []error
	for _, err := range errs {
		if err != nil {
			keep = append(keep, err)
		}
	}
	return &callError{msg: msg, errs: keep}
}

// Vendor names the far side in messages.
type Vendor struct {
	Name   string        // "the Anthropic API", "the server at http://localhost:11434/v1"
	KeyEnv string        // the environment variable the key comes from
	HasKey bool          // whether a key was sent
	Limit  time.Duration // the per-try timeout, for the timeout message
}

// CallError turns the outcome of a failed call into an error that wraps the
// pilot's sentinels. ctx is the caller's context.
func (v Vendor) CallError(ctx context.Context, o Outcome) error {
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return NewError(fmt.Sprintf("%s did not answer before the caller's deadline", v.Name), pilot.ErrModelTimeout, err)
		}
		return NewError(fmt.Sprintf("call to %s canceled", v.Name), err)
	}
	if o.TimedOut {
		return NewError(fmt.Sprintf("%s did not answer within %s; try again, or allow a longer timeout", v.Name, v.Limit), pilot.ErrModelTimeout, o.Err)
	}
	msg := serverMessage(o.Status, o.Body)
	switch s := o.Status; {
	case s == 0:
		return NewError(fmt.Sprintf("cannot reach %s: %v; check the network and the base URL", v.Name, o.Err), pilot.ErrModelUnavailable, o.Err)
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		if !v.HasKey {
			return NewError(fmt.Sprintf("%s wants an API key (HTTP %d: %s); set %s", v.Name, s, msg, v.KeyEnv), pilot.ErrKeyRefused)
		}
		return NewError(fmt.Sprintf("%s refused the key in %s (HTTP %d: %s); check it", v.Name, v.KeyEnv, s, msg), pilot.ErrKeyRefused)
	case s == http.StatusTooManyRequests:
		return NewError(fmt.Sprintf("%s is rate limiting requests (HTTP 429 after %d tries: %s); wait a minute and try again", v.Name, o.Tries, msg), pilot.ErrRateLimited)
	case s >= 500:
		return NewError(fmt.Sprintf("%s failed (HTTP %d after %d tries: %s); try again later", v.Name, s, o.Tries, msg), pilot.ErrModelUnavailable, o.Err)
	case s == http.StatusNotFound:
		return NewError(fmt.Sprintf("%s answered 404 (%s); check the model name (--model or WAYMARK_MODEL) and the base URL", v.Name, msg), errNoSuchModel, o.Err)
	case s >= 400:
		return NewError(fmt.Sprintf("%s rejected the request (HTTP %d: %s)", v.Name, s, msg), o.Err)
	default:
		return NewError(fmt.Sprintf("%s sent an answer that could not be read (%v); try again", v.Name, o.Err), pilot.ErrMalformed, o.Err)
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
	return Shorten(msg, 300)
}

// Shorten collapses the white space in s and cuts it to n runes, marking
// a cut with an ellipsis.
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// Malformed is the error for an answer that arrived but does not hold what
// was asked for; the message is prefixed with the vendor's name.
func Malformed(v Vendor, format string, args ...any) error {
	return NewError(fmt.Sprintf("%s: ", v.Name)+fmt.Sprintf(format, args...), pilot.ErrMalformed)
}

// errNoSuchModel is a 404 from the model server: the model named, or the
// base URL, is not one it serves. The person's configuration, not a bug
// of waymark's: its code is bad_config (exit 2), as the fronts read a
// code from an error's ErrorCode.
var errNoSuchModel = codedError{errors.New("the model server serves no such model or path"), "bad_config"}

// ConfigError is an error of the person's model configuration (a server
// named with no model, a model it does not serve): coded bad_config.
func ConfigError(msg string) error { return codedError{errors.New(msg), "bad_config"} }

// codedError is an error with the code the fronts report for it.
type codedError struct {
	error
	code string
}

// ErrorCode is the code the fronts report.
func (e codedError) ErrorCode() string { return e.code }

func (e codedError) Unwrap() error { return e.error }
