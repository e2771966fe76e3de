package shapes

import (
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ListCase is one list page (or a list over pages) and its truth.
type ListCase struct {
	Name   string // "07-cards-de-load-more"
	Layout string // table, cards, feed
	Family string // products, books, posts, jobs
	Locale string
	// Paging is how the list goes on: none, links (?page=N with a next
	// link), load-more (a button that appends), scroll (appends as the
	// page is scrolled).
	Paging string
	// Traits name the shapes the case holds: null-words (words where a
	// number is), date-words (words where a date is), booleans-as-words,
	// sale-on-page-3, missing-author,
	// written-dates.
	Traits      []string
	Instruction string
	Schema      string
	Key         string // the field that names a row
	// Pages are the truth: the rows each page (or each appended batch)
	// shows, as the schema's values.
	Pages [][]map[string]any

	loc    *locale
	fields []string
	shown  [][]map[string]string // per page, per row: each field's markup ("" for none)
	cls    map[string]string     // class names of this site
}

// Truth is every row of the list, in page order.
func (c *ListCase) Truth() []map[string]any {
	var out []map[string]any
	for _, p := range c.Pages {
		out = append(out, p...)
	}
	return out
}

// ModelRows are the rows as a model writes them from the page: the
// truth, with dates as the page writes them (waymark gives them in ISO
// 8601 itself).
func (c *ListCase) ModelRows() []map[string]any {
	var out []map[string]any
	for p, rows := range c.Pages {
		for j, row := range rows {
			m := map[string]any{}
			for k, v := range row {
				m[k] = v
				if (k == "published" || k == "posted") && v != nil {
					m[k] = c.shown[p][j][k]
				}
			}
			out = append(out, m)
		}
	}
	return out
}

// Fields are the fields of the list's rows.
func (c *ListCase) Fields() []string { return c.fields }

// Has says whether the case holds a trait.
func (c *ListCase) Has(trait string) bool {
	for _, t := range c.Traits {
		if t == trait {
			return true
		}
	}
	return false
}

var (
	layouts = []string{"table", "cards", "feed"}
	pagings = []string{"none", "links", "load-more", "scroll"}
)

func genList(r *rand.Rand, i int) *ListCase {
	c := &ListCase{Layout: layouts[i%3], Paging: pagings[(i/3)%4], loc: locales[i%len(locales)], cls: map[string]string{}}
	c.Locale = c.loc.Tag
	switch c.Layout {
	case "table":
		c.Family = []string{"products", "jobs"}[(i/3)%2]
	case "cards":
		c.Family = []string{"books", "products"}[(i/3)%2]
	default:
		c.Family = "posts"
	}
	pages, per := 1, 6+r.IntN(3)
	if c.Paging != "none" {
		pages, per = 3, 4+r.IntN(2)
	}
	nullWords := i%4 == 1 || r.IntN(2) == 0
	paged := pages > 1
	switch c.Family {
	case "products":
		c.fields = []string{"name", "sku", "price"}
		c.Key = "name"
		c.Instruction = "every product with its SKU and price"
		if r.IntN(2) == 0 {
			c.fields = append(c.fields, "in_stock")
			c.Traits = append(c.Traits, "booleans-as-words")
			c.Instruction += ", and whether it is in stock"
		}
		if paged && r.IntN(3) > 0 {
			c.fields = append(c.fields, "sale_price")
			c.Traits = append(c.Traits, "sale-on-page-3")
			c.Instruction += ", and the sale price where there is one"
		}
	case "books":
		c.fields = []string{"title", "author", "price", "published"}
		c.Key = "title"
		c.Instruction = "every book: title, author, price and publication date"
		c.Traits = append(c.Traits, "written-dates")
		if r.IntN(2) == 0 {
			c.Traits = append(c.Traits, "date-words")
		}
	case "posts":
		c.fields = []string{"title", "author", "posted", "comments"}
		c.Key = "title"
		c.Instruction = "every post: title, author, date and number of comments"
		c.Traits = append(c.Traits, "written-dates")
	case "jobs":
		c.fields = []string{"title", "location", "salary"}
		c.Key = "title"
		c.Instruction = "every job opening with its location and yearly salary"
	}
	if (c.Family == "books" || c.Family == "posts") && paged && r.IntN(2) == 0 {
		c.Traits = append(c.Traits, "missing-author")
	}
	if nullWords {
		c.Traits = append(c.Traits, "null-words")
	}
	c.Schema = listSchema(c.fields, c.Has("date-words"))
	for _, f := range append([]string{"row", "box"}, c.fields...) {
		c.cls[f] = fmt.Sprintf("%s-%x", pick(r, "sc", "css", "x", "tw", "jsx"), r.Uint32()&0xfffff)
	}

	keys := rowKeys(r, c.Family, pages*per)
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for p := range pages {
		var truth []map[string]any
		var shown []map[string]string
		for j := range per {
			n := p*per + j
			row, show := c.row(r, keys[n], day.AddDate(0, 0, -3*n-r.IntN(3)))
			// Words where a number is: on the second page when there is
			// one (a recipe learned on the first never saw them).
			if nullWords && ((paged && p == 1 && j == 1) || (!paged && (j == 2 || j == per-1))) {
				c.nullWord(r, row, show)
			}
			if c.Has("sale-on-page-3") && p == 2 && j%2 == 0 {
				sale := row["price"].(float64) * 0.8
				if c.loc.minor {
					sale = float64(int(sale*100)) / 100
				} else {
					sale = float64(int(sale))
				}
				row["sale_price"] = sale
				show["sale_price"] = c.loc.money(sale)
			}
			if c.Has("date-words") && p == pages-1 && j == per-2 {
				row["published"] = nil
				show["published"] = map[string]string{"de": "Erscheint demnächst", "fr": "À paraître", "ja": "近日発売"}[c.Locale]
				if show["published"] == "" {
					show["published"] = pick(r, "Coming soon", "TBA", "Pre-order")
				}
			}
			if c.Has("missing-author") && p == 1 && j == per-1 {
				row["author"] = nil
				delete(show, "author")
			}
			truth = append(truth, row)
			shown = append(shown, show)
		}
		c.Pages = append(c.Pages, truth)
		c.shown = append(c.shown, shown)
	}
	c.Name = fmt.Sprintf("%02d-%s-%s-%s-%s", i+1, c.Layout, c.Family, c.Locale, c.Paging)
	return c
}

func rowKeys(r *rand.Rand, family string, n int) []string {
	switch family {
	case "books":
		ks := names(r, n, adjectives, things)
		for i := range ks {
			ks[i] = "The " + ks[i]
		}
		return ks
	case "posts":
		ks := names(r, n, adjectives, things)
		for i := range ks {
			ks[i] = []string{"Notes on the ", "Inside the ", "Why we built the ", "A week with the "}[i%4] + ks[i]
		}
		return ks
	case "jobs":
		return names(r, n, []string{"Backend", "Frontend", "Data", "Platform", "Security", "Mobile", "QA", "Support", "Design", "Growth", "Payments", "Infra"},
			[]string{"Engineer", "Lead", "Analyst", "Manager", "Specialist", "Architect", "Intern"})
	}
	return names(r, n, adjectives, things)
}

// row makes one row's truth and what the page shows for it.
func (c *ListCase) row(r *rand.Rand, key string, day time.Time) (map[string]any, map[string]string) {
	l := c.loc
	row, show := map[string]any{}, map[string]string{}
	for _, f := range c.fields {
		switch f {
		case "name", "title":
			row[f], show[f] = key, key
		case "sku":
			s := sku(r)
			row[f], show[f] = s, s
		case "price":
			cents := 300 + r.IntN(150000)
			if !l.minor {
				cents = 300 + r.IntN(60000)
			}
			if r.IntN(4) == 0 {
				cents = cents / 100 * 100 // a whole amount
			}
			row[f], show[f] = l.amount(cents), l.money(l.amount(cents))
		case "in_stock":
			yes := r.IntN(3) > 0
			row[f] = yes
			show[f] = map[bool]string{true: l.Yes, false: l.No}[yes]
		case "sale_price":
			row[f] = nil
		case "author":
			a := person(r)
			row[f], show[f] = a, a
		case "published", "posted":
			row[f], show[f] = day.Format("2006-01-02"), l.date(day)
		case "comments":
			n := r.IntN(1500)
			row[f], show[f] = float64(n), l.count(n)
		case "location":
			city := pick(r, cities...)
			row[f], show[f] = city, city
		case "salary":
			n := (30 + r.IntN(90)) * 1000
			if !l.minor {
				n *= 150
			}
			row[f], show[f] = float64(n), l.money(float64(n))
		}
	}
	return row, show
}

// nullWord puts words where the row's number is: the truth is null.
func (c *ListCase) nullWord(r *rand.Rand, row map[string]any, show map[string]string) {
	f := map[string]string{"products": "price", "books": "price", "posts": "comments", "jobs": "salary"}[c.Family]
	w := pick(r, c.loc.Nulls...)
	if c.Family == "jobs" {
		w = pick(r, append(c.loc.Nulls, map[string]string{"en-US": "Competitive", "en-GB": "Competitive", "de": "Nach Vereinbarung", "fr": "Selon profil", "ja": "応相談"}[c.Locale])...)
	}
	row[f], show[f] = nil, w
}

func listSchema(fields []string, nullDates bool) string {
	var props []string
	for _, f := range fields {
		t := `{"type":"string"}`
		switch f {
		case "price", "sale_price", "salary":
			t = `{"type":["number","null"]}`
		case "comments":
			t = `{"type":["integer","null"]}`
		case "in_stock":
			t = `{"type":"boolean"}`
		case "author":
			t = `{"type":["string","null"]}`
		case "published", "posted":
			t = `{"type":"string","format":"date"}`
			if nullDates {
				t = `{"type":["string","null"],"format":"date"}`
			}
		}
		props = append(props, strconv.Quote(f)+":"+t)
	}
	return `{"type":"array","items":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}`
}

// Handler serves the case: / (and /?page=N for links), /more?page=N for
// the batches a button or a scroll appends.
func (c *ListCase) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		n, _ := strconv.Atoi(req.URL.Query().Get("page"))
		n = max(n, 1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch {
		case req.URL.Path == "/more" && n <= len(c.Pages):
			fmt.Fprint(w, c.rows(n-1))
		case req.URL.Path == "/" && n <= len(c.Pages):
			fmt.Fprint(w, c.page(n))
		default:
			http.NotFound(w, req)
		}
	})
}

