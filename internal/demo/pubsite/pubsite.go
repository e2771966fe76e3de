// Package pubsite is the second test site of issue 18: a site that
// publishes for machines. It serves a robots.txt naming a sitemap index
// with two child sitemaps (one gzipped), an llms.txt, an RSS feed and a
// JSON Feed, a Next.js-style page with __NEXT_DATA__ and its data route, a
// Shopify-looking product page with its JSON views, an OpenAPI
// description, and a WebMCP page offering one read-only tool and one that
// acts. With Options.NoMaps it publishes no list of its pages, so a
// client must crawl its links. It counts every request by path, so a test
// can prove what was never asked for.
package pubsite

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Options configures a [Site].
type Options struct {
	// NoMaps serves no robots.txt sitemap, sitemap or llms.txt: only
	// pages that link to each other (and to /logout, and to a calendar
	// that links to itself forever).
	NoMaps bool
}

// Site is the handler. It is safe for concurrent use.
type Site struct {
	opts Options
	mu   sync.Mutex
	hits map[string]int
	// Cart counts the WebMCP add-to-cart tool's effect, so a test can see
	// an unapproved call did nothing.
	cart int
}

// Cart returns how many times the add-to-cart tool reached the site.
func (s *Site) Cart() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cart
}

// New returns a Site.
func New(opts Options) *Site { return &Site{opts: opts, hits: map[string]int{}} }

// Hits returns how many requests reached path.
func (s *Site) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// Total returns how many requests reached the site.
func (s *Site) Total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, h := range s.hits {
		n += h
	}
	return n
}

// Products are the store's products, in every view the site gives.
var Products = []struct{ Handle, Title, Price string }{
	{"desk-lamp", "Desk lamp", "39.00"},
	{"floor-lamp", "Floor lamp", "89.00"},
	{"oak-chair", "Oak chair", "120.00"},
}

// Posts are the blog's posts, in the page, the RSS feed and the JSON Feed.
var Posts = []struct{ Slug, Title, Date, Summary string }{
	{"spring-sale", "Spring sale", "2026-03-01T09:00:00Z", "Lamps at half price."},
	{"new-chairs", "New chairs", "2026-02-10T09:00:00Z", "Oak chairs are back."},
}

