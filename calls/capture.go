package calls

import "encoding/json"

// Calls of network capture: between capture.start and capture.stop the
// session's pages' requests (documents, XHR, fetch, WebSocket and event
// streams, in every tab and frame), their answers and the page state they
// may be built from are recorded, and come back redacted as a capture
// file (package capture, format "waymark.capture/1"). Nothing listens
// while no capture runs.

const (
	MethodCaptureStart = "capture.start" // CaptureStartRequest → CaptureStarted
	MethodCaptureStop  = "capture.stop"  // CaptureStopRequest → CaptureStopResult
)

// CaptureStartRequest starts capturing the session's network. Starting a
// session that captures already is an error. Zero limits take the
// defaults.
type CaptureStartRequest struct {
	// MaxExchanges bounds the requests kept (default 2000); those past it
	// are counted in the file's Dropped.
	MaxExchanges int `json:"max_exchanges,omitempty"`
	// MaxBodyBytes bounds one response body kept (default 1 MiB); a
	// longer one is left out ("too large").
	MaxBodyBytes int `json:"max_body_bytes,omitempty"`
	// MaxTotalBytes bounds the bodies, frames and state kept in all
	// (default 32 MiB).
	MaxTotalBytes int `json:"max_total_bytes,omitempty"`
}

// CaptureStarted says a capture began.
type CaptureStarted struct {
	Session     string `json:"session"`
	StartedUnix int64  `json:"started_unix_ms"`
}

// CaptureStopRequest ends the session's capture and returns it, redacted.
// Stopping a session that does not capture is an error.
type CaptureStopRequest struct {
	// Keep returns the capture so far and goes on capturing: the CLI asks
	// for it, writes the file, and stops only once it is written, so a
	// file that cannot be written loses nothing.
	Keep bool `json:"keep,omitempty"`
	// HAR asks for the capture as HAR 1.2 too.
	HAR bool `json:"har,omitempty"`
}

// CaptureStopResult is the capture, redacted.
type CaptureStopResult struct {
	// Capture is the capture file as JSON (package capture's File);
	// package calls cannot import package capture.
	Capture json.RawMessage `json:"capture"`
	// HAR is the same capture as HAR 1.2, when asked for.
	HAR       json.RawMessage `json:"har,omitempty"`
	Exchanges int             `json:"exchanges"`
	Messages  int             `json:"messages"`
	State     int             `json:"state"`
	Dropped   int             `json:"dropped,omitempty"`
}
