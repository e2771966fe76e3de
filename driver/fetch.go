package driver

import (
	"context"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/pagefetch"
)

// Fetch makes an HTTP request with fetch() from waymark's isolated world
// of the current tab (see calls.MethodFetch): the browser's own request,
// on the page's origin, with its cookies, over its connections. The URL
// is checked against the policy (and its addresses pinned for the
// daemon's proxy) before anything is sent.
func (s *Session) Fetch(ctx context.Context, req calls.FetchRequest) (reply *calls.FetchResult, err error) {
	defer s.masked(&reply, &err)
	method := strings.ToUpper(strings.TrimSpace(req.Method))
	if method == "" {
		method = "GET"
	}
	creds := req.Credentials
	switch creds {
	case "":
		creds = "include"
	case "include", "same-origin", "omit":
	default:
		return nil, calls.Errorf(calls.ErrBadInput, "use include, same-origin or omit", "unknown credentials %q", req.Credentials)
	}
	if req.Redirect != "" && req.Redirect != "manual" {
		return nil, calls.Errorf(calls.ErrBadInput, `leave it empty (a redirect fails the call) or pass "manual" (it is returned)`, "unknown redirect mode %q", req.Redirect)
	}
	if (method == "GET" || method == "HEAD") && req.Body != "" {
		return nil, calls.Errorf(calls.ErrBadInput, "send a body with POST, PUT or PATCH", "a %s request has no body", method)
	}
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	return s.fetchIn(ctx, t, req, method, creds)
}

// fetchIn makes the request from the tab's page, after the URL policy's
// check: the one way the daemon's own requests reach a site (a call the
// user asks for, an ATS's form definition), through the browser and the
// daemon's proxy like the page's own. The request itself is the room's
// (internal/pagefetch); the policy and the URL shown are the core's.
func (s *Session) fetchIn(ctx context.Context, t *tab, req calls.FetchRequest, method, creds string) (*calls.FetchResult, error) {
	info, err := s.pageInfo(ctx, t)
	if err != nil {
		return nil, err
	}
	u, err := pagefetch.URL(info.URL, req.URL)
	if err != nil {
		return nil, err
	}
	if err := s.allowed(ctx, u); err != nil {
		return nil, err
	}
	// A request of ours is not the last control's late send
	// (sendgate_after.go): it passes the watch, which goes on for the
	// page's own sends meanwhile. A GET is never held.
	defer t.exemptOurs(method + " " + u)()
	res, err := pagefetch.Do(ctx, t, req, u, method, creds)
	if err != nil {
		return nil, browserErr(err)
	}
	if res.Location == "" {
		res.URL = shownURL(res.URL) // the browser's; a redirect's is the URL asked for
	}
	return res, nil
}
