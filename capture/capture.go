package capture

import "time"

// Format names the version of a capture file.
const Format = "waymark.capture/1"

// File is one capture: what the session's pages sent and got back between
// `capture start` and `capture stop`, redacted.
type File struct {
	Format  string    `json:"format"`
	Session string    `json:"session,omitempty"`
	Started time.Time `json:"started"`
	Stopped time.Time `json:"stopped"`
	// Exchanges are the requests in the order they were sent.
	Exchanges []Exchange `json:"exchanges"`
	// Messages are WebSocket and event-stream frames, in order.
	Messages []Message `json:"messages,omitempty"`
	// State is what the pages held that a request may have been built
	// from: meta tags, local and session storage, cookies (names, and
	// values as markers), embedded state such as __NEXT_DATA__. Read when
	// a document finished loading and at stop.
	State []StateValue `json:"state,omitempty"`
	// Cached are the answers the application keeps for itself, read at
	// stop through DevTools' own domains (no script in the page): each
	// Cache Storage entry of the pages' origins (Kind "cache-storage",
	// ID "cache-storage:CACHE", the request's method and URL, its
	// status, headers and body) and each IndexedDB object store (Kind
	// "indexeddb", ID "indexeddb:DB/STORE", URL
	// indexeddb://HOST/DB/STORE, the body a JSON array of its records).
	// They were not sent while the capture ran; a page may show a list
	// from them with no request at all.
	Cached []Exchange `json:"cached,omitempty"`
	// Dropped counts what was not kept (bodies over the size limit,
	// exchanges over the count limit), so a reader knows the file is short.
	Dropped int `json:"dropped,omitempty"`
}

// Kinds of a cached answer (File.Cached).
const (
	KindCacheStorage = "cache-storage"
	KindIndexedDB    = "indexeddb"
)

// Exchange is one request and its answer.
type Exchange struct {
	ID string `json:"id"`
	// Kind is the resource type as the browser names it, lower case:
	// document, xhr, fetch, eventsource, websocket, other.
	Kind   string `json:"kind"`
	Method string `json:"method"`
	URL    string `json:"url"`
	// Page is the URL of the document that sent it; Frame the URL of
	// its frame when that is not the top document.
	Page  string `json:"page,omitempty"`
	Frame string `json:"frame,omitempty"`
	// Initiator is the script that sent it ("URL:line:column" of the
	// first frame on the initiator stack), or "parser", or "other".
	Initiator      string   `json:"initiator,omitempty"`
	RequestHeaders []Header `json:"request_headers,omitempty"`
	RequestBody    string   `json:"request_body,omitempty"`
	Status         int      `json:"status,omitempty"`
	StatusText     string   `json:"status_text,omitempty"`
	// RedirectedTo is set on a hop that was redirected: the next hop's
	// URL (the next Exchange has the same ID with a suffix).
	RedirectedTo    string   `json:"redirected_to,omitempty"`
	ResponseHeaders []Header `json:"response_headers,omitempty"`
	MimeType        string   `json:"mime_type,omitempty"`
	// ResponseBody is kept for JSON and text only, redacted.
	ResponseBody string `json:"response_body,omitempty"`
	// BodyOmitted says why a body is missing ("binary", "too large",
	// "not available").
	BodyOmitted string    `json:"body_omitted,omitempty"`
	Failed      string    `json:"failed,omitempty"` // the net error, if any
	Sent        time.Time `json:"sent"`
	DurationMS  float64   `json:"duration_ms,omitempty"`
}

// Header is one header as sent or received; a secret value is a marker.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Message is one WebSocket or event-stream frame.
type Message struct {
	// Exchange is the ID of the request that opened the stream.
	Exchange string `json:"exchange"`
	// Direction is "sent" or "received".
	Direction string `json:"direction"`
	// Event is an event-stream message's event name, when it has one.
	Event string    `json:"event,omitempty"`
	Data  string    `json:"data"`
	Time  time.Time `json:"time"`
}

// StateValue is one value a page held, named by where it was read:
// "meta:csrf-token", "localStorage:token", "sessionStorage:k",
// "cookie:sid", "script:__NEXT_DATA__", "global:__INITIAL_STATE__".
// Value is as read, or a marker when it is a secret.
type StateValue struct {
	Source string `json:"source"`
	Page   string `json:"page,omitempty"`
	Value  string `json:"value"`
}
