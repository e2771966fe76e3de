package driver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/waymark-dev/waymark/calls"
)

const defaultNavTimeout = 30 * time.Second

// NormalizeURL adds https:// to a URL with no scheme and checks the result.
func NormalizeURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", calls.Errorf(calls.ErrBadInput, "usage: "+calls.Cmd("open URL"), "no URL given")
	}
	lower := strings.ToLower(raw)
	for _, p := range []string{"about:", "data:", "file:", "chrome:", "javascript:"} {
		if strings.HasPrefix(lower, p) {
			if p == "javascript:" || p == "chrome:" {
				return "", calls.Errorf(calls.ErrBadInput, "open an http(s) URL", "refusing to open %q", raw)
			}
			return raw, nil
		}
	}
	if strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "./") || strings.HasPrefix(raw, "../") || strings.HasPrefix(raw, "~/") {
		// A path, not an address: a local file is opened by its file:
		// URL (local files need [policy] files = true).
		example := "file:///path/to/" + raw[strings.LastIndexByte(raw, '/')+1:]
		if strings.HasPrefix(raw, "/") {
			example = (&url.URL{Scheme: "file", Path: raw}).String()
		}
		return "", calls.Errorf(calls.ErrBadInput, "open a local file by its file: URL, as in "+calls.Cmd("--allow-files open "+example)+"; or serve its folder: python3 -m http.server --directory DIR 8000",
			"%q is a path, not an address", raw)
	}
	if !strings.Contains(raw, "://") {
		scheme := "https://"
		host := raw
		if i := strings.IndexAny(host, "/?#"); i >= 0 {
			host = host[:i]
		}
		// Local development servers speak plain HTTP. The port is cut
		// with SplitHostPort, not at the first colon, so that [::1]:8080
		// is loopback too.
		h := strings.ToLower(host)
		if hh, _, err := net.SplitHostPort(h); err == nil {
			h = hh
		}
		if h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"); h == "localhost" || h == "127.0.0.1" || h == "::1" {
			scheme = "http://"
		}
		raw = scheme + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || strings.ContainsAny(u.Host, " \t") {
		return "", calls.Errorf(calls.ErrBadInput, "check the address, e.g. "+calls.Cmd("open example.com/path"), "malformed URL %q", raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", calls.Errorf(calls.ErrBadInput, "open an http(s) URL", "unsupported scheme %q in %q", u.Scheme, raw)
	}
	return u.String(), nil
}

// Open navigates the current tab and waits for the load.
func (s *Session) Open(ctx context.Context, req calls.OpenRequest) (reply *calls.PageInfo, err error) {
	defer s.masked(&reply, &err)
	u, err := NormalizeURL(req.URL)
	if err != nil {
		return nil, err
	}
	t, ctx, end, err := s.enter(ctx, leavePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	if err := s.allowed(ctx, u); err != nil {
		return nil, err
	}
	t.askFile(u)
	t.forgetLooks()
	return s.navigate(ctx, t, req.TimeoutMS, chromedp.Navigate(u), u)
}

// allowed checks a URL against the policy before the page is touched.
func (s *Session) allowed(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return calls.Errorf(calls.ErrBadInput, "check the address", "malformed URL %q", raw)
	}
	if err := s.browser.judge(ctx, u); err != nil {
		return blockedErr(raw, err)
	}
	return nil
}

// Back goes one step back in the tab's history.
func (s *Session) Back(ctx context.Context) (reply *calls.PageInfo, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, leavePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	return s.history(ctx, t, -1)
}

// Forward goes one step forward in the tab's history.
func (s *Session) Forward(ctx context.Context) (reply *calls.PageInfo, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, leavePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	return s.history(ctx, t, +1)
}

// Reload reloads the current tab.
func (s *Session) Reload(ctx context.Context) (reply *calls.PageInfo, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, leavePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	if u := t.takeReplaced(); u != "" {
		// The tab replaced one a frame's dialog held: load its page again.
		return s.navigate(ctx, t, 0, chromedp.Navigate(u), "reload")
	}
	return s.navigate(ctx, t, 0, chromedp.Reload(), "reload")
}

