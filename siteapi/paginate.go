package siteapi

import (
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// paginate infers how the next page was asked for from the pages of one
// call the capture holds: a parameter counting pages or items, a cursor
// the answer before gave, or the answer's link to the next page. With
// one page, only a link the answer gives to the same call is read.
func paginate(ep *endpoint, list string) *Pagination {
	for i := 0; i+1 < len(ep.xs); i++ {
		if p := step(ep, i, list); p != nil {
			return p
		}
	}
	if len(ep.xs) > 0 {
		if p := nextLink(ep.docs[0], ep.xs[0].URL, ""); p != "" {
			return &Pagination{Kind: PageNext, Next: p}
		}
	}
	return nil
}

// step reads the change from page i to page i+1.
func step(ep *endpoint, i int, list string) *Pagination {
	a, b := ep.xs[i], ep.xs[i+1]
	ua, err1 := url.Parse(a.URL)
	ub, err2 := url.Parse(b.URL)
	if err1 != nil || err2 != nil {
		return nil
	}
	if p := nextLink(ep.docs[i], a.URL, b.URL); p != "" {
		return &Pagination{Kind: PageNext, Next: p}
	}
	if ua.Path != ub.Path {
		return pathStep(ua.Path, ub.Path) // pathpages.go
	}
	qa, qb := ua.Query(), ub.Query()
	items := 0
	if v, ok := at(ep.docs[i], list); ok {
		if l, ok := v.([]any); ok {
			items = len(l)
		}
	}
	for name := range qb {
		if p := pageStep(ep.docs[i], name, qa.Get(name), qb.Get(name), i, items); p != nil {
			return p
		}
	}
	// A POST's page is in its body (a GraphQL query's variables, a
	// search's offset): the fields that changed from one page's body to
	// the next.
	fa, fb := bodyLeaves(a.RequestBody), bodyLeaves(b.RequestBody)
	for _, ptr := range slices.Sorted(maps.Keys(fb)) {
		if p := pageStep(ep.docs[i], ptr, fa[ptr], fb[ptr], i, items); p != nil {
			p.In = PageInBody
			return p
		}
	}
	return nil
}

// bodyLeaves are a JSON object body's leaves by pointer, as text; none
// for a body that is no object.
func bodyLeaves(body string) map[string]string {
	var doc any
	if json.Unmarshal([]byte(body), &doc) != nil {
		return nil
	}
	if _, ok := doc.(map[string]any); !ok {
		return nil
	}
	out := map[string]string{}
	leaves(doc, "", 6, func(p string, v any) { out[p] = text(v) }) // a null (a first page's cursor) is no leaf: ""
	return out
}

// pageStep reads how a parameter changed from page i (va) to the next
// (vb): a cursor the answer before gave, or a page or item count.
func pageStep(doc any, name, va, vb string, i, items int) *Pagination {
	if va == vb {
		return nil
	}
	// A cursor: the value the answer before gave.
	if p := find(doc, vb); p != "" {
		return &Pagination{Kind: PageCursor, Param: name, Next: p}
	}
	nb, errb := strconv.Atoi(vb)
	if errb != nil {
		return nil
	}
	na, erra := strconv.Atoi(va)
	switch {
	case erra == nil && nb-na == 1:
		return &Pagination{Kind: PageNumber, Param: name, Start: na - i, Step: 1}
	case erra == nil && items > 0 && nb-na == items:
		return &Pagination{Kind: PageOffset, Param: name, Start: na - i*items, Step: items}
	case va == "" && nb == 2:
		return &Pagination{Kind: PageNumber, Param: name, Start: 1, Step: 1}
	case va == "" && items > 0 && nb == items:
		return &Pagination{Kind: PageOffset, Param: name, Start: 0, Step: items}
	}
	return nil
}

// find returns the pointer of a string leaf equal to s (a cursor), the
// shortest, or "".
func find(doc any, s string) string {
	if len(s) < 2 {
		return ""
	}
	best := ""
	leaves(doc, "", 6, func(p string, v any) {
		if text(v) == s && (best == "" || len(p) < len(best)) {
			best = p
		}
	})
	return best
}

// nextLink returns the pointer of a link in doc to the same call as
// from: to next when it is given, else to any other page of it.
func nextLink(doc any, from, next string) string {
	fu, err := url.Parse(from)
	if err != nil {
		return ""
	}
	best := ""
	leaves(doc, "", 6, func(p string, v any) {
		s, ok := v.(string)
		if !ok || !strings.ContainsAny(s, "/?") {
			return
		}
		u, err := fu.Parse(s)
		if err != nil || u.Host != fu.Host || u.Path != fu.Path || u.String() == fu.String() {
			return
		}
		if next != "" && u.String() != next {
			return
		}
		low := strings.ToLower(p)
		if next == "" && !strings.Contains(low, "next") {
			return
		}
		if best == "" || len(p) < len(best) {
			best = p
		}
	})
	return best
}
