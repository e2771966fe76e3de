package discover

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/waymark-dev/waymark/internal/lazyre"
)

// platform is a known site platform: how its markup shows it, and the
// JSON views it gives of a page. Detection reads markup only (meta
// generator, known globals in inline scripts, script hosts, link rels):
// a view is proposed only for a platform the page shows, never guessed.
type platform struct {
	name, label string
	// detect returns the evidence, or "" when the page shows none.
	detect func(p *page) string
	views  func(base *url.URL, p *page) []Candidate
}

var platforms = []platform{
	{name: "shopify", label: "Shopify", detect: detectShopify, views: shopifyViews},
	{name: "woocommerce", label: "WooCommerce", detect: detectWoo, views: wooViews},
	{name: "wordpress", label: "WordPress", detect: detectWordPress, views: wordPressViews},
	{name: "discourse", label: "Discourse", detect: detectDiscourse, views: discourseViews},
	{name: "nextjs", label: "Next.js", detect: detectNext, views: nextViews},
}

// generator returns the page's meta generator, lower-cased.
func (p *page) generator() string {
	g, _ := p.meta("generator")
	return strings.ToLower(g)
}

// scriptHas says whether an inline script holds any of the strings.
func (p *page) scriptHas(s ...string) string {
	for _, sc := range p.Scripts {
		for _, x := range s {
			if strings.Contains(sc.Text, x) {
				return x
			}
		}
	}
	return ""
}

func detectShopify(p *page) string {
	for _, m := range []string{"shopify-checkout-api-token", "shopify-digital-wallet"} {
		if _, ok := p.meta(m); ok {
			return "meta " + m
		}
	}
	if g := p.scriptHas("Shopify.theme", "Shopify.shop"); g != "" {
		return "script " + g
	}
	for _, s := range p.ScriptSrcs {
		if strings.Contains(s, "cdn.shopify.com") {
			return "script from cdn.shopify.com"
		}
	}
	return ""
}

func shopifyViews(base *url.URL, _ *page) []Candidate {
	var out []Candidate
	parts := strings.Split(strings.Trim(base.Path, "/"), "/")
	for i := 0; i+1 < len(parts); i++ {
		switch parts[i] {
		case "products":
			h := strings.TrimSuffix(parts[i+1], ".js")
			out = append(out,
				Candidate{URL: "/products/" + h + ".js", Source: "product.js of /products/" + h},
				Candidate{URL: "/products/" + h + ".json", Source: "product JSON of /products/" + h})
		case "collections":
			out = append(out, Candidate{URL: "/collections/" + parts[i+1] + "/products.json", Source: "products of collection " + parts[i+1]})
		}
	}
	return append(out, Candidate{URL: "/products.json", Source: "the store's products"})
}

func detectWoo(p *page) string {
	if g := p.generator(); strings.HasPrefix(g, "woocommerce") {
		return "meta generator " + g
	}
	if hasWord(p.BodyClass, "woocommerce") || hasWord(p.BodyClass, "woocommerce-page") {
		return "body class woocommerce"
	}
	if g := p.scriptHas("wc_add_to_cart_params", "woocommerce_params", "wcSettings"); g != "" {
		return "script " + g
	}
	for _, s := range p.ScriptSrcs {
		if strings.Contains(s, "/plugins/woocommerce/") {
			return "script from plugins/woocommerce"
		}
	}
	return ""
}

// wpRoot is the REST root the page links (rel="https://api.w.org/"), or
// the default /wp-json/.
func wpRoot(p *page) (string, bool) {
	for _, l := range p.LinkRels {
		if l.Rel == "https://api.w.org/" && l.Href != "" {
			return strings.TrimSuffix(l.Href, "/") + "/", true
		}
	}
	return "/wp-json/", false
}

func wooViews(_ *url.URL, p *page) []Candidate {
	root, _ := wpRoot(p)
	return []Candidate{{URL: root + "wc/store/v1/products", Source: "Store API products"}}
}

func detectWordPress(p *page) string {
	if g := p.generator(); strings.HasPrefix(g, "wordpress") {
		return "meta generator " + g
	}
	if _, ok := wpRoot(p); ok {
		return `link rel="https://api.w.org/"`
	}
	return ""
}

func wordPressViews(_ *url.URL, p *page) []Candidate {
	root, _ := wpRoot(p)
	var out []Candidate
	for _, l := range p.LinkRels {
		// WordPress links the REST view of the post or page shown.
		if hasWord(l.Rel, "alternate") && l.Type == "application/json" && l.Href != "" {
			out = append(out, Candidate{URL: l.Href, Source: "link rel=alternate type=application/json (this page's REST view)"})
		}
	}
	return append(out, Candidate{URL: root + "wp/v2/posts", Source: "REST posts"})
}

func detectDiscourse(p *page) string {
	if g := p.generator(); strings.HasPrefix(g, "discourse") {
		return "meta generator " + g
	}
	for _, m := range []string{"discourse_theme_id", "discourse_current_homepage"} {
		if _, ok := p.meta(m); ok {
			return "meta " + m
		}
	}
	return ""
}

func discourseViews(base *url.URL, _ *page) []Candidate {
	path := strings.TrimSuffix(base.Path, "/")
	if path == "" {
		path = "/latest"
	}
	u := &url.URL{Path: path + ".json", RawQuery: base.RawQuery}
	return []Candidate{{URL: u.String(), Source: "the .json view of " + path}}
}

// nextData is the part of __NEXT_DATA__ a data route needs.
type nextData struct {
	BuildID string `json:"buildId"`
	Page    string `json:"page"`
}

var buildIDShape = lazyre.New(`^[A-Za-z0-9_.-]{1,100}$`)

func (p *page) nextData() (nextData, bool) {
	for _, s := range p.Scripts {
		if s.ID != "__NEXT_DATA__" {
			continue
		}
		var nd nextData
		if json.Unmarshal([]byte(s.Text), &nd) == nil && buildIDShape.MatchString(nd.BuildID) {
			return nd, true
		}
	}
	return nextData{}, false
}

func detectNext(p *page) string {
	if _, ok := p.nextData(); ok {
		return "script __NEXT_DATA__ with a buildId"
	}
	return ""
}

// nextViews gives the data route of the page: /_next/data/BUILD/PATH.json,
// the page's props as the Next.js router fetches them on a client-side
// navigation.
func nextViews(base *url.URL, p *page) []Candidate {
	nd, _ := p.nextData()
	path := strings.TrimSuffix(base.Path, "/")
	if path == "" {
		path = "/index"
	}
	u := &url.URL{Path: "/_next/data/" + nd.BuildID + path + ".json", RawQuery: base.RawQuery}
	return []Candidate{{URL: u.String(), Source: "data route from __NEXT_DATA__.buildId " + nd.BuildID}}
}
