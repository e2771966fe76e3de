package discover

import (
	"context"
	"net/url"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// Candidate is a machine-readable view of a page the site publishes
// without being watched: package siteapi (api learn) fetches each and
// keeps those that hold the rows the browser read.
type Candidate struct {
	URL string `json:"url"`
	// Kind is "feed", "platform" or "openapi".
	Kind string `json:"kind"`
	// Format is what the URL answers: "rss", "atom", "json-feed" or "json".
	Format string `json:"format"`
	// Platform names the platform of a "platform" candidate (shopify,
	// woocommerce, wordpress, discourse, nextjs).
	Platform string `json:"platform,omitempty"`
	// Source says why it is proposed: the markup or document it was read
	// from ("link rel=alternate type=application/rss+xml", "Shopify: meta
	// shopify-checkout-api-token", "OpenAPI /openapi.json: GET /products").
	Source string `json:"source"`
	// Params are the path parameters ({id}) and required query
	// parameters of an OpenAPI endpoint, to be filled by the caller.
	Params []string `json:"params,omitempty"`
	// Summary is an OpenAPI operation's summary.
	Summary string `json:"summary,omitempty"`
}

// Candidates returns what the page at pageURL declares (feeds), what its
// platform serves as JSON for it (detected from the markup), and the JSON
// GET endpoints of the site's OpenAPI description (linked from the page,
// named by /.well-known/api-catalog, or at /openapi.json). markup is the
// page's HTML; nil fetches it through f. Requests are GET only, on the
// page's origin (see the package doc).
func Candidates(ctx context.Context, f Fetcher, pageURL string, markup []byte, opts Options) ([]Candidate, error) {
	opts = opts.withDefaults()
	c, err := newClient(f, pageURL, opts.Policy, opts.MaxBytes)
	if err != nil {
		return nil, err
	}
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil, err
	}
	if markup == nil {
		// The page is requested as any other of discovery's: never one
		// whose path acts, whoever named it.
		if w := Acts(base); w != "" {
			return nil, calls.Errorf(calls.ErrBadInput, "give the page's markup, or a page that only shows",
				"%s: its path acts (%q), and discovery never requests such a page", base, w)
		}
		d, err := c.get(ctx, base)
		if err := fatal(ctx, err); err != nil {
			return nil, err
		}
		if d != nil && d.ok() {
			markup = d.Body
		}
	}
	p := parseHTML(markup)
	out := fromPage(c, base, p)
	api, err := openAPICandidates(ctx, c, base, p)
	if err != nil {
		return nil, err
	}
	return append(out, api...), nil
}

// FromMarkup returns the candidates read from a page's markup alone (feeds
// and platform views), with no request.
func FromMarkup(pageURL string, markup []byte) ([]Candidate, error) {
	c, err := newClient(nil, pageURL, nil, 0)
	if err != nil {
		return nil, err
	}
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil, err
	}
	return fromPage(c, base, parseHTML(markup)), nil
}

// fromPage gathers the feed and platform candidates, each URL once and on
// the page's origin.
func fromPage(c *client, base *url.URL, p *page) []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	add := func(cand Candidate) {
		u, why := c.resolve(base, cand.URL)
		if why != "" || seen[u.String()] {
			if u != nil && why != "" {
				c.skip(u.String(), why)
			}
			return
		}
		seen[u.String()] = true
		cand.URL = u.String()
		out = append(out, cand)
	}
	for _, l := range p.LinkRels {
		if !hasWord(l.Rel, "alternate") || l.Href == "" {
			continue
		}
		format := ""
		switch l.Type {
		case "application/rss+xml", "application/rdf+xml":
			format = "rss"
		case "application/atom+xml":
			format = "atom"
		case "application/feed+json":
			format = "json-feed"
		default:
			continue
		}
		add(Candidate{URL: l.Href, Kind: "feed", Format: format, Source: "link rel=alternate type=" + l.Type})
	}
	for _, pl := range platforms {
		why := pl.detect(p)
		if why == "" {
			continue
		}
		for _, cand := range pl.views(base, p) {
			cand.Kind, cand.Platform = "platform", pl.name
			if cand.Format == "" {
				cand.Format = "json"
			}
			cand.Source = pl.label + ": " + why + "; " + cand.Source
			add(cand)
		}
	}
	return out
}

// hasWord says whether the space-separated list has w.
func hasWord(list, w string) bool {
	for _, f := range strings.Fields(list) {
		if strings.EqualFold(f, w) {
			return true
		}
	}
	return false
}
