package siteapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/schemacheck"
	"github.com/waymark-dev/waymark/secret"
)

// Bounds of a call.
const (
	defaultTimeout       = 2 * time.Minute
	defaultMaxPages      = 100
	defaultMaxRetryAfter = 30 * time.Second
	defaultMaxBytes      = 10 << 20
	maxHops              = 10
	maxRetries           = 3
)

// CallOptions tune [Call]. The zero value is valid.
type CallOptions struct {
	// Vars are the values of the recipe's variables.
	Vars map[string]string
	// Pages is how many pages to read; zero means every page, up to 100.
	Pages int
	// Fresh ignores the recipe's validators: the list is read whether or
	// not it changed.
	Fresh bool
	// Timeout bounds the whole call; zero means 2 minutes.
	Timeout time.Duration
	// MaxRetryAfter bounds how long a 429 is waited out; a longer
	// Retry-After fails the call as rate. Zero means 30 s.
	MaxRetryAfter time.Duration
	// MaxBytes bounds each answer; zero means 10 MB.
	MaxBytes int
	// Backoff holds the hosts told to wait, across calls; nil means one
	// for this call.
	Backoff *Backoff
	// Approved is the Sends of a request a person approved (the
	// calls.Approval a needs_approval error carried): that request, and
	// only it, goes once though it is not a read (gate.go).
	Approved string
}

// Backoff is when each host may be called again after a 429. It is safe
// for concurrent use; the zero value is ready.
type Backoff struct {
	mu    sync.Mutex
	until map[string]time.Time
}

func (b *Backoff) wait(host string) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	return time.Until(b.until[host])
}

func (b *Backoff) set(host string, t time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.until == nil {
		b.until = map[string]time.Time{}
	}
	if t.After(b.until[host]) {
		b.until[host] = t
	}
}

// caller is one call's state.
type caller struct {
	s       Session
	r       *Recipe
	opts    CallOptions
	state   *pageState
	answers map[string]any
	res     *calls.APICallResult
	check   *schemacheck.Checker
	// known are the values read from the page (tokens, CSRF values), so
	// no error repeats one (a query built from local storage).
	known secret.Set
	// approvedUsed: the approved request went.
	approvedUsed bool
}

// Call makes the recipe's request from a tab on its site (opening the
// recipe's page when the current tab is elsewhere), reading each source
// fresh, and returns the rows of every page. See the package doc for
// what is checked; a failure carries its [Kind]. It returns the wire's
// result, which the daemon hands on as it is; the first page's validators
// are its ETag and LastModified.
func Call(ctx context.Context, s Session, r *Recipe, opts CallOptions) (*calls.APICallResult, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if opts.Timeout <= 0 {
		opts.Timeout = defaultTimeout
	}
	if opts.MaxRetryAfter <= 0 {
		opts.MaxRetryAfter = defaultMaxRetryAfter
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = defaultMaxBytes
	}
	if opts.Backoff == nil {
		opts.Backoff = new(Backoff)
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	c := &caller{s: s, r: r, opts: opts, answers: map[string]any{}, res: &calls.APICallResult{Rows: []map[string]any{}}}
	if len(r.Schema) > 0 {
		chk, err := schemacheck.Compile(r.Schema)
		if err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "fix the recipe's schema, or remove it", "the recipe's schema: %v", err)
		}
		c.check = chk
	}
	if err := c.onSite(ctx); err != nil {
		return nil, c.masked(c.deadline(ctx, err))
	}
	if err := c.pages(ctx); err != nil {
		return nil, c.masked(c.deadline(ctx, err))
	}
	return c.res, nil
}

// masked writes the values read from the page out of an error.
func (c *caller) masked(err error) error {
	var e *calls.Error
	if errors.As(err, &e) {
		m := c.known.Redact(e.Msg)
		if m != e.Msg {
			cp := *e
			cp.Msg = m
			return &cp
		}
		return err
	}
	if m := c.known.Redact(err.Error()); m != err.Error() {
		return errors.New(m)
	}
	return err
}

