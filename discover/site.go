package discover

import (
	"context"
	"net/url"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// Browser is what [OnSite] needs of a session: calls.Session satisfies it.
type Browser interface {
	Fetcher
	Tab(ctx context.Context, req calls.TabRequest) (*calls.TabList, error)
}

// OnSite makes the session's current tab a page of origin, so in-tab
// requests to the site are same-origin (a page of another site would meet
// CORS, and about:blank has no origin at all). When the current tab is
// already on the site, nothing changes. Otherwise it opens a new tab on
// the site's /robots.txt (a text document: no script of the site runs, no
// page is browsed) and done closes it and returns to the tab the user
// was on. done is never nil.
func OnSite(ctx context.Context, b Browser, origin string) (done func(), err error) {
	o, err := parseOrigin(origin)
	if err != nil {
		return func() {}, err
	}
	list, err := b.Tab(ctx, calls.TabRequest{Op: "list"})
	if err != nil {
		return func() {}, err
	}
	prev := -1
	for _, t := range list.Tabs {
		if !t.Current {
			continue
		}
		prev = t.Index
		if u, err := url.Parse(t.URL); err == nil && u.Scheme == o.Scheme && strings.EqualFold(u.Host, o.Host) {
			return func() {}, nil
		}
	}
	if _, err := b.Tab(ctx, calls.TabRequest{Op: "new", URL: o.String() + "/robots.txt"}); err != nil {
		return func() {}, err
	}
	return func() {
		// The work is done; a failure to tidy up is not the caller's.
		ctx := context.WithoutCancel(ctx)
		if _, err := b.Tab(ctx, calls.TabRequest{Op: "close", Index: -1}); err == nil && prev >= 0 {
			_, _ = b.Tab(ctx, calls.TabRequest{Op: "switch", Index: prev})
		}
	}, nil
}
