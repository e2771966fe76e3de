package discover

import (
	"context"
	"fmt"
	"net/url"
	"strings"
)

// crawler reads the site's own links breadth first from its home page,
// when the site publishes no list of its pages. Bounded by pages, depth
// and time; a link to another origin, to a path robots.txt disallows or
// to a path whose words act is never requested.
type crawler struct {
	c         *client
	opts      Options
	robots    robots
	add       func(Page) bool
	truncated func(string)
}

// maxQueryVariants bounds the URLs of one path that differ only in their
// query: a calendar or a filter page can link to itself forever.
const maxQueryVariants = 3

func (cr *crawler) run(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, cr.opts.CrawlTime)
	defer cancel()
	type item struct {
		u     *url.URL
		depth int
	}
	start := cr.c.origin.JoinPath("/")
	queue := []item{{start, 0}}
	queued := map[string]bool{start.String(): true}
	variants := map[string]int{}
	fetched := 0
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if fetched >= cr.opts.CrawlPages {
			cr.truncated(fmt.Sprintf("the crawl stopped at %d pages", cr.opts.CrawlPages))
			return nil
		}
		if ctx.Err() != nil {
			cr.truncated(fmt.Sprintf("the crawl stopped after %s", cr.opts.CrawlTime))
			return nil
		}
		fetched++
		d, err := cr.c.get(ctx, it.u)
		if err != nil {
			if ctx.Err() != nil {
				cr.truncated(fmt.Sprintf("the crawl stopped after %s", cr.opts.CrawlTime))
				return nil
			}
			if err := fatal(ctx, err); err != nil {
				return err
			}
			continue
		}
		if !d.ok() || !looksHTML(d) {
			continue
		}
		p := parseHTML(d.Body)
		cr.add(Page{URL: d.URL.String(), Title: p.Title, Description: p.Description, Source: "crawl"})
		if it.depth >= cr.opts.CrawlDepth {
			continue
		}
		for _, h := range p.Links {
			u, why := cr.c.resolve(d.URL, h)
			if u == nil || queued[u.String()] {
				continue
			}
			if why == "" && cr.robots.disallowed(u.RequestURI()) {
				why = "robots.txt disallows it"
			}
			if why != "" {
				if !strings.HasPrefix(why, "another origin") && !strings.HasPrefix(why, "not http") {
					cr.c.skip(u.String(), why)
				}
				continue
			}
			if u.RawQuery != "" {
				k := u.Path
				if variants[k] >= maxQueryVariants {
					continue
				}
				variants[k]++
			}
			queued[u.String()] = true
			queue = append(queue, item{u, it.depth + 1})
		}
	}
	return nil
}
