package netlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrTruncated is returned by [Reader.Next] when the log ends before it
// is closed: a browser that crashed, or one still writing it. The events
// read before it are whole.
var ErrTruncated = errors.New("the NetLog is cut short")

// Phase says whether an event begins, ends, or stands alone.
type Phase int

// The phases of an event.
const (
	PhaseNone  Phase = 0
	PhaseBegin Phase = 1
	PhaseEnd   Phase = 2
)

// Event is one NetLog event, with its type and its source's type named.
type Event struct {
	// Time is Chromium's tick time in milliseconds; [Constants.Wall]
	// turns it into wall time.
	Time  int64
	Type  string // e.g. "URL_REQUEST_START_JOB"
	Phase Phase
	// Source is what the event belongs to: a URL request, a socket …
	Source Source
	// Params is the event's parameters as Chromium wrote them; nil when
	// it has none.
	Params json.RawMessage
}

// Source identifies the object an event belongs to.
type Source struct {
	ID   int64
	Type string // e.g. "URL_REQUEST", "SOCKET"
}

// Constants are the parts of the log's constants the reader needs.
type Constants struct {
	// TimeTickOffset is added to an event's Time for Unix milliseconds.
	TimeTickOffset int64
	// CaptureMode is the mode Chromium logged with ("Default", …).
	CaptureMode string
	// Version is Chromium's version, from clientInfo.
	Version string

	eventTypes  map[int]string
	sourceTypes map[int]string
	netErrors   map[int]string
}

// Wall is the Unix time in milliseconds of an event's tick time.
func (c *Constants) Wall(t int64) int64 { return t + c.TimeTickOffset }

// NetError names a net error code the way Chromium shows it on an error
// page: -102 is "ERR_CONNECTION_REFUSED". A code the log does not name is
// "ERR_<code>".
func (c *Constants) NetError(code int) string {
	if code == 0 {
		return ""
	}
	if n, ok := c.netErrors[code]; ok {
		if !strings.HasPrefix(n, "ERR_") {
			n = "ERR_" + n
		}
		return n
	}
	return "ERR_" + strconv.Itoa(code)
}

// Reader streams the events of a NetLog.
type Reader struct {
	dec       *json.Decoder
	consts    *Constants
	inEvents  bool
	done      bool
	truncated bool
}

// NewReader returns a Reader of the NetLog r holds. It reads nothing
// until the first call to Next or Constants.
func NewReader(r io.Reader) *Reader {
	return &Reader{dec: json.NewDecoder(r)}
}

// Constants reads the log up to its events, if it has not yet, and
// returns its constants. A log cut inside its constants returns
// [ErrTruncated].
func (r *Reader) Constants() (*Constants, error) {
	if r.consts != nil {
		return r.consts, nil
	}
	if err := r.start(); err != nil {
		return nil, err
	}
	return r.consts, nil
}

// Truncated reports whether the log ended before it was closed; it is
// known once Next has returned an error.
func (r *Reader) Truncated() bool { return r.truncated }

// Next returns the next event. At the end of a whole log it returns
// io.EOF; at the end of a log cut short, [ErrTruncated]; on a log that is
// not a NetLog, another error.
func (r *Reader) Next() (Event, error) {
	if r.done {
		if r.truncated {
			return Event{}, ErrTruncated
		}
		return Event{}, io.EOF
	}
	if !r.inEvents {
		if err := r.start(); err != nil {
			return Event{}, err
		}
	}
	if !r.dec.More() {
		// The closing ']' of the events, or the end of a cut log.
		if _, err := r.dec.Token(); err != nil {
			return Event{}, r.cut(err)
		}
		// What follows the events (polledData) is read to its end, so
		// that a log cut there is known as cut too.
		if err := r.rest(); err != nil {
			return Event{}, err
		}
		r.done = true
		return Event{}, io.EOF
	}
	var raw rawEvent
	if err := r.dec.Decode(&raw); err != nil {
		return Event{}, r.cut(err)
	}
	return r.event(raw)
}

// cut ends the reading: an end of input is a truncated log, anything else
// a malformed one.
func (r *Reader) cut(err error) error {
	r.done = true
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		r.truncated = true
		return ErrTruncated
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// A cut in the middle of a token can read as a syntax error
		// only at the very end; anywhere else it is a malformed file.
		if r.atEOF() {
			r.truncated = true
			return ErrTruncated
		}
	}
	return fmt.Errorf("not a NetLog: %w", err)
}

