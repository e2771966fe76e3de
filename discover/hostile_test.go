package discover_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/waymark-dev/waymark/discover"
	"github.com/waymark-dev/waymark/policy"
)

// counter is a hostile site that counts what reaches it.
type counter struct {
	mu   sync.Mutex
	hits map[string]int
	h    func(w http.ResponseWriter, r *http.Request, origin string)
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.hits[r.URL.Path]++
	c.mu.Unlock()
	c.h(w, r, "http://"+r.Host)
}

func (c *counter) count(p string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits[p]
}

func hostile(t *testing.T, h func(w http.ResponseWriter, r *http.Request, origin string)) (*counter, *httptest.Server) {
	c := &counter{hits: map[string]int{}, h: h}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	return c, srv
}

func urlset(origin string, paths ...string) string {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, p := range paths {
		fmt.Fprintf(&b, "<url><loc>%s%s</loc></url>", origin, p)
	}
	return b.String() + "</urlset>"
}

func index(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		fmt.Fprintf(&b, "<sitemap><loc>%s</loc></sitemap>", l)
	}
	return b.String() + "</sitemapindex>"
}

// TestSitemapHostile: the bounds hold against a hostile site. An index
// nested without end stops at the depth bound; an index that names
// itself is read once; a sitemap with more URLs than allowed is cut; a
// gzip bomb is refused after the bytes allowed; a sitemap on another
// origin, on a private address, or on a path the policy blocks is never
// requested; a redirect is followed only on the site.
func TestSitemapHostile(t *testing.T) {
	t.Parallel()
	bomb := func() []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		io.WriteString(zw, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`)
		zw.Write(bytes.Repeat([]byte("a"), 64<<20))
		zw.Close()
		return b.Bytes()
	}()
	c, srv := hostile(t, func(w http.ResponseWriter, r *http.Request, origin string) {
		var depth int
		switch p := r.URL.Path; {
		case p == "/robots.txt":
			fmt.Fprintf(w, "Sitemap: http://10.1.2.3/sitemap.xml\nSitemap: %s/blocked/sitemap.xml\nSitemap: %s/moved.xml\nSitemap: %s/away.xml\n", origin, origin, origin)
			fmt.Fprintf(w, "Sitemap: %s/deep/0.xml\nSitemap: %s/self.xml\nSitemap: %s/bomb.xml.gz\nSitemap: %s/huge.xml\n", origin, origin, origin, origin)
		case strings.HasPrefix(p, "/deep/"):
			fmt.Sscanf(p, "/deep/%d.xml", &depth)
			io.WriteString(w, index(fmt.Sprintf("%s/deep/%d.xml", origin, depth+1)))
		case p == "/self.xml":
			io.WriteString(w, index(origin+"/self.xml", origin+"/self.xml"))
		case p == "/huge.xml":
			var b strings.Builder
			b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range 5000 {
				fmt.Fprintf(&b, "<url><loc>%s/p/%d</loc></url>", origin, i)
			}
			io.WriteString(w, b.String()+"</urlset>")
		case p == "/bomb.xml.gz":
			w.Header().Set("Content-Type", "application/gzip")
			w.Write(bomb)
		case p == "/moved.xml":
			http.Redirect(w, r, "/real.xml", http.StatusMovedPermanently)
		case p == "/real.xml":
			io.WriteString(w, urlset(origin, "/moved-page", "/logout")+"")
		case p == "/away.xml":
			http.Redirect(w, r, "http://10.9.9.9/sitemap.xml", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	})
	pol, err := policy.New(policy.Options{Block: []string{srv.URL + "/blocked/"}})
	if err != nil {
		t.Fatal(err)
	}
	s, ctx := newSession(t)
	onSite(t, ctx, s, srv.URL)
	m, err := discover.Sitemap(ctx, s, srv.URL, discover.Options{Limit: -1, MaxURLs: 1000, MaxDepth: 3, MaxBytes: 1 << 20, Policy: pol, CrawlPages: -1})
	if err != nil {
		t.Fatal(err)
	}
	if n := c.count("/deep/4.xml") + c.count("/deep/5.xml"); n != 0 || c.count("/deep/3.xml") != 1 {
		t.Errorf("nested indexes: depth 3 read %d times, deeper %d times; want 1 and 0", c.count("/deep/3.xml"), n)
	}
	if n := c.count("/self.xml"); n != 1 {
		t.Errorf("an index naming itself was read %d times", n)
	}
	if m.Found != 1000 {
		t.Errorf("found %d pages, want the 1000 allowed", m.Found)
	}
	if c.count("/blocked/sitemap.xml") != 0 {
		t.Error("a sitemap the policy blocks was requested")
	}
	if c.count("/real.xml") != 1 || c.count("/moved.xml") != 1 {
		t.Errorf("the same-origin redirect: /moved.xml %d, /real.xml %d requests", c.count("/moved.xml"), c.count("/real.xml"))
	}
	whys := map[string]string{}
	for _, sk := range m.Skipped {
		whys[strings.TrimPrefix(sk.URL, srv.URL)] = sk.Why
	}
	for u, want := range map[string]string{
		"http://10.1.2.3/sitemap.xml": "another origin",
		"/blocked/sitemap.xml":        "URL policy",
		"/bomb.xml.gz":                "gzip bomb",
		"http://10.9.9.9/sitemap.xml": "a redirect from " + srv.URL + "/away.xml",
		"/deep/4.xml":                 "nested deeper",
	} {
		if !strings.Contains(whys[u], want) {
			t.Errorf("skipped %s: %q, want it to say %q (all: %v)", u, whys[u], want, whys)
		}
	}
	if len(m.Truncated) == 0 {
		t.Error("no bound is reported as truncating")
	}
	if c.count("/logout") != 0 {
		t.Error("a listed /logout was requested")
	}
}