func (c *ListCase) rows(p int) string {
	var b strings.Builder
	for _, show := range c.shown[p] {
		b.WriteString(c.rowHTML(show))
	}
	return b.String()
}

func (c *ListCase) rowHTML(show map[string]string) string {
	var b strings.Builder
	cell := func(f string) string {
		v, ok := show[f]
		if !ok {
			return ""
		}
		s := html.EscapeString(v)
		if f == "price" && show["sale_price"] != "" {
			return fmt.Sprintf(`<span class="%s" style="text-decoration:line-through">%s</span> <b class="%s">%s</b>`, c.cls[f], s, c.cls["sale_price"], html.EscapeString(show["sale_price"]))
		}
		return fmt.Sprintf(`<span class="%s">%s</span>`, c.cls[f], s)
	}
	tall := ""
	if c.Paging == "scroll" {
		tall = ` style="height:420px"`
	}
	switch c.Layout {
	case "table":
		fmt.Fprintf(&b, `<tr class="%s"%s>`, c.cls["row"], tall)
		for _, f := range c.fields {
			if f == "sale_price" {
				continue
			}
			fmt.Fprintf(&b, "<td>%s</td>", cell(f))
		}
		b.WriteString("</tr>")
	case "cards":
		fmt.Fprintf(&b, `<div class="%s"%s><div class="%s">`, c.cls["row"], tall, c.cls["box"])
		for _, f := range c.fields {
			switch f {
			case "name", "title":
				fmt.Fprintf(&b, `<h3>%s</h3>`, cell(f))
			case "sale_price":
			default:
				fmt.Fprintf(&b, `<div>%s</div>`, cell(f))
			}
		}
		cart := map[string]string{"de": "In den Warenkorb", "fr": "Ajouter au panier", "ja": "カートに入れる"}[c.Locale]
		if cart == "" {
			cart = "Add to cart"
		}
		b.WriteString(`</div><button type="button">` + cart + `</button></div>`)
	default:
		fmt.Fprintf(&b, `<article class="%s"%s>`, c.cls["row"], tall)
		fmt.Fprintf(&b, `<h2><a href="#">%s</a></h2><p>`, cell("title"))
		if _, ok := show["author"]; ok {
			fmt.Fprintf(&b, `%s · `, cell("author"))
		}
		fmt.Fprintf(&b, `<time>%s</time></p><footer>%s</footer></article>`, cell("posted"), cell("comments"))
	}
	return b.String()
}

