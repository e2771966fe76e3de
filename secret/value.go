package secret

import (
	"fmt"
	"log/slog"
)

// redacted is what a [Value] shows instead of its bytes.
const redacted = "[redacted]"

// Value is a secret string. Every way of printing, logging or marshalling
// it gives "[redacted]"; [Value.Reveal] is the only way to its bytes.
// The zero Value holds the empty string.
type Value struct {
	name string
	// The bytes sit in a closure: fmt, reaching a Value through an
	// unexported field of another struct (where it cannot call our
	// methods), or with a verb it thinks bad for the field, prints a func
	// as an address. A pointer to a struct would be printed as &{…}.
	reveal func() string
}

// New returns a secret value with a name for messages and redaction marks.
func New(name, value string) Value {
	return Value{name: name, reveal: func() string { return value }}
}

// Name returns the name the value was given.
func (v Value) Name() string { return v.name }

// Reveal returns the secret bytes. Call it only where the value is used
// (typed into a page, sent as a header), never to log or show it.
func (v Value) Reveal() string {
	if v.reveal == nil {
		return ""
	}
	return v.reveal()
}

// String returns "[redacted]".
func (v Value) String() string { return redacted }

// GoString returns "[redacted]", for %#v.
func (v Value) GoString() string { return redacted }

// Format writes "[redacted]" for every verb, so that %x or %q cannot reach
// the bytes either.
func (v Value) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", redacted)
		return
	}
	fmt.Fprint(f, redacted)
}

// MarshalJSON returns "[redacted]" as a JSON string.
func (v Value) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// MarshalText returns "[redacted]".
func (v Value) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// LogValue returns "[redacted]", for log/slog.
func (v Value) LogValue() slog.Value { return slog.StringValue(redacted) }
