package shapes

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// APICase is a list page whose rows come from the site's own API, in a
// shape other than the page's: amounts in cents, nested and renamed keys,
// paging by offset, cursor, page number, a number in the path, or a
// GraphQL query. The page formats the values itself (Intl, in its
// locale), as sites do.
type APICase struct {
	Name   string
	Shape  string // cents-offset, nested-cursor, renamed-page, path-segment, graphql
	Locale string
	Traits []string
	// Fields are the list's fields as the browser reads them (name,
	// price, in_stock, released).
	Fields []string
	// Pages are the truth: each API page's rows, as the page's values
	// (price an amount, in_stock a boolean, released an ISO day).
	Pages [][]map[string]any

	loc   *locale
	cents bool
}

// Truth is every row, in order.
func (c *APICase) Truth() []map[string]any {
	var out []map[string]any
	for _, p := range c.Pages {
		out = append(out, p...)
	}
	return out
}

var apiShapes = []string{"cents-offset", "nested-cursor", "renamed-page", "path-segment", "graphql"}

func genAPI(r *rand.Rand, i int) *APICase {
	c := &APICase{Shape: apiShapes[i%len(apiShapes)]}
	switch c.Shape {
	case "renamed-page", "path-segment":
		c.loc = locales[(i/len(apiShapes)*2+i)%len(locales)]
	default: // amounts in cents: a currency with hundredths
		c.loc = locales[(i/len(apiShapes)+i)%4]
	}
	c.Locale = c.loc.Tag
	c.Fields = []string{"name", "price"}
	switch c.Shape {
	case "cents-offset":
		c.Fields = append(c.Fields, "in_stock", "released")
		c.Traits = []string{"cents", "offset", "booleans-as-words", "written-dates"}
		c.cents = true
	case "nested-cursor":
		c.Fields = append(c.Fields, "in_stock")
		c.Traits = []string{"nested", "cursor", "booleans-as-words"}
	case "renamed-page":
		c.Fields = append(c.Fields, "released")
		c.Traits = []string{"renamed", "page-number", "amount-as-text", "written-dates"}
	case "path-segment":
		c.Traits = []string{"path-segment"}
	case "graphql":
		c.Fields = append(c.Fields, "in_stock")
		c.Traits = []string{"graphql", "cursor", "cents", "nested"}
		c.cents = true
	}
	per := 5 + r.IntN(2)
	keys := names(r, 3*per, adjectives, things)
	day := time.Date(2026, 2, 20, 0, 0, 0, 0, time.UTC)
	for p := range 3 {
		var rows []map[string]any
		for j := range per {
			cents := 500 + r.IntN(90000)
			if !c.loc.minor {
				cents = 500 + r.IntN(40000)
			}
			row := map[string]any{"name": keys[p*per+j], "price": c.loc.amount(cents), "in_stock": r.IntN(3) > 0,
				"released": day.AddDate(0, 0, -(p*per+j)*2).Format("2006-01-02")}
			rows = append(rows, row)
		}
		c.Pages = append(c.Pages, rows)
	}
	c.Name = fmt.Sprintf("%02d-%s-%s", i+1, c.Shape, c.Locale)
	return c
}

// item is a row as the API writes it.
func (c *APICase) item(row map[string]any, n int) map[string]any {
	amount := row["price"].(float64)
	cents := int(amount*100 + 0.5)
	switch c.Shape {
	case "cents-offset":
		return map[string]any{"id": 1000 + n, "name": row["name"], "price_cents": cents, "currency": currencyCode(c.loc), "in_stock": row["in_stock"], "released": row["released"]}
	case "nested-cursor":
		return map[string]any{"node": map[string]any{"id": fmt.Sprintf("gid://shop/Product/%d", 5000+n), "title": row["name"],
			"pricing": map[string]any{"amount": amount, "currency": currencyCode(c.loc)}, "availability": map[string]any{"inStock": row["in_stock"]}}}
	case "renamed-page":
		return map[string]any{"uuid": fmt.Sprintf("p-%04d", n), "product_name": row["name"], "cost": strconv.FormatFloat(amount, 'f', 2, 64), "released_at": row["released"].(string) + "T09:30:00Z"}
	case "path-segment":
		return map[string]any{"slug": strings.ToLower(strings.ReplaceAll(row["name"].(string), " ", "-")), "name": row["name"], "price": amount}
	default: // graphql
		return map[string]any{"__typename": "Product", "sku": fmt.Sprintf("SKU-%d", 700+n), "name": row["name"], "price": map[string]any{"cents": cents, "currencyCode": currencyCode(c.loc)}, "inStock": row["in_stock"]}
	}
}

