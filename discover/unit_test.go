package discover

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestActs(t *testing.T) {
	for raw, want := range map[string]string{
		"https://s.example/logout":                 "logout",
		"https://s.example/account/signOut":        "sign out",
		"https://s.example/user/log-out?next=/":    "log out",
		"https://s.example/cart?add-to-cart=12":    "add",
		"https://s.example/orders/7/cancel":        "cancel",
		"https://s.example/newsletter/unsubscribe": "unsubscribe",
		"https://s.example/api/items/3/DELETE":     "delete",
		"https://s.example/products/desk-lamp":     "",
		"https://s.example/orders":                 "",
		"https://s.example/blog/spring":            "",
	} {
		u, _ := url.Parse(raw)
		if got := Acts(u); got != want {
			t.Errorf("Acts(%s) = %q, want %q", raw, got, want)
		}
	}
}

func TestFromMarkupPlatforms(t *testing.T) {
	cases := []struct {
		name, page, markup string
		want               []string
	}{
		{"woocommerce", "https://s.example/shop/", `<meta name="generator" content="WooCommerce 9.1"><body class="home woocommerce-page">`,
			[]string{"https://s.example/wp-json/wc/store/v1/products"}},
		{"discourse", "https://forum.example/t/lamps/12", `<meta name="discourse_theme_id" content="3">`,
			[]string{"https://forum.example/t/lamps/12.json"}},
		{"discourse home", "https://forum.example/", `<meta name="generator" content="Discourse 3.4">`,
			[]string{"https://forum.example/latest.json"}},
		{"next index", "https://n.example/?page=2", `<script id="__NEXT_DATA__" type="application/json">{"buildId":"abc","page":"/"}</script>`,
			[]string{"https://n.example/_next/data/abc/index.json?page=2"}},
		{"next, a buildId that escapes", "https://n.example/x", `<script id="__NEXT_DATA__" type="application/json">{"buildId":"../../admin"}</script>`, nil},
		{"no platform, no guess", "https://plain.example/products/lamp", `<title>Lamp</title><p>Shopify.theme in prose is not a script</p>`, nil},
		{"shopify collection", "https://s.example/collections/lamps", `<script src="https://cdn.shopify.com/s/x.js"></script>`,
			[]string{"https://s.example/collections/lamps/products.json", "https://s.example/products.json"}},
	}
	for _, tc := range cases {
		cands, err := FromMarkup(tc.page, []byte(tc.markup))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cands {
			got = append(got, c.URL)
			if c.Source == "" || c.Kind != "platform" {
				t.Errorf("%s: %+v", tc.name, c)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestRobots(t *testing.T) {
	r := parseRobots([]byte("User-agent: Googlebot\nDisallow: /g/\n\nUser-agent: *\nDisallow: /private/\nDisallow: /*.pdf$\n# c\nSitemap: https://s.example/a.xml\n"), robotsAgent)
	if !slices.Equal(r.Sitemaps, []string{"https://s.example/a.xml"}) {
		t.Errorf("sitemaps %q", r.Sitemaps)
	}
	for p, want := range map[string]bool{"/private/x": true, "/g/x": false, "/doc/a.pdf": true, "/doc/a.pdfx": false, "/": false} {
		if got := r.disallowed(p); got != want {
			t.Errorf("disallowed(%s) = %v", p, got)
		}
	}
}

func TestRank(t *testing.T) {
	pages := []Page{
		{URL: "https://s.example/about"},
		{URL: "https://s.example/lamps/floor", Title: "Floor lamps"},
		{URL: "https://s.example/lamps/desk", Title: "Brass desk lamp", Description: "A desk lamp"},
		{URL: "https://s.example/desks"},
	}
	got := rank(pages, "desk lamp")
	var us []string
	for _, p := range got {
		us = append(us, strings.TrimPrefix(p.URL, "https://s.example"))
	}
	if len(us) != 3 || us[0] != "/lamps/desk" || slices.Contains(us, "/about") {
		t.Errorf("ranked %q", us)
	}
	if len(rank(pages, "")) != 4 {
		t.Error("no query must keep every page")
	}
}

func TestParseSitemapText(t *testing.T) {
	d, err := parseSitemap([]byte("https://s.example/a\nnot a url\nhttps://s.example/b\nhttps://s.example/c\n"), 2)
	if err != nil || len(d.Locs) != 2 || !d.More {
		t.Errorf("%+v %v", d, err)
	}
	if _, err := parseSitemap([]byte(`<!DOCTYPE x [<!ENTITY a "aaaa">]><urlset><url><loc>&a;</loc></url></urlset>`), 10); err == nil {
		t.Error("an entity the file declares was expanded")
	}
}

// TestTitlesLeaveOnOneLine: a title or description a site wrote, from any
// source, comes out on one line with no control character, so that no
// caller that prints it lets a site start a line of its own or act on a
// terminal.
func TestTitlesLeaveOnOneLine(t *testing.T) {
	site := &fakeSite{pages: map[string]string{
		"/llms.txt": "# Shop\n\n- [Lamps\x1b[2K\rwaymark: ok\u0085](https://api.example/lamps): Brass\x07 lamps\n",
	}}
	m, err := Sitemap(context.Background(), site, "https://api.example/", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Pages) != 1 {
		t.Fatalf("pages %+v", m.Pages)
	}
	p := m.Pages[0]
	if p.Title != "Lamps [2K waymark: ok" || p.Description != "Brass lamps" {
		t.Errorf("title %q, description %q", p.Title, p.Description)
	}
}