// deadline turns the call's own deadline into a network failure with
// what was done.
func (c *caller) deadline(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && KindOf(err) == "" {
		return newError(KindNetwork, "call with a longer timeout, or fewer pages", "no answer within %s (%d request(s) made)", c.opts.Timeout, c.res.Requests)
	}
	return err
}

// onSite makes sure the tab is on the recipe's site, and reads the
// page's state the sources need.
func (c *caller) onSite(ctx context.Context) error {
	all := append(append(append([]Param{}, c.r.Request.Query...), c.r.Request.Headers...), c.r.Request.Body...)
	st, err := readState(ctx, c.s, all)
	if err != nil {
		return err
	}
	if o, err := originOf(st.URL); err != nil || o != c.r.Site {
		if err := c.toSite(ctx); err != nil {
			return err
		}
		if st, err = readState(ctx, c.s, all); err != nil {
			return err
		}
	}
	c.state = st
	return nil
}

// tabber is a session with tabs (calls.Session).
type tabber interface {
	Tab(ctx context.Context, req calls.TabRequest) (*calls.TabList, error)
}

// toSite makes a tab on the recipe's site current: one already open, else
// a new tab on the recipe's page (the person's page stays as it was), or,
// in a session without tabs, the page opened in the current one.
func (c *caller) toSite(ctx context.Context) error {
	tb, ok := c.s.(tabber)
	if !ok {
		_, err := c.s.Open(ctx, calls.OpenRequest{URL: c.r.Page})
		return err
	}
	list, err := tb.Tab(ctx, calls.TabRequest{Op: "list"})
	if err != nil {
		return err
	}
	for _, t := range list.Tabs {
		if o, err := originOf(t.URL); err == nil && o == c.r.Site {
			_, err := tb.Tab(ctx, calls.TabRequest{Op: "switch", Index: t.Index})
			return err
		}
	}
	_, err = tb.Tab(ctx, calls.TabRequest{Op: "new", URL: c.r.Page})
	return err
}

// pages reads the list page by page.
func (c *caller) pages(ctx context.Context) error {
	pg := c.r.Pagination
	limit := c.opts.Pages
	if limit <= 0 {
		limit = defaultMaxPages
	}
	next := ""   // cursor or next link
	firstN := -1 // items on the first page
	for page := 0; ; page++ {
		if page == limit {
			c.res.Ended = "pages"
			if c.opts.Pages <= 0 {
				c.res.Ended = "limit"
			}
			return nil
		}
		req, err := c.build(ctx, page, next)
		if err != nil {
			return err
		}
		if page == 0 && !c.opts.Fresh && c.r.Validators != nil {
			if v := c.r.Validators.ETag; v != "" {
				req.Headers["If-None-Match"] = v
			}
			if v := c.r.Validators.LastModified; v != "" {
				req.Headers["If-Modified-Since"] = v
			}
		}
		res, err := c.send(ctx, req, c.secretHeaders())
		if err != nil {
			return err
		}
		if page == 0 && res.Status == 304 {
			c.res.Unchanged, c.res.Ended = true, "unchanged"
			if v := c.r.Validators; v != nil {
				c.res.ETag, c.res.LastModified = v.ETag, v.LastModified
			}
			return nil
		}
		if page > 0 && (res.Status == 404 || res.Status == 410) && c.r.Pagination != nil && c.r.Pagination.Kind == PagePath {
			// A page past the last one is a path that is not there.
			c.res.Ended = "last page"
			return nil
		}
		if err := c.status(req, res); err != nil {
			return err
		}
		var doc any
		if err := json.Unmarshal([]byte(res.Body), &doc); err != nil {
			return newError(KindChanged, "the call no longer answers with data: learn the recipe again", "%s answered %s, not JSON", req.URL, contentType(res))
		}
		if page == 0 {
			c.res.ETag, c.res.LastModified = header(res, "etag"), header(res, "last-modified")
		}
		c.res.Pages++
		n, err := c.rows(doc, req.URL)
		if err != nil {
			return err
		}
		if firstN < 0 {
			firstN = n
		}
		switch {
		case pg == nil:
			c.res.Ended = "last page"
			return nil
		case pg.Kind == PageCursor || pg.Kind == PageNext:
			v, _ := at(doc, pg.Next)
			nv := text(v)
			if nv == "" || nv == next || n == 0 || saysLast(doc, pg.Next) {
				c.res.Ended = "last page"
				return nil
			}
			next = nv
		default:
			if n == 0 || n < firstN {
				c.res.Ended = "last page"
				return nil
			}
		}
	}
}

