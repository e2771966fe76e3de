package discover

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/internal/fold"
	"github.com/waymark-dev/waymark/policy"
)

// Options bounds a discovery. The zero value is valid: the defaults below.
type Options struct {
	// Query ranks the pages by BM25 over their URL's words, title and
	// description; empty keeps the site's order.
	Query string
	// Limit is the number of pages returned; 0 means 20, -1 all found.
	Limit int
	// Policy, when set, is checked (without DNS) before a URL is
	// requested or listed, so a refusal is reported as a skip; the
	// driver's own check before each request stands either way.
	Policy *policy.Policy
	// MaxBytes bounds one document, as sent and after gunzip; 0 means 10 MB.
	MaxBytes int
	// MaxSitemaps bounds the sitemap files read; 0 means 20.
	MaxSitemaps int
	// MaxDepth bounds the nesting of sitemap index files; 0 means 3.
	MaxDepth int
	// MaxURLs bounds the pages kept from sitemaps and llms.txt; 0 means 50,000.
	MaxURLs int
	// CrawlPages, CrawlDepth and CrawlTime bound the crawl made when the
	// site publishes no list; 0 means 30 pages, depth 2, 20 s. CrawlPages
	// -1 turns the crawl off.
	CrawlPages int
	CrawlDepth int
	CrawlTime  time.Duration
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.Limit, 20)
	def(&o.MaxBytes, defaultMaxBytes)
	def(&o.MaxSitemaps, 20)
	def(&o.MaxDepth, 3)
	def(&o.MaxURLs, 50000)
	def(&o.CrawlPages, 30)
	def(&o.CrawlDepth, 2)
	if o.CrawlTime == 0 {
		o.CrawlTime = 20 * time.Second
	}
	return o
}

// Page is one page of the site.
type Page struct {
	URL         string  `json:"url"`
	Title       string  `json:"title,omitempty"`
	Description string  `json:"description,omitempty"`
	LastMod     string  `json:"lastmod,omitempty"`
	Source      string  `json:"source"` // "sitemap", "llms.txt" or "crawl"
	Score       float64 `json:"score,omitempty"`
}

// Map is what [Sitemap] found.
type Map struct {
	Origin string `json:"origin"`
	// Sources are the documents read that listed pages, in order.
	Sources []string `json:"sources"`
	// LLMsFull is the site's llms-full.txt, when its llms.txt links one.
	LLMsFull string `json:"llms_full,omitempty"`
	// Found is the number of pages found before ranking and the limit.
	Found int    `json:"found"`
	Pages []Page `json:"pages"`
	// Truncated says a bound stopped the reading (more pages exist).
	Truncated []string `json:"truncated,omitempty"`
	Skipped   []Skip   `json:"skipped,omitempty"`
	// Requests is the number of requests made.
	Requests int `json:"requests"`
}

// Sitemap lists the pages of the site at origin without browsing it: the
// sitemaps its robots.txt names (else /sitemap.xml), its /llms.txt, and,
// when neither lists a page, a shallow crawl of its links from the home
// page. Pages are ranked against opts.Query. Requests go through f, the
// browser's own (see the package doc); f's tab should be on the site (an
// in-tab fetch to another origin meets CORS), which [OnSite] arranges.
func Sitemap(ctx context.Context, f Fetcher, origin string, opts Options) (*Map, error) {
	opts = opts.withDefaults()
	c, err := newClient(f, origin, opts.Policy, opts.MaxBytes)
	if err != nil {
		return nil, err
	}
	m := &Map{Origin: c.origin.String(), Sources: []string{}}
	var pages []Page
	seen := map[string]bool{}
	add := func(p Page) bool {
		// Every source's words leave here on one line: callers print them.
		p.Title, p.Description = fold.Line(p.Title), fold.Line(p.Description)
		if len(pages) >= opts.MaxURLs {
			return false
		}
		if !seen[p.URL] {
			seen[p.URL] = true
			pages = append(pages, p)
		}
		return true
	}
	truncated := func(why string) {
		for _, t := range m.Truncated {
			if t == why {
				return
			}
		}
		m.Truncated = append(m.Truncated, why)
	}

	// robots.txt: the sitemaps it names, and what the crawl leaves alone.
	var rb robots
	if d, err := c.get(ctx, c.origin.JoinPath("/robots.txt")); err == nil && d.ok() && !looksHTML(d) {
		rb = parseRobots(d.Body, robotsAgent)
	} else if err := fatal(ctx, err); err != nil {
		return nil, err
	}
	queue := rb.Sitemaps
	if len(queue) == 0 {
		queue = []string{"/sitemap.xml"}
	}
	sm := sitemapWalk{c: c, opts: opts, add: add, truncated: truncated, m: m}
	for _, s := range queue {
		if err := sm.walk(ctx, c.origin, s, 0); err != nil {
			return nil, err
		}
	}

	// llms.txt.
	if d, err := c.get(ctx, c.origin.JoinPath("/llms.txt")); err == nil && d.ok() && !looksHTML(d) {
		_, links := parseLLMs(d.Body, opts.MaxURLs)
		n := 0
		for _, l := range links {
			u, why := c.resolve(d.URL, l.URL)
			if why != "" {
				if u != nil {
					c.skip(u.String(), why)
				}
				continue
			}
			if strings.HasSuffix(u.Path, "/llms-full.txt") {
				m.LLMsFull = u.String()
				continue
			}
			if !add(Page{URL: u.String(), Title: l.Name, Description: l.Notes, Source: "llms.txt"}) {
				truncated(fmt.Sprintf("more than %d pages", opts.MaxURLs))
				break
			}
			n++
		}
		if n > 0 || m.LLMsFull != "" {
			m.Sources = append(m.Sources, d.URL.String())
		}
	} else if err := fatal(ctx, err); err != nil {
		return nil, err
	}

	if len(pages) == 0 && opts.CrawlPages > 0 {
		cr := crawler{c: c, opts: opts, robots: rb, add: add, truncated: truncated}
		if err := cr.run(ctx); err != nil {
			return nil, err
		}
		if len(pages) > 0 {
			m.Sources = append(m.Sources, "crawl of "+c.origin.String()+"/")
		}
	}

	m.Found = len(pages)
	ranked := rank(pages, opts.Query)
	if opts.Limit > 0 && len(ranked) > opts.Limit {
		ranked = ranked[:opts.Limit]
	}
	if ranked == nil {
		ranked = []Page{}
	}
	m.Pages = ranked
	m.Skipped = c.skipped
	m.Requests = c.requests
	return m, nil
}