func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	origin := "http://" + r.Host
	if s.opts.NoMaps {
		s.crawlOnly(w, r)
		return
	}
	switch p := r.URL.Path; {
	case p == "/robots.txt":
		text(w, "text/plain", "User-agent: *\nDisallow: /private/\n\nSitemap: "+origin+"/sitemap_index.xml\n")
	case p == "/sitemap_index.xml":
		text(w, "application/xml", `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>`+origin+`/sitemaps/pages.xml</loc></sitemap>
  <sitemap><loc>`+origin+`/sitemaps/products.xml.gz</loc></sitemap>
</sitemapindex>`)
	case p == "/sitemaps/pages.xml":
		text(w, "application/xml", `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>`+origin+`/</loc></url>
  <url><loc>`+origin+`/about</loc><lastmod>2026-01-05</lastmod></url>
  <url><loc>`+origin+`/blog</loc></url>
  <url><loc>`+origin+`/blog/spring-sale</loc></url>
  <url><loc>`+origin+`/returns-policy</loc></url>
  <url><loc>`+origin+`/tools</loc></url>
</urlset>`)
	case p == "/sitemaps/products.xml.gz":
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, pr := range Products {
			fmt.Fprintf(&b, "<url><loc>%s/shop/products/%s</loc></url>", origin, pr.Handle)
		}
		b.WriteString("</urlset>")
		w.Header().Set("Content-Type", "application/gzip")
		w.Write(gzipped(b.String()))
	case p == "/llms.txt":
		text(w, "text/plain", `# Lamp & Chair

> A small shop of lamps and chairs.

## Docs

- [Shipping guide](/docs/shipping): how and when orders ship
- [Warranty](`+origin+`/docs/warranty): two years on every lamp
- [Full text](/llms-full.txt)

## Elsewhere

- [Partner](https://partner.example/catalog): not ours
`)
	case p == "/blog":
		var b strings.Builder
		b.WriteString(`<!doctype html><html><head><title>Blog</title>
<link rel="alternate" type="application/rss+xml" title="RSS" href="/feed.xml">
<link rel="alternate" type="application/feed+json" title="JSON Feed" href="/feed.json">
<link rel="alternate" type="application/rss+xml" href="https://feeds.other.example/blog.xml">
</head><body><h1>Blog</h1><ul>`)
		for _, po := range Posts {
			fmt.Fprintf(&b, `<li><a href="/blog/%s">%s</a> <time>%s</time><p>%s</p></li>`, po.Slug, po.Title, po.Date, po.Summary)
		}
		b.WriteString("</ul></body></html>")
		text(w, "text/html", b.String())
	case p == "/feed.xml":
		var b strings.Builder
		b.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>Lamp &amp; Chair blog</title>`)
		for _, po := range Posts {
			fmt.Fprintf(&b, "<item><title>%s</title><link>%s/blog/%s</link><pubDate>%s</pubDate><description>%s</description></item>", po.Title, origin, po.Slug, po.Date, po.Summary)
		}
		b.WriteString("</channel></rss>")
		text(w, "application/rss+xml", b.String())
	case p == "/feed.json":
		var b strings.Builder
		b.WriteString(`{"version":"https://jsonfeed.org/version/1.1","title":"Lamp & Chair blog","items":[`)
		for i, po := range Posts {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"id":%q,"url":"%s/blog/%s","title":%q,"date_published":%q,"summary":%q}`, po.Slug, origin, po.Slug, po.Title, po.Date, po.Summary)
		}
		b.WriteString("]}")
		text(w, "application/feed+json", b.String())
	case p == "/next/shop":
		text(w, "text/html", `<!doctype html><html><head><title>Shop (Next)</title></head><body><div id="__next"><h1>Lamps</h1><ul>`+productItems()+`</ul></div>
<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"products":`+productsJSON()+`}},"page":"/next/shop","query":{},"buildId":"b1d-42","isFallback":false,"gssp":true}</script>
</body></html>`)
	case p == "/_next/data/b1d-42/next/shop.json":
		text(w, "application/json", `{"pageProps":{"products":`+productsJSON()+`},"__N_SSP":true}`)
	case strings.HasPrefix(p, "/shop/products/"):
		h := strings.TrimPrefix(p, "/shop/products/")
		text(w, "text/html", `<!doctype html><html><head><title>`+h+` – Lamp &amp; Chair</title>
<meta name="shopify-checkout-api-token" content="not-a-real-token">
<script>var Shopify = Shopify || {}; Shopify.shop = "lamp-and-chair.myshopify.com"; Shopify.theme = {"name":"Dawn"};</script>
</head><body><h1>`+h+`</h1></body></html>`)
	case p == "/products.json":
		text(w, "application/json", `{"products":`+productsJSON()+`}`)
	case p == "/openapi.json":
		text(w, "application/json", `{"openapi":"3.1.0","info":{"title":"Shop API","version":"1"},"servers":[{"url":"/api"}],
"paths":{
 "/products":{"get":{"operationId":"listProducts","summary":"List products","parameters":[{"name":"cursor","in":"query"}],"responses":{"200":{"content":{"application/json":{}}}}}},
 "/products/{id}":{"get":{"operationId":"getProduct","responses":{"200":{"content":{"application/json":{}}}}}},
 "/orders":{"post":{"operationId":"placeOrder","responses":{"201":{"content":{"application/json":{}}}}}},
 "/account/delete":{"get":{"operationId":"deleteAccount","responses":{"200":{"content":{"application/json":{}}}}}},
 "/report.pdf":{"get":{"responses":{"200":{"content":{"application/pdf":{}}}}}}
}}`)
	case p == "/api/products":
		text(w, "application/json", `{"items":`+productsJSON()+`,"next":null}`)
	case p == "/tools":
		text(w, "text/html", toolsPage)
	case p == "/tools/cart":
		s.mu.Lock()
		if r.Method == http.MethodPost {
			s.cart++
		}
		n := s.cart
		s.mu.Unlock()
		text(w, "application/json", fmt.Sprintf(`{"items":%d}`, n))
	case p == "/":
		text(w, "text/html", `<!doctype html><html><head><title>Lamp &amp; Chair</title></head><body><a href="/blog">Blog</a> <a href="/logout">Sign out</a></body></html>`)
	case p == "/about" || p == "/returns-policy" || strings.HasPrefix(p, "/blog/") || strings.HasPrefix(p, "/docs/"):
		text(w, "text/html", `<!doctype html><html><head><title>`+p+`</title></head><body><h1>`+p+`</h1></body></html>`)
	default:
		http.NotFound(w, r)
	}
}