// rows reads the items of one answer into rows, checked by the schema.
func (c *caller) rows(doc any, u string) (int, error) {
	v, ok := at(doc, c.r.Rows)
	items, isList := v.([]any)
	if !ok || !isList {
		return 0, newError(KindChanged, "the answer's shape changed: learn the recipe again", "%s: no list at %q in the answer", u, c.r.Rows)
	}
	for _, it := range items {
		row := map[string]any{}
		for _, f := range c.r.Fields {
			fv, _ := at(it, f.Path)
			if n, ok := fv.(float64); ok && f.Divide > 0 {
				fv = n / f.Divide
			}
			row[f.Name] = fv
		}
		if c.check != nil {
			if probs := c.check.Problems(row); len(probs) > 0 {
				return 0, newError(KindChanged, "the answer's fields changed: learn the recipe again",
					"%s: row %d does not fit the schema: %s at %q", u, len(c.res.Rows)+1, probs[0].Msg, fieldAt(c.r, probs[0].Pointer()))
			}
		}
		c.res.Rows = append(c.res.Rows, row)
	}
	return len(items), nil
}

// fieldAt names the recipe's path of a row field a schema problem is at.
func fieldAt(r *Recipe, ptr string) string {
	name := strings.TrimPrefix(ptr, "/")
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Name + " (" + f.Path + ")"
		}
	}
	return ptr
}

// status turns an answer's status into a failure kind.
func (c *caller) status(req calls.FetchRequest, res *calls.FetchResult) error {
	switch s := res.Status; {
	case s >= 200 && s < 300:
		return nil
	case s == 401 || s == 403:
		return newError(KindAuth, "sign in on "+c.r.Site+" in this session (waymark open "+c.r.Page+"), then call again",
			"%s answered %d %s", req.URL, s, res.StatusText)
	case s >= 500:
		return newError(KindNetwork, "the site failed: try again later", "%s answered %d %s", req.URL, s, res.StatusText)
	default:
		return newError(KindChanged, "the call is no longer what the site answers: learn the recipe again", "%s answered %d %s", req.URL, s, res.StatusText)
	}
}