// fatal returns the error that ends a discovery: a canceled context, a
// browser gone. A document that is missing or refused is not one.
func fatal(ctx context.Context, err error) error {
	if err == nil || errors.Is(err, errSkipped) {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if isBrowserFailure(err) {
		return err
	}
	return nil
}

// looksHTML says whether d is an HTML page: a site that answers every
// path with its home page has no robots.txt or llms.txt.
func looksHTML(d *doc) bool {
	if strings.Contains(d.ContentType, "html") {
		return true
	}
	t := strings.ToLower(strings.TrimSpace(string(d.Body[:min(len(d.Body), 200)])))
	return strings.HasPrefix(t, "<!doctype html") || strings.HasPrefix(t, "<html")
}

// sitemapWalk reads sitemap files and index files, bounded.
type sitemapWalk struct {
	c         *client
	opts      Options
	add       func(Page) bool
	truncated func(string)
	m         *Map
	read      int
	full      bool
	seen      map[string]bool
}

func (w *sitemapWalk) walk(ctx context.Context, base *url.URL, raw string, depth int) error {
	if w.full {
		return nil
	}
	u, why := w.c.resolve(base, raw)
	if why != "" {
		if u != nil {
			w.c.skip(u.String(), "a sitemap on "+why)
		}
		return nil
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	if w.seen[u.String()] {
		return nil // an index that names itself, or a loop of indexes
	}
	w.seen[u.String()] = true
	if depth > w.opts.MaxDepth {
		w.c.skip(u.String(), fmt.Sprintf("sitemap indexes nested deeper than %d", w.opts.MaxDepth))
		w.truncated(fmt.Sprintf("sitemap indexes nested deeper than %d", w.opts.MaxDepth))
		return nil
	}
	if w.read >= w.opts.MaxSitemaps {
		w.truncated(fmt.Sprintf("more than %d sitemap files", w.opts.MaxSitemaps))
		return nil
	}
	w.read++
	d, err := w.c.get(ctx, u)
	if err != nil || !d.ok() || looksHTML(d) {
		return fatal(ctx, err)
	}
	sd, err := parseSitemap(d.Body, w.opts.MaxURLs)
	if err != nil {
		w.c.skip(u.String(), "not a sitemap: "+err.Error())
		return nil
	}
	if sd.More {
		w.truncated(fmt.Sprintf("a sitemap lists more than %d URLs", w.opts.MaxURLs))
	}
	w.m.Sources = append(w.m.Sources, d.URL.String())
	for _, l := range sd.Locs {
		if sd.Index {
			if err := w.walk(ctx, d.URL, l.Loc, depth+1); err != nil {
				return err
			}
			continue
		}
		pu, why := w.c.resolve(d.URL, l.Loc)
		if why != "" && !strings.HasPrefix(why, "its path acts") {
			// A listed page that acts is listed all the same: listing
			// is not requesting it.
			if pu != nil {
				w.c.skip(pu.String(), why)
			}
			continue
		}
		if !w.add(Page{URL: pu.String(), Title: l.Title, LastMod: l.LastMod, Source: "sitemap"}) {
			w.full = true
			w.truncated(fmt.Sprintf("more than %d pages", w.opts.MaxURLs))
			return nil
		}
	}
	return nil
}