func (s *Session) navigate(ctx context.Context, t *tab, timeoutMS int, nav chromedp.Action[chromedp.Void], what string) (*calls.PageInfo, error) {
	timeout := defaultNavTimeout
	if timeoutMS > 0 {
		timeout = time.Duration(timeoutMS) * time.Millisecond
	}
	nctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	actx, acancel := t.actionContext(nctx)
	defer acancel()
	_ = t.takeBlocked()
	t.forgetFormNav()
	entry := t.entry(ctx)
	began := time.Now()
	err := chromedp.Do(actx, nav)
	if blocked := t.takeBlocked(); blocked != nil {
		// A redirect went somewhere the policy refuses: the guard failed
		// the request; leave the tab on the page it was on.
		t.undoBlocked(ctx, entry)
		return nil, blocked
	}
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case nctx.Err() != nil:
		return nil, calls.Errorf(calls.ErrTimeout, "the page is slow; pass --timeout to wait longer, or take a snapshot of what loaded",
			"%s did not finish loading within %s", what, timeout)
	default:
		var le *chromedp.LoadError
		if errors.As(err, &le) || netError(err) {
			msg := fmt.Sprintf("could not open %s: %v", what, err)
			if u, perr := url.Parse(what); perr == nil && u.Host != "" {
				// Through the daemon's proxy every failure of the site
				// reaches the browser as a reset: say what the site did.
				if saw := s.browser.proxySaw(u.Hostname(), began); saw != "" {
					msg += "; " + saw
				}
			}
			return nil, calls.Errorf(calls.ErrNavigation, "check the address and that the site is up", "%s", msg)
		}
		if noHistoryEntry(err) {
			return nil, calls.Errorf(calls.ErrNavigation, "there is no page to go to in that direction", "cannot go %s: %v", what, err)
		}
		return nil, browserErr(err)
	}
	return s.pageInfo(ctx, t)
}

// history moves delta steps in the tab's history. It waits on the tab's
// own events rather than chromedp's load wait, because a page restored
// from the back/forward cache fires no load event.
func (s *Session) history(ctx context.Context, t *tab, delta int) (*calls.PageInfo, error) {
	h, err := call(ctx, t, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return nil, err
	}
	i := int(h.CurrentIndex) + delta
	if i < 0 || i >= len(h.Entries) {
		dir := "back"
		if delta > 0 {
			dir = "forward"
		}
		return nil, calls.Errorf(calls.ErrNavigation, "there is no page to go to in that direction", "cannot go %s: no page %s in this tab's history", dir, dir)
	}
	t.askFile(h.Entries[i].URL)
	t.forgetFormNav()
	before := t.mark()
	if _, err := call(ctx, t, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[i].ID}); err != nil {
		return nil, err
	}
	if err := t.waitNavigated(ctx, before, defaultNavTimeout); err != nil {
		return nil, err
	}
	return s.pageInfo(ctx, t)
}

// waitNavigated waits until the main frame has navigated since before and
// is no longer loading, or has moved within its document.
func (t *tab) waitNavigated(ctx context.Context, before mark, timeout time.Duration) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		t.mu.Lock()
		done := (t.navSeq != before.navSeq && !t.loading) || t.sameDocSeq != before.sameDocSeq
		changed := t.changed
		t.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-changed:
		case <-deadline.C:
			return calls.Errorf(calls.ErrTimeout, "the page is slow; take a snapshot of what loaded", "the page did not finish loading within %s", timeout)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// pageInfo reads the tab's URL and title from the browser (no script).
func (s *Session) pageInfo(ctx context.Context, t *tab) (*calls.PageInfo, error) {
	res, err := chromedp.CallBrowser(s.browser.ctx, target.GetTargetInfo, target.GetTargetInfoParams{TargetID: t.id})
	if err != nil {
		return nil, browserErr(err)
	}
	t.mu.Lock()
	status := t.status
	t.mu.Unlock()
	return &calls.PageInfo{URL: shownURL(res.TargetInfo.URL), Title: res.TargetInfo.Title, Status: status}, nil
}

// shownURL is a page's URL as the driver reports it: without the
// credentials of http://user:password@host/, which would otherwise reach
// the outline's header, every outcome and a recorded goto.
func shownURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = nil
	return u.String()
}

// PageInfo returns where the current tab is (its URL, title and HTTP status),
// asking the browser; [Session.Info] is the session's own record, with no
// call.
func (s *Session) PageInfo(ctx context.Context) (reply *calls.PageInfo, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, anyPage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	return s.pageInfo(ctx, t)
}
