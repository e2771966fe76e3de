package driver

import (
	"context"
	"net/url"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/store"
)

// Cookies reads, sets or clears the session's cookies.
func (s *Session) Cookies(ctx context.Context, req calls.CookieRequest) (reply *calls.CookieList, err error) {
	defer s.masked(&reply, &err)
	how := usePage
	if req.Op == "clear" {
		// The browser context's cookies, not the page's: no probe of
		// the page first (a batch clears them before every row). The
		// last action's settle is still awaited (enter), so a response
		// it was waiting for cannot set a cookie after the clear.
		how = anyPage
	}
	t, ctx, end, err := s.enter(ctx, how)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	switch req.Op {
	case "", "get":
	case "set":
		params, err := store.CookieParams(req.Cookies, t.url())
		if err != nil {
			return nil, err
		}
		if _, err := browserCallOn(ctx, s.browser, storage.SetCookies, storage.SetCookiesParams{Cookies: params, BrowserContextID: s.bcid}); err != nil {
			return nil, calls.Errorf(calls.ErrBadInput, "check the cookie's domain and URL", "the browser refused the cookie: %v", err)
		}
	case "clear":
		if _, err := browserCallOn(ctx, s.browser, storage.ClearCookies, storage.ClearCookiesParams{BrowserContextID: s.bcid}); err != nil {
			return nil, err
		}
		return &calls.CookieList{Cookies: []calls.Cookie{}}, nil
	default:
		return nil, calls.Errorf(calls.ErrBadInput, "cookies get | set NAME VALUE | clear", "unknown cookies command %q", req.Op)
	}
	return s.cookieList(ctx, t)
}

func (s *Session) cookieList(ctx context.Context, t *tab) (*calls.CookieList, error) {
	res, err := browserCallOn(ctx, s.browser, storage.GetCookies, storage.GetCookiesParams{BrowserContextID: s.bcid})
	if err != nil {
		return nil, err
	}
	return store.CookieList(res.Cookies), nil
}

// Storage reads or writes the current origin's local or session storage.
func (s *Session) Storage(ctx context.Context, req calls.StorageRequest) (reply *calls.StorageItems, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	expr, err := store.StorageScript(req)
	if err != nil {
		return nil, err
	}
	items := map[string]string{}
	if err := t.evalWorld(ctx, t.sess, t.mainFrame(), expr, &items); err != nil {
		if storageDenied(err) {
			return nil, calls.Errorf(calls.ErrBadInput, "open an http(s) page first", "this page has no storage (%s)", t.url())
		}
		return nil, err
	}
	return &calls.StorageItems{Items: items}, nil
}

// StateSave returns the session's cookies and the local storage of the
// current tab's origin, masked as every reply is: a value the page kept of
// a secret typed in this session is saved as its mark, never in clear (a
// state file is read and shared more than the secret's own source).
func (s *Session) StateSave(ctx context.Context) (reply *calls.State, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	cl, err := s.cookieList(ctx, t)
	if err != nil {
		return nil, err
	}
	st := &calls.State{Format: calls.StateFormat, Cookies: cl.Cookies, Origins: map[string]map[string]string{}}
	if u, err := url.Parse(t.url()); err == nil && strings.HasPrefix(u.Scheme, "http") {
		items, err := s.Storage(ctx, calls.StorageRequest{Area: "local", Op: "get"})
		if err == nil && len(items.Items) > 0 {
			st.Origins[u.Scheme+"://"+u.Host] = items.Items
		}
	}
	return st, nil
}

// StateLoad sets the cookies of a saved state, and the local storage of
// the origin the current tab is on.
func (s *Session) StateLoad(ctx context.Context, st calls.State) (_ *calls.Empty, err error) {
	if st.Format != calls.StateFormat {
		return nil, calls.Errorf(calls.ErrBadInput, "load a file written by "+calls.Cmd("state save"), "unknown state format %q (want %q)", st.Format, calls.StateFormat)
	}
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	if len(st.Cookies) > 0 {
		for i := range st.Cookies {
			if st.Cookies[i].Domain == "" && st.Cookies[i].URL == "" {
				return nil, calls.Errorf(calls.ErrBadInput, "each saved cookie needs a domain", "cookie %q has no domain", st.Cookies[i].Name)
			}
		}
		if _, err := s.Cookies(ctx, calls.CookieRequest{Op: "set", Cookies: st.Cookies}); err != nil {
			return nil, err
		}
	}
	if u, err := url.Parse(t.url()); err == nil {
		if items, ok := st.Origins[u.Scheme+"://"+u.Host]; ok {
			for k, v := range items {
				if _, err := s.Storage(ctx, calls.StorageRequest{Area: "local", Op: "set", Key: k, Value: v}); err != nil {
					return nil, err
				}
			}
		}
	}
	return &calls.Empty{}, nil
}

// browserCallOn runs a command on the browser target (the storage domain's
// per-context calls go there), bounded by the request's ctx.
func browserCallOn[P, R any](ctx context.Context, b *Browser, c cdp.Command[P, R], p P) (R, error) {
	r, err := cdp.Call(ctx, chromedp.FromContext(b.ctx).Browser, c, p)
	return r, browserErr(err)
}
