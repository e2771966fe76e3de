package calls

import "encoding/json"

// MethodNetLog sums up the browser's NetLog (Chromium's record of the wire
// below DevTools: DNS, connects, TLS, HTTP/2, proxies) over a span of
// time, redacted: no cookie, header value or query value. It needs a
// browser started with a NetLog (waymark --netlog FILE, or [evidence]
// netlog = "on-failure" or "always"); without one it fails as bad input.
const MethodNetLog = "netlog"

// NetLogRequest is the span to sum up, in Unix milliseconds; zero means
// no bound on that side.
type NetLogRequest struct {
	SinceUnixMS int64 `json:"since_unix_ms,omitempty"`
	UntilUnixMS int64 `json:"until_unix_ms,omitempty"`
}

// NetLogResult is the summary of a span of the NetLog.
type NetLogResult struct {
	// File is the NetLog the browser writes.
	File string `json:"file"`
	// Brief is one line on the first request that failed (its net error
	// and where it died, or its refusal status, and the TLS and protocol
	// of its connection); empty when none did.
	Brief string `json:"brief,omitempty"`
	// Markdown is the summary for a person.
	Markdown string `json:"markdown"`
	// Summary is the summary as package netlog's Summary marshals it
	// (format waymark.netlog/1).
	Summary json.RawMessage `json:"summary"`
}
