package calls

// MethodFetch makes an HTTP request from the page: fetch() in waymark's
// isolated world of the current tab, so the request is the browser's own
// (its connection, cookies, TLS and HTTP/2, the page's origin), checked
// against the URL policy before it is sent. A redirect is not followed:
// it fails the call, since each hop must pass the policy. This is the
// transport of calls to a site's API (waymark api call, issue 18).
const MethodFetch = "fetch"

// FetchRequest is one request from the page.
type FetchRequest struct {
	// Method is GET when empty.
	Method string `json:"method,omitempty"`
	// URL is absolute, or relative to the page's URL.
	URL string `json:"url"`
	// Headers are set on the request; the browser adds its own (and
	// refuses to set some, as it does for a page).
	Headers map[string]string `json:"headers,omitempty"`
	// Body is the request's body; empty means none.
	Body string `json:"body,omitempty"`
	// Credentials is "include" (the default: the site's cookies go with
	// the request, as the page's own calls send them), "same-origin" or
	// "omit".
	Credentials string `json:"credentials,omitempty"`
	// TimeoutMS bounds the call; zero means 30 s.
	TimeoutMS int `json:"timeout_ms,omitempty"`
	// MaxBytes bounds the body read; zero means 10 MB.
	MaxBytes int `json:"max_bytes,omitempty"`
	// Redirect is "" (a redirect fails the call) or "manual": a redirect
	// is returned as the result, its status 3xx and its Location set, for
	// the caller to check the next hop against the policy and call it.
	Redirect string `json:"redirect,omitempty"`
	// Base64 returns the body base64-encoded, bytes as sent (a gzipped
	// sitemap, an image), instead of as UTF-8 text.
	Base64 bool `json:"base64,omitempty"`
}

// FetchResult is the site's answer. A network error is an error of the
// call (ErrNavigation), not a result.
type FetchResult struct {
	Status     int      `json:"status"`
	StatusText string   `json:"status_text,omitempty"`
	URL        string   `json:"url"`
	Headers    []Header `json:"headers"` // those the page may read (CORS)
	Body       string   `json:"body"`    // as UTF-8 text, or base64 (Base64)
	// Base64 says Body is base64-encoded (FetchRequest.Base64).
	Base64 bool `json:"base64,omitempty"`
	// Location is where a redirect goes (FetchRequest.Redirect "manual"),
	// absolute; "" otherwise.
	Location string `json:"location,omitempty"`
}

// Header is one response header.
type Header struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}