func currencyCode(l *locale) string {
	return map[string]string{"$": "USD", "£": "GBP", "€": "EUR", "¥": "JPY"}[l.currency]
}

func cursorOf(page int) string {
	return strings.TrimRight(base64.URLEncoding.EncodeToString([]byte(fmt.Sprintf("cursor:v1:%d", page*7919))), "=")
}

func pageOfCursor(s string) int {
	if s == "" {
		return 0
	}
	for p := 1; p < 10; p++ {
		if cursorOf(p) == s {
			return p
		}
	}
	return -1
}

// Handler serves the page at / and the API behind it.
func (c *APICase) Handler() http.Handler {
	per := len(c.Pages[0])
	items := func(p int) []any {
		var out []any
		for j, row := range c.Pages[p] {
			out = append(out, c.item(row, p*per+j))
		}
		return out
	}
	js := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(v)
	}
	last := len(c.Pages) - 1
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		q := req.URL.Query()
		switch {
		case req.URL.Path == "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, c.page())
		case c.Shape == "cents-offset" && req.URL.Path == "/api/products":
			off, _ := strconv.Atoi(q.Get("offset"))
			lim, _ := strconv.Atoi(q.Get("limit"))
			if lim != per || off%per != 0 || off/per > last+1 {
				http.Error(w, `{"error":"bad range"}`, http.StatusBadRequest)
				return
			}
			out := []any{}
			if off/per <= last {
				out = items(off / per)
			}
			js(w, map[string]any{"items": out, "offset": off, "limit": lim, "total": per * len(c.Pages)})
		case c.Shape == "nested-cursor" && req.URL.Path == "/api/v2/catalog":
			p := pageOfCursor(q.Get("cursor"))
			if p < 0 || p > last {
				http.Error(w, `{"errors":["bad cursor"]}`, http.StatusBadRequest)
				return
			}
			info := map[string]any{"hasNextPage": p < last, "endCursor": nil}
			if p < last {
				info["endCursor"] = cursorOf(p + 1)
			}
			js(w, map[string]any{"data": map[string]any{"products": map[string]any{"edges": items(p), "pageInfo": info}}, "meta": map[string]any{"locale": c.Locale}})
		case c.Shape == "renamed-page" && req.URL.Path == "/api/list":
			p, _ := strconv.Atoi(q.Get("page"))
			if p < 1 || p > last+1 {
				http.Error(w, "no such page", http.StatusNotFound)
				return
			}
			next := ""
			if p <= last {
				next = fmt.Sprintf("/api/list?page=%d", p+1)
			}
			js(w, map[string]any{"count": per * len(c.Pages), "next": next, "results": items(p - 1)})
		case c.Shape == "path-segment" && strings.HasPrefix(req.URL.Path, "/data/lamps"):
			p := 1
			name := strings.TrimSuffix(strings.TrimPrefix(req.URL.Path, "/data/lamps"), ".json")
			if name != "" {
				var err error
				if p, err = strconv.Atoi(strings.TrimPrefix(name, "-")); err != nil || p < 2 {
					http.NotFound(w, req)
					return
				}
			}
			if p > last+1 {
				http.NotFound(w, req)
				return
			}
			js(w, items(p-1))
		case c.Shape == "graphql" && req.URL.Path == "/graphql" && req.Method == http.MethodPost:
			var body struct {
				Query     string         `json:"query"`
				Variables map[string]any `json:"variables"`
			}
			b, _ := io.ReadAll(req.Body)
			if json.Unmarshal(b, &body) != nil || !strings.Contains(body.Query, "products") {
				http.Error(w, `{"errors":[{"message":"bad query"}]}`, http.StatusBadRequest)
				return
			}
			after, _ := body.Variables["after"].(string)
			p := pageOfCursor(after)
			if p < 0 || p > last {
				js(w, map[string]any{"errors": []any{map[string]any{"message": "bad cursor"}}})
				return
			}
			info := map[string]any{"hasNextPage": p < last, "endCursor": cursorOf(p + 1)}
			js(w, map[string]any{"data": map[string]any{"products": map[string]any{"nodes": items(p), "pageInfo": info}}})
		default:
			http.NotFound(w, req)
		}
	})
}

