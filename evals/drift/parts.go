package drift

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The parts pages are built of. Every control gets a name for the truth
// ("c:Save", "c:Delete@Ann Lee"); the recorded one is "target".

// Target is the control name of the element the routine was recorded on.
const Target = "target"

func ctl(words, row string) string {
	if row != "" {
		return "c:" + words + "@" + row
	}
	return "c:" + words
}

// btn is a button.
func btn(words, row string) *El {
	return E("button", "type", "button", "class", "btn").T(words).C(ctl(words, row))
}

// link is a link that stays on the page.
func link(words, row string) *El {
	return E("a", "href", "#", "class", "link").T(words).C(ctl(words, row))
}

// field is a labelled text field (not a control the truth counts).
func field(label, id, value string) *El {
	return E("div", "class", "field").K(
		E("label", "for", id).T(label),
		E("input", "id", id, "name", id, "value", value),
	)
}

// check is a labelled checkbox whose click is counted.
func check(label, id, row string) *El {
	in := E("input", "type", "checkbox", "id", id)
	in.Ctl = ctl(label, row)
	return E("div", "class", "check").K(in, E("label", "for", id).T(label))
}

// h is a heading.
func h(level int, words string) *El { return E(fmt.Sprintf("h%d", level)).T(words) }

// p is a paragraph.
func p(words string) *El { return E("p").T(words) }

// nav is a side navigation list of links.
func nav(items ...string) *El {
	ul := E("ul", "class", "nav-list")
	ul.Order = true
	for _, it := range items {
		ul.K(E("li").K(link(it, "")))
	}
	return E("nav", "aria-label", "Main").K(ul)
}

// toolbar is a row of buttons laid out in any order.
func toolbar(label string, words ...string) *El {
	tb := E("div", "role", "toolbar", "aria-label", label, "class", "toolbar")
	tb.Order = true
	for _, w := range words {
		tb.K(btn(w, ""))
	}
	return tb
}

// page is the body: a header, a nav and the main region, the regions in
// any order.
func page(app string, navItems []string, main ...*El) *El {
	body := E("div", "id", "app", "class", "layout")
	body.Order = true
	body.K(
		E("header", "class", "top").K(E("strong").T(app)),
		nav(navItems...),
		E("main", "class", "content").K(main...),
	)
	return body
}

// table builds a table whose rows are people, orders or files: head are
// the column headers, cells gives each row's cells and actions its
// buttons. The row with key target holds the target control at action
// targetAt.
func table(caption string, head []string, rows [][]string, actions []string, targetRow string, targetAt int) *El {
	tr := E("tr")
	for _, h := range head {
		tr.K(E("th").T(h))
	}
	tr.K(E("th").T("Actions"))
	body := E("tbody")
	for _, cells := range rows {
		row := E("tr", "class", "row")
		row.Row, row.Key = true, cells[0]
		for _, c := range cells {
			row.K(E("td").T(c))
		}
		acts := E("td", "class", "actions")
		for i, a := range actions {
			b := btn(a, cells[0])
			if cells[0] == targetRow && i == targetAt {
				b.Ctl = Target
			}
			acts.K(b)
		}
		body.K(row.K(acts))
	}
	return E("table", "class", "data-table").K(E("caption").T(caption), E("thead").K(tr), body)
}

// cards lays out cards, each a heading, a line and its buttons.
func cards(class string, items [][2]string, actions []string, targetKey string, targetAt int, asList bool) *El {
	wrap := E("div", "class", class)
	if asList {
		wrap = E("ul", "class", class)
	}
	for _, it := range items {
		tag := "div"
		if asList {
			tag = "li"
		}
		c := E(tag, "class", "card")
		c.Row, c.Key = true, it[0]
		c.K(h(3, it[0]), p(it[1]))
		for i, a := range actions {
			b := btn(a, it[0])
			if it[0] == targetKey && i == targetAt {
				b.Ctl = Target
			}
			c.K(b)
		}
		wrap.K(c)
	}
	return wrap
}

// pick draws one of xs.
func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// draw draws n distinct items of xs, in a random order.
func draw[T any](r *rand.Rand, n int, xs ...T) []T {
	idx := r.Perm(len(xs))
	out := make([]T, 0, n)
	for _, i := range idx[:min(n, len(xs))] {
		out = append(out, xs[i])
	}
	return out
}

var people = []string{"Ann Lee", "Priya Natarajan", "Marco Rossi", "Chen Wei", "Fatima Zahra", "Jonas Berg", "Lucía Gómez", "Tom Okafor", "Sara Novak", "Ivan Petrov", "Mei Tanaka", "Omar Haddad"}

func email(name string) string {
	return strings.ToLower(strings.ReplaceAll(strings.Split(name, " ")[0], "í", "i")) + "@example.org"
}

var products = []string{"Desk lamp", "Coffee grinder", "Rain jacket", "Headphones", "Yoga mat", "Water bottle", "Backpack", "Wool socks", "Phone stand", "Notebook"}

var files = []string{"report-q3.pdf", "budget.xlsx", "roadmap.key", "logo.svg", "contract.docx", "notes.md", "invoice-118.pdf", "photo-0042.jpg"}