func (c *ListCase) page(n int) string {
	l := c.loc
	var b strings.Builder
	title := map[string]string{"products": "Shop", "books": "Books", "posts": "Blog", "jobs": "Careers"}[c.Family]
	fmt.Fprintf(&b, `<!doctype html><html lang="%s"><head><meta charset="utf-8"><title>%s</title></head><body>`, l.Tag, title)
	fmt.Fprintf(&b, `<header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/help">Help</a></nav></header><main><h1>%s</h1>`, title)
	rows := c.rows(n - 1)
	if c.Paging == "load-more" || c.Paging == "scroll" {
		rows = c.rows(0)
	}
	switch c.Layout {
	case "table":
		b.WriteString(`<table><thead><tr>`)
		for _, f := range c.fields {
			if f != "sale_price" {
				fmt.Fprintf(&b, "<th>%s</th>", l.head(f))
			}
		}
		fmt.Fprintf(&b, `</tr></thead><tbody id="list">%s</tbody></table>`, rows)
	case "cards":
		fmt.Fprintf(&b, `<section id="list" class="%s-grid">%s</section>`, c.cls["box"], rows)
	default:
		fmt.Fprintf(&b, `<div id="list">%s</div>`, rows)
	}
	last := len(c.Pages)
	switch c.Paging {
	case "links":
		b.WriteString(`<nav aria-label="pagination">`)
		for i := 1; i <= last; i++ {
			fmt.Fprintf(&b, `<a href="/?page=%d">%d</a> `, i, i)
		}
		rel := ""
		if l.Tag == "ja" {
			rel = ` rel="next"`
		}
		if n < last {
			fmt.Fprintf(&b, `<a href="/?page=%d"%s>%s</a>`, n+1, rel, l.Next)
		}
		b.WriteString(`</nav>`)
	case "load-more":
		fmt.Fprintf(&b, `<button type="button" id="more">%s</button><script>
let shown = 1;
document.getElementById('more').addEventListener('click', async e => {
  shown++;
  const h = await (await fetch('/more?page=' + shown)).text();
  document.getElementById('list').insertAdjacentHTML('beforeend', h);
  if (shown >= %d) e.target.remove();
});</script>`, l.More, last)
	case "scroll":
		fmt.Fprintf(&b, `<script>
let shown = 1, busy = false;
addEventListener('scroll', async () => {
  if (busy || shown >= %d || innerHeight + scrollY < document.body.scrollHeight - 40) return;
  busy = true; shown++;
  const h = await (await fetch('/more?page=' + shown)).text();
  document.getElementById('list').insertAdjacentHTML('beforeend', h);
  busy = false;
});</script>`, last)
	}
	b.WriteString(`</main><footer><p>© 2026</p></footer></body></html>`)
	return b.String()
}
