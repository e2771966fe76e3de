package pagefetch

import (
	"context"
	_ "embed"
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

//go:embed js/fetch.js
var jsFetch string

const (
	defaultTimeout  = 30 * time.Second
	defaultMaxBytes = 10 << 20
)

// reply is what js/fetch.js returns.
type reply struct {
	Error      string         `json:"error"`
	Redirected bool           `json:"redirected"`
	TooBig     int64          `json:"too_big"`
	Status     int            `json:"status"`
	StatusText string         `json:"status_text"`
	URL        string         `json:"url"`
	Headers    []calls.Header `json:"headers"`
	Body       string         `json:"body"`
}

// URL resolves raw against the page's URL and checks it is http(s).
func URL(page, raw string) (string, error) {
	ref, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || raw == "" {
		return "", calls.Errorf(calls.ErrBadInput, "give an absolute URL, or a path on the page's site", "malformed URL %q", raw)
	}
	if !ref.IsAbs() {
		base, err := url.Parse(page)
		if err != nil || (base.Scheme != "http" && base.Scheme != "https") {
			return "", calls.Errorf(calls.ErrBadInput, "open a page of the site first, or give an absolute URL", "%q is relative, and the page (%s) has no site to resolve it against", raw, page)
		}
		ref = base.ResolveReference(ref)
	}
	if ref.Scheme != "http" && ref.Scheme != "https" {
		return "", calls.Errorf(calls.ErrBadInput, "give an http or https URL", "cannot fetch %s URLs", ref.Scheme)
	}
	return ref.String(), nil
}

// Do makes req to u (resolved by URL, and already allowed by the core's
// URL policy) from the tab's main frame, with method and creds checked
// by the caller. The result's URL is the one the browser reports, as it
// is: the caller shows it.
func Do(ctx context.Context, t Tab, req calls.FetchRequest, u, method, creds string) (*calls.FetchResult, error) {
	timeout := defaultTimeout
	if req.TimeoutMS > 0 {
		timeout = time.Duration(req.TimeoutMS) * time.Millisecond
	}
	maxBytes := req.MaxBytes
	if maxBytes <= 0 {
		maxBytes = defaultMaxBytes
	}
	arg, err := json.Marshal(map[string]any{
		"method": method, "url": u, "headers": req.Headers, "body": req.Body,
		"credentials": creds, "timeout_ms": timeout.Milliseconds(), "max_bytes": maxBytes,
		"base64": req.Base64,
	})
	if err != nil {
		return nil, err
	}
	// The page's own clock bounds the request (AbortController); ours
	// bounds the call, a little later, in case the page does not answer.
	cctx, cancel := context.WithTimeout(ctx, timeout+5*time.Second)
	defer cancel()
	var rw *redirectWatch
	if req.Redirect == "manual" {
		if rw, err = watchRedirect(t.Context(), u); err != nil {
			return nil, err
		}
		defer rw.cancel()
	}
	var r reply
	frame, _ := t.Doc()
	if err := t.EvalWorld(cctx, frame, "("+jsFetch+")("+string(arg)+")", &r); err != nil {
		if cctx.Err() != nil && ctx.Err() == nil {
			return nil, calls.Errorf(calls.ErrTimeout, "the page did not answer; take a snapshot to see it", "%s %s: no answer within %s", method, u, timeout)
		}
		return nil, err
	}
	switch {
	case r.Error == "timeout":
		return nil, calls.Errorf(calls.ErrTimeout, "pass a longer timeout, or check the site is up", "%s %s: no answer within %s", method, u, timeout)
	case r.Error != "":
		// fetch() tells a script no more than "Failed to fetch": a network
		// error, a CORS refusal or a blocked request look alike to it.
		return nil, calls.Errorf(calls.ErrNavigation, "a network error or a refusal by the browser (CORS, mixed content): the NetLog ("+calls.Cmd("--netlog")+") or the console says which",
			"%s %s failed in the page: %s", method, u, r.Error)
	case r.Redirected && rw != nil:
		// The events come from the browser process, the script's answer from
		// the renderer: on a loaded machine the events can trail by seconds
		// (2 s was seen to fall short at load 30), and an answer that says
		// "redirected" means they are coming.
		loc, status := rw.location(ctx, 10*time.Second)
		if loc == "" {
			return nil, calls.Errorf(calls.ErrNavigation, "open the URL in the tab to see where it goes", "%s %s answered with a redirect whose Location the browser did not report", method, u)
		}
		return &calls.FetchResult{Status: status, URL: u, Headers: []calls.Header{{Name: "location", Value: loc}}, Body: "", Location: loc}, nil
	case r.Redirected:
		return nil, calls.Errorf(calls.ErrNavigation, "call the URL it redirects to, which the policy then checks",
			"%s %s answered with a redirect, which an in-tab call does not follow", method, u)
	case r.TooBig > 0:
		return nil, calls.Errorf(calls.ErrBadInput, "pass a larger max_bytes", "%s %s: the body is %d bytes, over the %d allowed", method, u, r.TooBig, maxBytes)
	}
	if r.Headers == nil {
		r.Headers = []calls.Header{}
	}
	return &calls.FetchResult{Status: r.Status, StatusText: r.StatusText, URL: r.URL, Headers: r.Headers, Body: r.Body, Base64: req.Base64}, nil
}
