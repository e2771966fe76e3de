package calls

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Categories of failure. Callers branch on these with errors.Is; each has a
// stable code that travels over the daemon's socket (see [Code]).
var (
	ErrUnknownRef      = errors.New("unknown ref")
	ErrStaleRef        = errors.New("ref is no longer on the page")
	ErrNoMatch         = errors.New("no element matches")
	ErrAmbiguous       = errors.New("several elements match")
	ErrNotInteractable = errors.New("element is not interactable")
	ErrTimeout         = errors.New("timed out")
	ErrBadInput        = errors.New("bad input")
	ErrNavigation      = errors.New("navigation failed")
	ErrJavaScript      = errors.New("javascript error")
	ErrNoDialog        = errors.New("no dialog is open")
	ErrBrowserGone     = errors.New("the browser is gone")
	ErrUnavailable     = errors.New("browser unavailable")
	// ErrNeedsApproval: the action would send, pay, delete or confirm; the
	// error carries the [Approval] to send back with the action.
	ErrNeedsApproval = errors.New("needs approval")
	// ErrBlockedURL: the URL policy or the private-network rule refused
	// where the page would go.
	ErrBlockedURL = errors.New("blocked url")
	// ErrPopup: something appeared over the page (or took the focus)
	// since the last look; nothing was done.
	ErrPopup = errors.New("popup")
	// ErrPageCrashed: the tab's renderer crashed; the page is gone until
	// the tab is reloaded, sent elsewhere or closed.
	ErrPageCrashed = errors.New("page crashed")
	// ErrPageUnresponsive: the tab's page stopped answering (a script
	// holds its main thread); the call was abandoned.
	ErrPageUnresponsive = errors.New("page unresponsive")
	// ErrNeedsModel: the words asked for something the model in use (the
	// rules model, with no key set) cannot do; a language model could.
	ErrNeedsModel = errors.New("needs a language model")
	// ErrChanged: what an approval was given for changed before it was
	// used (a cell of an approved fill holds something else now); nothing
	// was written.
	ErrChanged = errors.New("changed since it was approved")
)

// codes pairs each category with its wire code. Order matters only for
// documentation; each error matches at most one category.
var codes = []struct {
	err  error
	code string
}{
	{ErrUnknownRef, "unknown_ref"},
	{ErrStaleRef, "stale_ref"},
	{ErrNoMatch, "not_found"},
	{ErrAmbiguous, "ambiguous"},
	{ErrNotInteractable, "not_interactable"},
	{ErrTimeout, "timeout"},
	{ErrBadInput, "bad_input"},
	{ErrNavigation, "navigation"},
	{ErrJavaScript, "javascript"},
	{ErrNoDialog, "no_dialog"},
	{ErrBrowserGone, "browser_gone"},
	{ErrUnavailable, "unavailable"},
	{ErrNeedsApproval, "needs_approval"},
	{ErrBlockedURL, "blocked_url"},
	{ErrPopup, "popup"},
	{ErrPageCrashed, "page_crashed"},
	{ErrPageUnresponsive, "page_unresponsive"},
	{ErrNeedsModel, "needs_model"},
	{ErrChanged, "changed"},
	{context.Canceled, "canceled"},
	{context.DeadlineExceeded, "timeout"},
}

// Codes are the wire codes of the categories, each once, in the table's
// order: what a front documents (docs/json.md's table is written from
// them and the CLI's own, internal/cli/cmdutil/codes.go).
func Codes() []string {
	var out []string
	for _, c := range codes {
		if !slices.Contains(out, c.code) {
			out = append(out, c.code)
		}
	}
	return out
}

// Code returns the wire code of err's category, or "internal".
func Code(err error) string {
	for _, c := range codes {
		if errors.Is(err, c.err) {
			return c.code
		}
	}
	return "internal"
}

// FromWire is [FromCode] with the error's data.
func FromWire(code, message, hint string, data json.RawMessage) error {
	err := FromCode(code, message, hint)
	if e, ok := err.(*Error); ok && len(data) > 0 {
		e.Data = data
	}
	return err
}

// DataOf returns the data of the first [Error] in err's chain, or, for a
// [CoveredError], the cover (what [PopupOf] reads); nil otherwise.
func DataOf(err error) json.RawMessage {
	var e *Error
	if errors.As(err, &e) {
		return e.Data
	}
	var ce *CoveredError
	if errors.As(err, &ce) {
		return ce.data()
	}
	return nil
}

// ApprovalOf reads the approval a needs-approval error carries: what it
// would press, on which page, with the token to send back. False for any
// other error, or one that carries none.
func ApprovalOf(err error) (Approval, bool) {
	var a Approval
	if !errors.Is(err, ErrNeedsApproval) {
		return a, false
	}
	data := DataOf(err)
	return a, len(data) > 0 && json.Unmarshal(data, &a) == nil && a.Action != ""
}

// FromCode rebuilds an error of the category that code names, carrying the
// message and hint the far side sent. An unknown code gives an error of no
// category.
func FromCode(code, message, hint string) error {
	if code == "no_match" {
		code = "not_found" // the code before 2026-12; an older daemon may still send it
	}
	for _, c := range codes {
		if c.code == code {
			return &Error{Kind: c.err, Msg: message, Hint: hint}
		}
	}
	return &Error{Msg: message, Hint: hint}
}

// Error is a failure with a message for people and agents and a hint that
// says what to do next.
type Error struct {
	Kind error           // one of the Err categories, or nil
	Msg  string          // the whole message
	Hint string          // what to do next; may be empty
	Data json.RawMessage // details a program acts on (an Approval); may be empty
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

// Errorf builds an [Error] of the kind with a hint.
func Errorf(kind error, hint, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// WithHint is err with what to do next added after err's own hint (or
// as the hint, when err has none), keeping err's category, type and data
// ([errors.Is], [errors.As], [DataOf] see through it). A layer that knows
// more of what to do says it here rather than in the message: a hint is
// said by each front in its own words ([ProgramHint]; the MCP server's
// tools and arguments), a message is read as it is.
func WithHint(err error, hint string) error {
	return &hinted{err: err, hint: hint}
}

type hinted struct {
	err  error
	hint string
}

func (e *hinted) Error() string { return e.err.Error() }
func (e *hinted) Unwrap() error { return e.err }
func (e *hinted) ErrorHint() string {
	if h := Hint(e.err); h != "" {
		return h + "; " + e.hint
	}
	return e.hint
}

// Hinter is an error of another package that carries a hint (the rules
// model's refusals), so that [Hint] finds it without a [Error] around it.
type Hinter interface {
	error
	ErrorHint() string
}

// Hint returns the hint of the first [Error] or [Hinter] in err's chain,
// or "".
func Hint(err error) string {
	for err != nil {
		switch e := err.(type) {
		case *Error:
			return e.Hint
		case Hinter:
			if h := e.ErrorHint(); h != "" {
				return h
			}
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				if h := Hint(inner); h != "" {
					return h
				}
			}
			return ""
		default:
			return ""
		}
	}
	return ""
}

// CoveredError says that another element covers the target at its click
// point. By is the outline line of the covering element.
type CoveredError struct {
	Target string
	By     string
	// Text and Buttons are the covering box's (the fixed, sticky or
	// dialog container the covering element sits in) text and control
	// labels, when it sits in one: what a dismissal is looked for in.
	Text    string
	Buttons []string
}

func (e *CoveredError) Error() string {
	return fmt.Sprintf("%s is covered by %s", e.Target, e.By)
}
func (e *CoveredError) Unwrap() error { return ErrNotInteractable }
