package pagefetch

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// A fetch() with redirect: 'manual' gets an opaque answer: a script cannot
// read a redirect's Location. The browser's network events can, so a call
// that asks for redirects (FetchRequest.Redirect "manual") listens to the
// tab's Network events while it runs and reads the Location of the 3xx
// answer to its URL from them. The caller then checks the next hop
// against the policy before it calls it: nothing is followed here.

// redirectWatch collects the Location of a 3xx answer to one URL.
type redirectWatch struct {
	url    string
	mu     sync.Mutex
	ids    map[network.RequestID]bool
	loc    string
	status int
	found  chan struct{}
	cancel context.CancelFunc
}

// watchRedirect starts listening on the tab whose context is tabCtx; stop
// it with cancel (location does).
func watchRedirect(tabCtx context.Context, u string) (*redirectWatch, error) {
	lctx, cancel := context.WithCancel(tabCtx)
	w := &redirectWatch{url: u, ids: map[network.RequestID]bool{}, found: make(chan struct{}), cancel: cancel}
	// Listen's fn runs on the tab's read loop: it only files the event.
	err := chromedp.Listen(lctx, func(ev any) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.loc != "" {
			return
		}
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			// The hop after a redirect names the answer it follows: its
			// URL is the Location, whatever order the ExtraInfo events
			// came in (they may come before the request they are about,
			// and did under -race, leaving the Location unread).
			if r := ev.RedirectResponse; r != nil && ev.Request != nil && sameURL(r.URL, w.url) && r.Status >= 300 && r.Status < 400 {
				w.set(ev.Request.URL, int(r.Status))
				return
			}
			if ev.Request != nil && sameURL(ev.Request.URL, w.url) {
				w.ids[ev.RequestID] = true
			}
		case *network.EventResponseReceivedExtraInfo:
			if w.ids[ev.RequestID] && ev.StatusCode >= 300 && ev.StatusCode < 400 {
				w.set(location(ev.Headers), int(ev.StatusCode))
			}
		case *network.EventResponseReceived:
			if w.ids[ev.RequestID] && ev.Response != nil && ev.Response.Status >= 300 && ev.Response.Status < 400 {
				w.set(location(ev.Response.Headers), int(ev.Response.Status))
			}
		}
	})
	if err != nil {
		cancel()
		return nil, err
	}
	return w, nil
}

// set records loc, made absolute against the request's URL. w.mu is held.
func (w *redirectWatch) set(loc string, status int) {
	if loc == "" {
		return
	}
	base, err := url.Parse(w.url)
	ref, err2 := url.Parse(strings.TrimSpace(loc))
	if err != nil || err2 != nil {
		return
	}
	w.loc, w.status = base.ResolveReference(ref).String(), status
	close(w.found)
}

// location waits a little for the Location (the network events and the
// script's answer come by different roads) and stops listening.
func (w *redirectWatch) location(ctx context.Context, wait time.Duration) (string, int) {
	defer w.cancel()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-w.found:
	case <-timer.C:
	case <-ctx.Done():
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.loc, w.status
}

// sameURL compares two URLs as the browser reports them (it drops a
// fragment and may normalise the path).
func sameURL(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil {
		return a == b
	}
	ua.Fragment, ub.Fragment = "", ""
	return ua.String() == ub.String()
}

// location is the Location header of CDP's header map, whatever its case
// (HTTP/2 names are lower case). Several values come joined by newlines.
func location(h network.Headers) string {
	for k, v := range h {
		if strings.EqualFold(k, "Location") {
			first, _, _ := strings.Cut(fmt.Sprint(v), "\n")
			return first
		}
	}
	return ""
}
