package siteapi

import (
	"regexp"
	"strconv"
	"strings"
)

// Pages of a list asked for by a number in the path (/lamps.json,
// /lamps-2.json, /lamps-3.json; /products/page/2) are calls of different
// paths, so endpoints (one per method, origin and path) holds each page
// apart. samePages folds them into one endpoint before the answers are
// ranked, and paginate reads the number's step as a PagePath pagination.
// Only the path's last segment is looked at: /categories/3/items and
// /categories/4/items are two lists, not two pages of one.

// lastNumber finds the last run of digits in the path's last segment.
var lastNumber = regexp.MustCompile(`^(.*/[^/]*?)(\d+)([^/\d]*)$`)

// pageKey is the path with the last segment's number and the separator
// before it taken out ("/lamps-2.json" → "/lamps.json", "/page/2" →
// "/page"), and that number (0 when the segment has none).
func pageKey(path string) (key string, n int, numbered bool) {
	m := lastNumber.FindStringSubmatch(path)
	if m == nil {
		return path, 0, false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil || len(m[2]) > 6 {
		return path, 0, false
	}
	head := strings.TrimRight(m[1], "-_.")
	if strings.HasSuffix(head, "/") && m[3] == "" {
		head = strings.TrimSuffix(head, "/")
	}
	return head + m[3], n, true
}

// pathTemplate is the path with {n} where the last segment's number is.
func pathTemplate(path string) (string, bool) {
	m := lastNumber.FindStringSubmatch(path)
	if m == nil {
		return "", false
	}
	return m[1] + "{n}" + m[3], true
}

// pathStep reads a PagePath pagination from two successive pages' paths:
// the second numbered one more than the first, or the first unnumbered
// and the second numbered 2.
func pathStep(a, b string) *Pagination {
	ka, na, nuA := pageKey(a)
	kb, nb, nuB := pageKey(b)
	if !nuB || ka != kb {
		return nil
	}
	tmpl, ok := pathTemplate(b)
	if !ok {
		return nil
	}
	switch {
	case nuA && nb-na == 1:
		return &Pagination{Kind: PagePath, Param: tmpl, Start: na, Step: 1}
	case !nuA && nb == 2:
		return &Pagination{Kind: PagePath, Param: tmpl, Start: 1, Step: 1}
	}
	return nil
}

// samePages folds endpoints whose paths differ only by the number of their
// last segment into the first of them, when their numbers run on from
// page to page (an unnumbered path counting as the first): the pages of
// one list.
func samePages(eps []*endpoint) []*endpoint {
	type member struct {
		ep *endpoint
		n  int
	}
	groups := map[string][]member{}
	var order []string
	for _, ep := range eps {
		method, rest, _ := strings.Cut(ep.key, " ")
		i := strings.Index(rest, "://")
		if i < 0 {
			continue
		}
		slash := strings.IndexByte(rest[i+3:], '/')
		if slash < 0 {
			continue
		}
		origin, path := rest[:i+3+slash], rest[i+3+slash:]
		key, n, numbered := pageKey(path)
		if !numbered {
			n = 1
		}
		g := method + " " + origin + key
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], member{ep, n})
	}
	folded := map[*endpoint]bool{}
	for _, g := range order {
		ms := groups[g]
		if len(ms) < 2 {
			continue
		}
		seen := map[int]bool{}
		lo, hi := ms[0].n, ms[0].n
		for _, m := range ms {
			if seen[m.n] {
				lo, hi = 1, 0 // two paths of one number: not pages
				break
			}
			seen[m.n] = true
			lo, hi = min(lo, m.n), max(hi, m.n)
		}
		if hi-lo+1 != len(ms) {
			continue // the numbers do not run on: ids, not pages
		}
		// The pages in the order of their numbers, each page's answers
		// in the order they were sent.
		var first *endpoint
		for n := lo; n <= hi; n++ {
			for _, m := range ms {
				if m.n != n {
					continue
				}
				if first == nil {
					first = m.ep
					continue
				}
				first.xs = append(first.xs, m.ep.xs...)
				first.docs = append(first.docs, m.ep.docs...)
				folded[m.ep] = true
			}
		}
	}
	out := eps[:0:0]
	for _, ep := range eps {
		if !folded[ep] {
			out = append(out, ep)
		}
	}
	return out
}