// build writes the request of one page.
func (c *caller) build(ctx context.Context, page int, next string) (calls.FetchRequest, error) {
	r := c.r.Request
	req := calls.FetchRequest{Method: r.Method, Headers: map[string]string{}, MaxBytes: c.opts.MaxBytes}
	pg := c.r.Pagination
	if pg != nil && pg.Kind == PageNext && next != "" {
		u, err := url.Parse(r.URL)
		if err == nil {
			u, err = u.Parse(next)
		}
		if err != nil {
			return req, newError(KindChanged, "learn the recipe again", "the next page's link %q: %v", next, err)
		}
		if o, _ := originOf(u.String()); o != c.r.Site {
			return req, newError(KindBlockedURL, "a recipe calls only its own site", "the next page's link goes to %s, off %s", u, c.r.Site)
		}
		req.URL = u.String()
	} else {
		q := url.Values{}
		for _, p := range r.Query {
			v, err := c.value(ctx, p)
			if err != nil {
				return req, err
			}
			q.Add(p.Name, v)
		}
		if pg != nil && pg.In == "" {
			switch pg.Kind {
			case PageNumber, PageOffset:
				step := max(pg.Step, 1)
				q.Set(pg.Param, strconv.Itoa(pg.Start+page*step))
			case PageCursor:
				if next != "" {
					q.Set(pg.Param, next)
				}
			}
		}
		u := r.URL
		if pg != nil && pg.Kind == PagePath && page > 0 {
			pu, err := url.Parse(r.URL)
			if err != nil {
				return req, newError(KindChanged, "learn the recipe again", "the recipe's URL %q: %v", r.URL, err)
			}
			pu.Path, pu.RawPath, pu.RawQuery = strings.Replace(pg.Param, "{n}", strconv.Itoa(pg.Start+page*max(pg.Step, 1)), 1), "", ""
			u = pu.String()
		}
		if enc := q.Encode(); enc != "" {
			u += "?" + enc
		}
		req.URL = u
	}
	for _, p := range r.Headers {
		v, err := c.value(ctx, p)
		if err != nil {
			return req, err
		}
		req.Headers[p.Name] = v
	}
	inBody := pg != nil && pg.In == PageInBody
	if len(r.Body) > 0 || inBody {
		body := map[string]any{}
		for _, p := range r.Body {
			v, err := c.value(ctx, p)
			if err != nil {
				return req, err
			}
			var x any = v
			if p.From == FromConst {
				if n, err := strconv.ParseFloat(v, 64); err == nil && text(n) == v {
					x = n
				}
			}
			set(body, splitPointer(p.Name), x)
		}
		if inBody { // the page in the body: a GraphQL query's variables
			switch pg.Kind {
			case PageNumber, PageOffset:
				set(body, splitPointer(pg.Param), pg.Start+page*max(pg.Step, 1))
			case PageCursor: // none on the first page, whatever the capture's template held
				var v any
				if next != "" {
					v = next
				}
				set(body, splitPointer(pg.Param), v)
			}
		}
		b, _ := json.Marshal(body)
		req.Body = string(b)
		if _, ok := req.Headers["content-type"]; !ok {
			req.Headers["content-type"] = "application/json"
		}
	}
	return req, nil
}

// set puts v at the path in an object, making the objects on the way.
func set(m map[string]any, path []string, v any) {
	for i, k := range path {
		if i == len(path)-1 {
			m[k] = v
			return
		}
		sub, ok := m[k].(map[string]any)
		if !ok {
			sub = map[string]any{}
			m[k] = sub
		}
		m = sub
	}
}

// secretHeaders are the headers a hop to another origin does not carry:
// every value read from the page (a token, a CSRF value) and any whose
// name says it is a credential.
func (c *caller) secretHeaders() map[string]bool {
	out := map[string]bool{"if-none-match": false}
	for _, p := range c.r.Request.Headers {
		if p.From != FromConst || secret.Name(p.Name) {
			out[strings.ToLower(p.Name)] = true
		}
	}
	return out
}

// send makes one request and follows its redirects hop by hop: each hop
// is checked by the session's URL policy before it is sent (Fetch), a hop
// to another origin goes without the secret headers and cookies, and a
// 429 backs the host off for its Retry-After, then the request is made
// again.
func (c *caller) send(ctx context.Context, req calls.FetchRequest, secretHeaders map[string]bool) (*calls.FetchResult, error) {
	req.Redirect = "manual"
	if req.MaxBytes == 0 {
		req.MaxBytes = c.opts.MaxBytes
	}
	for hop, retries := 0, 0; ; {
		if err := c.waitHost(ctx, req.URL); err != nil {
			return nil, err
		}
		if dl, ok := ctx.Deadline(); ok {
			req.TimeoutMS = int(max(time.Until(dl).Milliseconds(), 1))
		}
		// Every hop: the first, each redirect, a retry after a 429
		// (approved once is sent once).
		if err := c.gate(req); err != nil {
			return nil, err
		}
		c.res.Requests++
		res, err := c.s.Fetch(ctx, req)
		if err != nil {
			return nil, fetchErr(err)
		}
		c.res.Bytes += len(res.Body)
		switch {
		case res.Status == 429:
			retries++
			if err := c.backOff(req.URL, res, retries); err != nil {
				return nil, err
			}
			continue
		case res.Location != "" && res.Status >= 300 && res.Status < 400:
			hop++
			if hop > maxHops {
				return nil, newError(KindNetwork, "the site redirects in a loop", "%s: more than %d redirects", req.URL, maxHops)
			}
			next, err := url.Parse(req.URL)
			if err == nil {
				next, err = next.Parse(res.Location)
			}
			if err != nil {
				return nil, newError(KindNetwork, "", "%s redirected to a bad URL %q", req.URL, res.Location)
			}
			if o, _ := originOf(next.String()); o != c.r.Site {
				// Another origin: nothing of the page's credentials goes.
				h := map[string]string{}
				for k, v := range req.Headers {
					if !secretHeaders[strings.ToLower(k)] && !secret.Name(k) {
						h[k] = v
					}
				}
				req.Headers, req.Credentials = h, "same-origin"
			}
			if res.Status == 303 || (res.Status <= 302 && req.Method == "POST") {
				req.Method, req.Body = "GET", ""
				delete(req.Headers, "content-type")
			}
			req.URL = next.String()
			continue
		}
		return res, nil
	}
}