// atEOF reports whether nothing is left to read after the decoder's
// buffer.
func (r *Reader) atEOF() bool {
	var b [1]byte
	n, _ := r.dec.Buffered().Read(b[:])
	return n == 0
}

type rawEvent struct {
	Time   json.Number     `json:"time"`
	Type   int             `json:"type"`
	Phase  int             `json:"phase"`
	Source rawSource       `json:"source"`
	Params json.RawMessage `json:"params"`
}

type rawSource struct {
	ID   int64 `json:"id"`
	Type int   `json:"type"`
}

func (r *Reader) event(raw rawEvent) (Event, error) {
	// Chromium writes times as strings of milliseconds ("10592099").
	t, err := strconv.ParseInt(string(raw.Time), 10, 64)
	if err != nil {
		return Event{}, fmt.Errorf("not a NetLog: event time %q", raw.Time)
	}
	c := r.consts
	name := c.eventTypes[raw.Type]
	if name == "" {
		name = "EVENT_" + strconv.Itoa(raw.Type)
	}
	st := c.sourceTypes[raw.Source.Type]
	if st == "" {
		st = "SOURCE_" + strconv.Itoa(raw.Source.Type)
	}
	return Event{Time: t, Type: name, Phase: Phase(raw.Phase), Source: Source{ID: raw.Source.ID, Type: st}, Params: raw.Params}, nil
}

// start reads the opening of the log: '{', the constants, and the key and
// '[' of the events. Chromium writes the constants first.
func (r *Reader) start() error {
	if r.inEvents || r.done {
		return nil
	}
	if err := r.expectDelim('{'); err != nil {
		return err
	}
	for {
		tok, err := r.dec.Token()
		if err != nil {
			return r.cut(err)
		}
		key, ok := tok.(string)
		if !ok {
			// '}' before any events: a log with none.
			r.done = true
			if r.consts == nil {
				return fmt.Errorf("not a NetLog: no constants")
			}
			return nil
		}
		switch key {
		case "constants":
			var rc rawConstants
			if err := r.dec.Decode(&rc); err != nil {
				return r.cut(err)
			}
			r.consts = rc.build()
		case "events":
			if r.consts == nil {
				return fmt.Errorf("not a NetLog: events before constants")
			}
			if err := r.expectDelim('['); err != nil {
				return err
			}
			r.inEvents = true
			return nil
		default:
			var skip json.RawMessage
			if err := r.dec.Decode(&skip); err != nil {
				return r.cut(err)
			}
		}
	}
}

// rest reads the keys after the events up to the log's closing '}'.
func (r *Reader) rest() error {
	for {
		tok, err := r.dec.Token()
		if err != nil {
			return r.cut(err)
		}
		if _, ok := tok.(string); !ok {
			return nil // the closing '}'
		}
		var skip json.RawMessage
		if err := r.dec.Decode(&skip); err != nil {
			return r.cut(err)
		}
	}
}

func (r *Reader) expectDelim(d json.Delim) error {
	tok, err := r.dec.Token()
	if err != nil {
		return r.cut(err)
	}
	if got, ok := tok.(json.Delim); !ok || got != d {
		return fmt.Errorf("not a NetLog: want %q, found %v", d, tok)
	}
	return nil
}

type rawConstants struct {
	LogEventTypes  map[string]int `json:"logEventTypes"`
	LogSourceType  map[string]int `json:"logSourceType"`
	NetError       map[string]int `json:"netError"`
	TimeTickOffset json.Number    `json:"timeTickOffset"`
	CaptureMode    string         `json:"logCaptureMode"`
	ClientInfo     struct {
		Version string `json:"version"`
	} `json:"clientInfo"`
}

func (rc rawConstants) build() *Constants {
	c := &Constants{
		CaptureMode: rc.CaptureMode,
		Version:     rc.ClientInfo.Version,
		eventTypes:  invert(rc.LogEventTypes),
		sourceTypes: invert(rc.LogSourceType),
		netErrors:   invert(rc.NetError),
	}
	c.TimeTickOffset, _ = strconv.ParseInt(string(rc.TimeTickOffset), 10, 64)
	return c
}

func invert(m map[string]int) map[int]string {
	out := make(map[int]string, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}