// page is the list page: its own script calls the API and formats each
// value in the page's locale.
func (c *APICase) page() string {
	per := len(c.Pages[0])
	var fetchJS string
	switch c.Shape {
	case "cents-offset":
		fetchJS = fmt.Sprintf(`const j = await (await fetch('/api/products?offset=' + (n-1)*%d + '&limit=%d')).json();
  return j.items.map(i => ({name: i.name, amount: i.price_cents / 100, stock: i.in_stock, date: i.released}));`, per, per)
	case "nested-cursor":
		fetchJS = `const j = await (await fetch('/api/v2/catalog' + (cursor ? '?cursor=' + encodeURIComponent(cursor) : ''))).json();
  cursor = j.data.products.pageInfo.endCursor;
  return j.data.products.edges.map(e => ({name: e.node.title, amount: e.node.pricing.amount, stock: e.node.availability.inStock}));`
	case "renamed-page":
		fetchJS = `const j = await (await fetch('/api/list?page=' + n)).json();
  return j.results.map(i => ({name: i.product_name, amount: parseFloat(i.cost), date: i.released_at}));`
	case "path-segment":
		fetchJS = `const j = await (await fetch(n === 1 ? '/data/lamps.json' : '/data/lamps-' + n + '.json')).json();
  return j.map(i => ({name: i.name, amount: i.price}));`
	default:
		fetchJS = `const q = 'query Products($after: String) { products(first: ` + strconv.Itoa(per) + `, after: $after) { nodes { sku name price { cents currencyCode } inStock } pageInfo { endCursor hasNextPage } } }';
  const j = await (await fetch('/graphql', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({operationName: 'Products', query: q, variables: {after: cursor}})})).json();
  cursor = j.data.products.pageInfo.endCursor;
  return j.data.products.nodes.map(i => ({name: i.name, amount: i.price.cents / 100, stock: i.inStock}));`
	}
	return fmt.Sprintf(`<!doctype html><html lang="%[1]s"><head><meta charset="utf-8"><title>Catalogue</title></head><body>
<header><nav><a href="/">Home</a> <a href="/cart">Cart</a></nav></header><main><h1>Catalogue</h1><ul id="list"></ul>
<button type="button" id="next">%[2]s</button></main><script>
const money = new Intl.NumberFormat('%[1]s', {style: 'currency', currency: '%[3]s'});
const day = new Intl.DateTimeFormat('%[1]s', {dateStyle: 'long', timeZone: 'UTC'});
let n = 1, cursor = null;
async function load() {
  %[4]s
}
async function show() {
  const rows = await load();
  document.getElementById('list').innerHTML = rows.map(r => '<li><h3>' + r.name + '</h3><span class="price">' + money.format(r.amount) + '</span>' +
    (r.stock === undefined ? '' : ' <span class="stock">' + (r.stock ? '%[5]s' : '%[6]s') + '</span>') +
    (r.date === undefined ? '' : ' <time>' + day.format(new Date(r.date)) + '</time>') + '</li>').join('');
  document.body.dataset.page = n;
}
document.getElementById('next').addEventListener('click', () => { n++; show(); });
show();
</script></body></html>`, c.loc.Tag, c.loc.Next, currencyCode(c.loc), fetchJS, c.loc.Yes, c.loc.No)
}

// ReadJS reads the list as the page shows it, one object a row with the
// case's fields as the page writes them: what a list read gives.
const ReadJS = `Array.from(document.querySelectorAll('#list li')).map(li => {
  const o = {name: li.querySelector('h3').textContent, price: li.querySelector('.price').textContent};
  const s = li.querySelector('.stock'); if (s) o.in_stock = s.textContent;
  const t = li.querySelector('time'); if (t) o.released = t.textContent;
  return o;
})`
