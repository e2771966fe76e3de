package rpc

import (
	"encoding/json"
	"errors"
)

// Version is the protocol version every hello and request carries.
const Version = "waymark.rpc/1"

// MaxLineSize is the longest line either side reads or writes. It is large
// because screenshots and PDFs travel base64-encoded inside results.
const MaxLineSize = 128 << 20

// Hello is the first line each side sends:
//
//	{"v":"waymark.rpc/1","hello":{"binary":"v0.3.1","pid":4242}}
type Hello struct {
	Binary string `json:"binary"` // the waymark binary's version
	PID    int    `json:"pid"`
	// Settings are the daemon's settings read when it started (config
	// keys such as "policy.private_network" to their values), so that a
	// command can tell when the running daemon does not obey the ones it
	// asked for. Clients send none.
	Settings map[string]string `json:"settings,omitempty"`
}

// Message is one line on the wire. Which fields are set says what it is (see
// [Message.Kind]):
//
//	hello    {"v":"waymark.rpc/1","hello":{...}}
//	request  {"v":"waymark.rpc/1","id":7,"session":"default","method":"click","params":{...}}
//	cancel   {"id":7,"cancel":true}            client → daemon: stop request 7
//	result   {"id":7,"result":{...}}
//	error    {"id":7,"error":{"code":"stale_ref","message":"…","hint":"…"}}
//	event    {"id":7,"event":{...}}            daemon → client, before request 7's reply
type Message struct {
	V       string          `json:"v,omitempty"`
	Hello   *Hello          `json:"hello,omitempty"`
	ID      uint64          `json:"id,omitempty"`
	Session string          `json:"session,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Cancel  bool            `json:"cancel,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
	Event   json.RawMessage `json:"event,omitempty"`
}

// Kind names what a [Message] is.
type Kind int

// The kinds of message.
const (
	KindInvalid Kind = iota
	KindHello
	KindRequest
	KindCancel
	KindResult
	KindError
	KindEvent
)

var kindNames = [...]string{"invalid", "hello", "request", "cancel", "result", "error", "event"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "invalid"
	}
	return kindNames[k]
}

// ErrInvalid says a well-formed JSON line is not a message of any kind.
var ErrInvalid = errors.New("rpc: invalid message")

// Kind says what m is, or returns [KindInvalid] and an error wrapping
// [ErrInvalid] when its fields do not make exactly one kind of message.
func (m *Message) Kind() (Kind, error) {
	k, n := KindInvalid, 0
	set := func(ok bool, kind Kind) {
		if ok {
			k, n = kind, n+1
		}
	}
	set(m.Hello != nil, KindHello)
	set(m.Method != "", KindRequest)
	set(m.Cancel, KindCancel)
	set(m.Result != nil, KindResult)
	set(m.Error != nil, KindError)
	set(m.Event != nil, KindEvent)
	switch {
	case n == 0:
		return KindInvalid, errors.Join(ErrInvalid, errors.New("no hello, method, result, error or event"))
	case n > 1:
		return KindInvalid, errors.Join(ErrInvalid, errors.New("fields of several kinds of message"))
	case (k == KindHello || k == KindRequest) && m.V != Version:
		return KindInvalid, &VersionError{Got: m.V}
	case k != KindHello && m.ID == 0:
		return KindInvalid, errors.Join(ErrInvalid, errors.New("no id"))
	}
	return k, nil
}

// VersionError says a hello or request carried another protocol version.
type VersionError struct{ Got string }

func (e *VersionError) Error() string {
	return "rpc: protocol " + quoteOrNone(e.Got) + ", want " + Version
}

// Unwrap makes a VersionError an [ErrInvalid].
func (e *VersionError) Unwrap() error { return ErrInvalid }

func quoteOrNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return `"` + s + `"`
}

// Error is the error of a reply. Code is a category code of package calls
// (calls.Code), or "internal".
type Error struct {
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Hint    string          `json:"hint,omitempty"` // what to do next
	Data    json.RawMessage `json:"data,omitempty"` // details a program acts on (an approval)
}

func (e *Error) Error() string { return e.Message }
