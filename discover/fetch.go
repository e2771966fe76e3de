package discover

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/policy"
)

// Fetcher makes one request from the browser: calls.Session (the driver's
// in-tab fetch, or the daemon's client) satisfies it.
type Fetcher interface {
	Fetch(ctx context.Context, req calls.FetchRequest) (*calls.FetchResult, error)
}

const (
	// maxHops bounds the redirects followed for one document.
	maxHops = 5
	// defaultMaxBytes bounds one document as sent, and again after
	// gunzip (a gzip bomb stops there).
	defaultMaxBytes = 10 << 20
)

// client makes the GET requests of one discovery: same origin only,
// never an acting path, each redirect hop checked, every request counted.
type client struct {
	f        Fetcher
	origin   *url.URL // scheme://host[:port]
	pol      *policy.Policy
	maxBytes int

	mu       sync.Mutex
	requests int
	skipped  []Skip
}

// Skip is a URL discovery did not request or list, and why.
type Skip struct {
	URL string `json:"url"`
	Why string `json:"why"`
}

// errSkipped means a URL was refused before it was requested; the reason
// is in client.skipped.
var errSkipped = errors.New("skipped")

// newClient checks origin: an http(s) URL whose path is ignored.
func newClient(f Fetcher, origin string, pol *policy.Policy, maxBytes int) (*client, error) {
	u, err := parseOrigin(origin)
	if err != nil {
		return nil, err
	}
	if maxBytes <= 0 {
		maxBytes = defaultMaxBytes
	}
	return &client{f: f, origin: u, pol: pol, maxBytes: maxBytes}, nil
}

// parseOrigin reads "https://shop.example", "shop.example" or any URL of
// the site, and keeps its scheme, host and port.
func parseOrigin(raw string) (*url.URL, error) {
	s := strings.TrimSpace(raw)
	if s != "" && !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, calls.Errorf(calls.ErrBadInput, "give the site's origin, e.g. https://shop.example", "%q is not an http(s) origin", raw)
	}
	return &url.URL{Scheme: u.Scheme, Host: strings.ToLower(u.Host)}, nil
}

// skip records a refusal.
func (c *client) skip(u, why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.skipped {
		if s.URL == u {
			return
		}
	}
	if len(c.skipped) < maxSkips {
		c.skipped = append(c.skipped, Skip{URL: u, Why: why})
	}
}

// maxSkips bounds the refusals reported (a hostile sitemap can name
// millions of foreign URLs).
const maxSkips = 50

// resolve makes raw absolute against base and says why it may not be
// requested or listed ("" when it may): another origin, a URL the policy
// blocks, a path whose words act.
func (c *client) resolve(base *url.URL, raw string) (*url.URL, string) {
	raw = strings.TrimSpace(raw)
	ref, err := url.Parse(raw)
	if err != nil || raw == "" {
		return nil, "malformed URL"
	}
	u := base.ResolveReference(ref)
	u.Fragment, u.RawFragment = "", ""
	if u.Scheme != "http" && u.Scheme != "https" {
		return u, "not http(s)"
	}
	if u.Scheme != c.origin.Scheme || !strings.EqualFold(u.Host, c.origin.Host) {
		return u, "another origin than " + c.origin.String()
	}
	if c.pol != nil {
		if err := c.pol.CheckURL(u); err != nil {
			return u, "refused by the URL policy: " + err.Error()
		}
	}
	if w := Acts(u); w != "" {
		return u, fmt.Sprintf("its path acts (%q)", w)
	}
	return u, ""
}

// doc is one fetched document.
type doc struct {
	URL         *url.URL // where it was read, after redirects
	Status      int
	ContentType string
	Body        []byte
}

// get fetches u with GET, following same-origin redirects hop by hop.
// A gzip body (by its magic bytes) is unpacked, bounded by maxBytes.
func (c *client) get(ctx context.Context, u *url.URL) (*doc, error) {
	for hop := 0; ; hop++ {
		c.mu.Lock()
		c.requests++
		c.mu.Unlock()
		res, err := c.f.Fetch(ctx, calls.FetchRequest{URL: u.String(), Credentials: "include", MaxBytes: c.maxBytes, Redirect: "manual", Base64: true})
		if err != nil {
			switch {
			case ctx.Err() != nil || isBrowserFailure(err):
				return nil, err
			case errors.Is(err, calls.ErrBlockedURL):
				c.skip(u.String(), "refused by the URL policy")
			default:
				// Too big, a network error, no answer: this document
				// is missing; the rest of the site may answer.
				c.skip(u.String(), err.Error())
			}
			return nil, errSkipped
		}
		if res.Status >= 300 && res.Status < 400 && res.Location != "" {
			if hop+1 >= maxHops {
				c.skip(u.String(), fmt.Sprintf("more than %d redirects", maxHops))
				return nil, errSkipped
			}
			next, why := c.resolve(u, res.Location)
			if why != "" {
				s := res.Location
				if next != nil {
					s = next.String()
				}
				c.skip(s, "a redirect from "+u.String()+": "+why)
				return nil, errSkipped
			}
			u = next
			continue
		}
		body := []byte(res.Body)
		if res.Base64 {
			if body, err = base64.StdEncoding.DecodeString(res.Body); err != nil {
				return nil, fmt.Errorf("discover: %s: undecodable body: %w", u, err)
			}
		}
		if len(body) > 2 && body[0] == 0x1f && body[1] == 0x8b {
			if body, err = gunzip(body, c.maxBytes); err != nil {
				c.skip(u.String(), err.Error())
				return nil, errSkipped
			}
		}
		d := &doc{URL: u, Status: res.Status, Body: body}
		for _, h := range res.Headers {
			if strings.EqualFold(h.Name, "content-type") {
				d.ContentType = strings.ToLower(h.Value)
			}
		}
		return d, nil
	}
}

// gunzip unpacks b, refusing more than max bytes of output.
func gunzip(b []byte, max int) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("a broken gzip body: %v", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("a broken gzip body: %v", err)
	}
	if len(out) > max {
		return nil, fmt.Errorf("unpacks to more than %d bytes (a gzip bomb?)", max)
	}
	return out, nil
}

// isBrowserFailure says whether err means no further request can
// succeed: the browser or its page is gone.
func isBrowserFailure(err error) bool {
	for _, e := range []error{calls.ErrBrowserGone, calls.ErrUnavailable, calls.ErrPageCrashed, calls.ErrPageUnresponsive} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// ok says whether d is a successful answer.
func (d *doc) ok() bool { return d != nil && d.Status >= 200 && d.Status < 300 }
