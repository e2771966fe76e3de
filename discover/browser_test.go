package discover_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/discover"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo/pubsite"
)

func newSession(t *testing.T) (*driver.Session, context.Context) {
	t.Helper()
	return drivertest.Session(t, t.Name(), 90*time.Second)
}

func pubServer(t *testing.T, opts pubsite.Options) (*pubsite.Site, *httptest.Server) {
	t.Helper()
	site := pubsite.New(opts)
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	return site, srv
}

// onSite puts the session on the site the way the CLI does.
func onSite(t *testing.T, ctx context.Context, s *driver.Session, origin string) {
	t.Helper()
	done, err := discover.OnSite(ctx, s, origin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(done)
}

func urls(pages []discover.Page) []string {
	var out []string
	for _, p := range pages {
		out = append(out, p.URL)
	}
	return out
}

// TestSitemapPublished: the sitemap index the robots.txt names, both its
// children (one gzipped) and the llms.txt are read through the browser's
// own requests; the pages are ranked against the query; a link of
// llms.txt to another origin is listed as skipped, never requested.
func TestSitemapPublished(t *testing.T) {
	t.Parallel()
	site, srv := pubServer(t, pubsite.Options{})
	s, ctx := newSession(t)
	onSite(t, ctx, s, srv.URL)
	start := time.Now()
	m, err := discover.Sitemap(ctx, s, srv.URL, discover.Options{Query: "lamps", Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d pages from %d requests in %s", m.Found, m.Requests, time.Since(start).Round(time.Millisecond))
	want := []string{srv.URL + "/sitemap_index.xml", srv.URL + "/sitemaps/pages.xml", srv.URL + "/sitemaps/products.xml.gz", srv.URL + "/llms.txt"}
	if !slices.Equal(m.Sources, want) {
		t.Errorf("sources %q, want %q", m.Sources, want)
	}
	if m.Found != 6+3+2 {
		t.Errorf("found %d pages, want 11 (6 + 3 from the sitemaps, 2 from llms.txt): %q", m.Found, urls(m.Pages))
	}
	got := urls(m.Pages)
	if len(got) < 3 || !strings.Contains(got[0], "lamp") || !strings.Contains(got[1], "lamp") {
		t.Errorf("ranked for %q: %q, want the two lamps first", "lamps", got)
	}
	if slices.Contains(got, srv.URL+"/about") {
		t.Errorf("a page with no word of the query is listed: %q", got)
	}
	if m.LLMsFull != srv.URL+"/llms-full.txt" {
		t.Errorf("llms-full %q", m.LLMsFull)
	}
	if !slices.ContainsFunc(m.Skipped, func(s discover.Skip) bool { return strings.Contains(s.URL, "partner.example") }) {
		t.Errorf("the foreign link of llms.txt is not reported as skipped: %+v", m.Skipped)
	}
	// robots.txt, the index, 2 children, llms.txt: nothing else.
	if m.Requests != 5 {
		t.Errorf("%d requests, want 5", m.Requests)
	}
	for _, p := range []string{"/about", "/blog", "/shop/products/desk-lamp"} {
		if n := site.Hits(p); n != 0 {
			t.Errorf("%s was requested %d times: a site map browses nothing", p, n)
		}
	}
}

// TestSitemapCrawl: a site with no list of its pages is crawled from its
// home page, bounded; a link to /logout, to an acting path, to what
// robots.txt disallows or to another origin is never requested (counted
// at the server); a calendar that links to itself forever stops.
func TestSitemapCrawl(t *testing.T) {
	t.Parallel()
	site, srv := pubServer(t, pubsite.Options{NoMaps: true})
	s, ctx := newSession(t)
	onSite(t, ctx, s, srv.URL)
	before := site.Total() - site.Hits("/favicon.ico") // the tab's own document
	start := time.Now()
	m, err := discover.Sitemap(ctx, s, srv.URL, discover.Options{Query: "desk lamp", CrawlDepth: 5})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("crawl: %d pages from %d requests in %s", m.Found, m.Requests, time.Since(start).Round(time.Millisecond))
	got := urls(m.Pages)
	if len(got) == 0 || got[0] != srv.URL+"/lamps/desk" {
		t.Fatalf("crawl ranked for %q: %q, want /lamps/desk first", "desk lamp", got)
	}
	if m.Pages[0].Title != "Brass desk lamp" {
		t.Errorf("title %q", m.Pages[0].Title)
	}
	for _, p := range []string{"/logout", "/account/delete", "/private/admin", "/cart"} {
		if n := site.Hits(p); n != 0 {
			t.Errorf("%s was requested %d times", p, n)
		}
	}
	if n := site.Hits("/calendar"); n > 4 {
		t.Errorf("the calendar loop was followed %d times", n)
	}
	if m.Requests > 30+3 {
		t.Errorf("%d requests", m.Requests)
	}
	if n := site.Total() - site.Hits("/favicon.ico") - before; n != m.Requests {
		t.Errorf("the site counted %d requests, discovery %d", n, m.Requests)
	}
	var skipped []string
	for _, sk := range m.Skipped {
		skipped = append(skipped, sk.URL+" ("+sk.Why+")")
	}
	j := strings.Join(skipped, "\n")
	for _, w := range []string{"/logout (its path acts", "/account/delete (its path acts", "/private/admin (robots.txt"} {
		if !strings.Contains(j, w) {
			t.Errorf("skipped does not say %q:\n%s", w, j)
		}
	}
}

// TestCandidatesPublished: the feeds a page declares, the JSON views of
// the platform its markup shows, and the JSON GET endpoints of the site's
// OpenAPI description; the feeds parse into the rows the page shows.
func TestCandidatesPublished(t *testing.T) {
	t.Parallel()
	site, srv := pubServer(t, pubsite.Options{})
	s, ctx := newSession(t)
	onSite(t, ctx, s, srv.URL)

	cands, err := discover.Candidates(ctx, s, srv.URL+"/blog", nil, discover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	byURL := map[string]discover.Candidate{}
	for _, c := range cands {
		byURL[strings.TrimPrefix(c.URL, srv.URL)] = c
	}
	if c := byURL["/feed.xml"]; c.Kind != "feed" || c.Format != "rss" || !strings.Contains(c.Source, "application/rss+xml") {
		t.Errorf("rss candidate %+v", c)
	}
	if c := byURL["/feed.json"]; c.Kind != "feed" || c.Format != "json-feed" {
		t.Errorf("json feed candidate %+v", c)
	}
	if c := byURL["/api/products/{id}"]; c.Kind != "openapi" || !slices.Equal(c.Params, []string{"id"}) {
		t.Errorf("openapi candidate %+v", c)
	}
	if _, ok := byURL["/api/products"]; !ok {
		t.Errorf("no /api/products in %+v", cands)
	}
	for _, u := range []string{"/api/orders", "/api/account/delete", "/api/report.pdf"} {
		if _, ok := byURL[u]; ok {
			t.Errorf("%s proposed (a POST, an acting path, or not JSON)", u)
		}
	}
	for u := range byURL {
		if !strings.HasPrefix(u, "/") {
			t.Errorf("a candidate on another origin: %s", u)
		}
	}
	if site.Hits("/api/account/delete") != 0 {
		t.Error("the acting endpoint was requested")
	}
	for _, f := range []string{"/feed.xml", "/feed.json"} {
		res, err := s.Fetch(ctx, calls.FetchRequest{URL: srv.URL + f})
		if err != nil {
			t.Fatal(err)
		}
		feed, err := discover.ParseFeed([]byte(res.Body))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(feed.Items) != len(pubsite.Posts) {
			t.Fatalf("%s: %d items", f, len(feed.Items))
		}
		for i, it := range feed.Items {
			p := pubsite.Posts[i]
			if it.Title != p.Title || it.Link != srv.URL+"/blog/"+p.Slug || it.Date != p.Date || it.Summary != p.Summary {
				t.Errorf("%s item %d: %+v, want %+v", f, i, it, p)
			}
		}
	}

	// Shopify, from the markup of a product page.
	cands, err = discover.Candidates(ctx, s, srv.URL+"/shop/products/desk-lamp", nil, discover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var shop []string
	for _, c := range cands {
		if c.Platform == "shopify" {
			shop = append(shop, strings.TrimPrefix(c.URL, srv.URL))
			if !strings.Contains(c.Source, "meta shopify-checkout-api-token") {
				t.Errorf("source %q", c.Source)
			}
		}
	}
	if want := []string{"/products/desk-lamp.js", "/products/desk-lamp.json", "/products.json"}; !slices.Equal(shop, want) {
		t.Errorf("shopify views %q, want %q", shop, want)
	}

	// Next.js: the data route from __NEXT_DATA__.buildId answers the
	// page's props.
	cands, err = discover.Candidates(ctx, s, srv.URL+"/next/shop", nil, discover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var next *discover.Candidate
	for i := range cands {
		if cands[i].Platform == "nextjs" {
			next = &cands[i]
		}
	}
	if next == nil || next.URL != srv.URL+"/_next/data/b1d-42/next/shop.json" {
		t.Fatalf("next candidate %+v", next)
	}
	res, err := s.Fetch(ctx, calls.FetchRequest{URL: next.URL})
	if err != nil || res.Status != 200 || !strings.Contains(res.Body, "Desk lamp") {
		t.Errorf("the data route: %v %+v", err, res)
	}
}