// fetchErr gives a transport failure its kind.
func fetchErr(err error) error {
	hint := func(def string) string {
		if h := calls.Hint(err); h != "" {
			return h
		}
		return def
	}
	switch {
	case errors.Is(err, calls.ErrBlockedURL):
		return newError(KindBlockedURL, hint("change the allow and block lists of [policy] in waymark.toml"), "%v", err)
	case errors.Is(err, calls.ErrNavigation), errors.Is(err, calls.ErrTimeout):
		return newError(KindNetwork, hint("check the site is up, and the network"), "%v", err)
	case errors.Is(err, calls.ErrBadInput) && strings.Contains(err.Error(), "bytes, over"):
		return newError(KindChanged, "the answer is larger than a list should be: learn the recipe again, or raise the bound", "%v", err)
	}
	return err
}

// backOff records a 429's Retry-After for the host (bounded), or fails
// as rate when it is too long or the host keeps refusing.
func (c *caller) backOff(u string, res *calls.FetchResult, retries int) error {
	host := hostOf(u)
	wait := time.Second
	if ra := header(res, "retry-after"); ra != "" {
		if n, err := strconv.Atoi(strings.TrimSpace(ra)); err == nil {
			wait = time.Duration(n) * time.Second
		} else if t, err := time.Parse(time.RFC1123, ra); err == nil {
			wait = time.Until(t)
		}
	}
	if wait > c.opts.MaxRetryAfter {
		return newError(KindRate, "call again later", "%s asks to wait %s, over the %s allowed", host, wait.Round(time.Second), c.opts.MaxRetryAfter)
	}
	if retries > maxRetries {
		return newError(KindRate, "call again later, or read fewer pages", "%s kept answering 429 after %d waits", host, maxRetries)
	}
	c.opts.Backoff.set(host, time.Now().Add(wait))
	return nil
}

// waitHost waits while the host is backed off.
func (c *caller) waitHost(ctx context.Context, u string) error {
	d := c.opts.Backoff.wait(hostOf(u))
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	start := time.Now()
	select {
	case <-t.C:
		c.res.WaitedMS += time.Since(start).Milliseconds()
		return nil
	case <-ctx.Done():
		return newError(KindRate, "call again later", "%s is backed off past the call's deadline", hostOf(u))
	}
}

func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Host
}

func header(res *calls.FetchResult, name string) string {
	for _, h := range res.Headers {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

func contentType(res *calls.FetchResult) string {
	if ct := header(res, "content-type"); ct != "" {
		return ct
	}
	return fmt.Sprintf("%d bytes of no stated type", len(res.Body))
}

// saysLast reports whether the answer says, beside its cursor, that there
// is no next page: a GraphQL pageInfo's hasNextPage false (a cursor is
// given on the last page too), has_more false, or the like.
func saysLast(doc any, next string) bool {
	parent := next[:max(strings.LastIndexByte(next, '/'), 0)]
	v, ok := at(doc, parent)
	if !ok {
		return false
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k, x := range m {
		b, ok := x.(bool)
		if !ok || b {
			continue
		}
		switch strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(k)) {
		case "hasnextpage", "hasnext", "hasmore", "more", "morepages":
			return true
		}
	}
	return false
}