// crawlOnly serves the site with no list of its pages.
func (s *Site) crawlOnly(w http.ResponseWriter, r *http.Request) {
	switch p := r.URL.Path; p {
	case "/":
		text(w, "text/html", `<!doctype html><html><head><title>Lamp &amp; Chair</title><meta name="description" content="Lamps and chairs"></head><body>
<a href="/lamps">Lamps</a> <a href="/chairs#top">Chairs</a> <a href="/logout">Sign out</a> <a href="/account/delete">Delete my account</a>
<a href="/calendar?month=1">Calendar</a> <a href="http://127.0.0.2:1/elsewhere">Elsewhere</a> <a href="mailto:shop@example.com">Mail</a>
<a href="/private/admin">Admin</a>
</body></html>`)
	case "/lamps":
		text(w, "text/html", `<!doctype html><html><head><title>Desk and floor lamps</title><meta name="description" content="Brass desk lamps and tall floor lamps"></head><body><a href="/lamps/desk">Desk lamp</a> <a href="/">Home</a> <a href="/cart?add-to-cart=3">Add to cart</a></body></html>`)
	case "/lamps/desk":
		text(w, "text/html", `<!doctype html><html><head><title>Brass desk lamp</title></head><body><a href="/lamps">Back</a> <a href="/lamps/desk/deeper">Deeper</a></body></html>`)
	case "/chairs":
		text(w, "text/html", `<!doctype html><html><head><title>Oak chairs</title></head><body><a href="/">Home</a></body></html>`)
	case "/calendar":
		var m int
		fmt.Sscan(r.URL.Query().Get("month"), &m)
		text(w, "text/html", fmt.Sprintf(`<!doctype html><html><head><title>Calendar %d</title></head><body><a href="/calendar?month=%d">Next</a> <a href="/calendar?month=%d&amp;y=1">Also</a></body></html>`, m, m+1, m+2))
	case "/robots.txt":
		text(w, "text/plain", "User-agent: *\nDisallow: /private/\n")
	default:
		http.NotFound(w, r)
	}
}

func text(w http.ResponseWriter, ctype, body string) {
	w.Header().Set("Content-Type", ctype+"; charset=utf-8")
	io.WriteString(w, body)
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	io.WriteString(zw, s)
	zw.Close()
	return b.Bytes()
}

func productItems() string {
	var b strings.Builder
	for _, p := range Products {
		fmt.Fprintf(&b, "<li>%s <span>%s</span></li>", p.Title, p.Price)
	}
	return b.String()
}

func productsJSON() string {
	var b strings.Builder
	b.WriteString("[")
	for i, p := range Products {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"handle":%q,"title":%q,"price":%q}`, p.Handle, p.Title, p.Price)
	}
	b.WriteString("]")
	return b.String()
}
