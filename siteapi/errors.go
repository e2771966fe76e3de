package siteapi

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
)

// Kind is why a call failed, for a program to act on.
type Kind string

// Failure kinds.
const (
	// KindAuth: the site refused the credentials (401, 403): sign in
	// again in the browser, then call again.
	KindAuth Kind = "auth"
	// KindChanged: the answer is no longer what the recipe reads (not
	// JSON, the list or a field gone, rows that fail the schema): learn
	// it again.
	KindChanged Kind = "changed"
	// KindRate: the site kept answering 429 after the backoff.
	KindRate Kind = "rate"
	// KindNetwork: no answer, or a server error.
	KindNetwork Kind = "network"
	// KindBlockedURL: a hop the URL policy or the private-network rule
	// refuses, or a recipe that calls another site.
	KindBlockedURL Kind = "blocked-url"
)

// category is the calls category each kind travels as.
func (k Kind) category() error {
	switch k {
	case KindAuth, KindNetwork:
		return calls.ErrNavigation
	case KindChanged:
		return calls.ErrNoMatch
	case KindRate:
		return calls.ErrTimeout
	case KindBlockedURL:
		return calls.ErrBlockedURL
	}
	return nil
}

// kindData is what a failure's calls.Error carries, so the kind crosses
// the daemon's socket.
type kindData struct {
	APIFailure Kind `json:"api_failure"`
}

func newError(k Kind, hint, format string, args ...any) error {
	data, _ := json.Marshal(kindData{APIFailure: k})
	return &calls.Error{Kind: k.category(), Msg: fmt.Sprintf("api %s: ", k) + fmt.Sprintf(format, args...), Hint: hint, Data: data}
}

// KindOf returns the failure kind of an error from [Call] (also after it
// crossed the daemon's socket), or "" when it has none.
func KindOf(err error) Kind {
	if err == nil {
		return ""
	}
	var d kindData
	if raw := calls.DataOf(err); len(raw) > 0 && json.Unmarshal(raw, &d) == nil && d.APIFailure != "" {
		return d.APIFailure
	}
	switch {
	case errors.Is(err, calls.ErrBlockedURL):
		return KindBlockedURL
	case errors.Is(err, calls.ErrNavigation), errors.Is(err, calls.ErrTimeout):
		return KindNetwork
	}
	return ""
}
