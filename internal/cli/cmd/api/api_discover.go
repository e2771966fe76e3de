package api

import (
	"context"
	"net/url"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/discover"
	"github.com/waymark-dev/waymark/siteapi"
)

// learnPage is the page the rows were read on: --page, else the last top
// document the capture holds (the page the person extracted from).
func learnPage(given string, f *capture.File) string {
	if given != "" {
		return given
	}
	for i := len(f.Exchanges) - 1; i >= 0; i-- {
		e := f.Exchanges[i]
		if e.Kind == "document" && e.Frame == "" && e.Status == 200 {
			return e.URL
		}
	}
	return ""
}

// publishedCandidates asks package discover what the page publishes
// without a watched request (the feeds it declares, its platform's JSON
// view, its site's OpenAPI endpoints), from a tab of the site, so api
// learn ranks those answers beside the captured ones. Only JSON answers
// are kept (a recipe reads JSON), and an endpoint that needs parameters
// is left out (nothing here can fill them). Discovery is a help, never a
// cause to fail: what it could not do is returned as a note.
func publishedCandidates(ctx context.Context, s calls.Remote, page string) ([]siteapi.Candidate, string) {
	u, err := url.Parse(page)
	if err != nil || u.Host == "" {
		return nil, ""
	}
	done, err := discover.OnSite(ctx, s, u.Scheme+"://"+u.Host)
	if err != nil {
		return nil, "could not look for what the site publishes: " + err.Error()
	}
	defer done()
	found, err := discover.Candidates(ctx, s, page, nil, discover.Options{})
	if err != nil {
		return nil, "could not look for what the site publishes: " + err.Error()
	}
	var out []siteapi.Candidate
	for _, c := range found {
		if len(c.Params) > 0 || (c.Format != "json" && c.Format != "json-feed") {
			continue
		}
		src := c.Kind
		if c.Platform != "" {
			src = c.Platform
		}
		out = append(out, siteapi.Candidate{URL: c.URL, Source: src})
	}
	return out, ""
}
