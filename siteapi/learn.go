package siteapi

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
)

// LearnOptions tune [Learn]. The zero value is valid.
type LearnOptions struct {
	// Page is the page the rows were read on; empty means the page that
	// sent the best call.
	Page string
	// Vars are values the person gave (a search's words): a request
	// value equal to one becomes that variable, given again at call time.
	Vars map[string]string
	// Candidates are URLs a site publishes without a watched request (a
	// feed, a platform's JSON view, an OpenAPI endpoint: package
	// discover). [LearnCall] fetches each (GET, on the site) and ranks its
	// answer with the captured ones; Learn alone ranks only what it is
	// given in Extra.
	Candidates []Candidate
	// Extra are answers to rank beside the capture's, as exchanges
	// (LearnCall puts the candidates' answers here).
	Extra []capture.Exchange
	// Now stamps the recipe; nil means time.Now.
	Now func() time.Time
}

// Candidate is a URL that may answer with the rows, and who named it.
type Candidate struct {
	URL    string `json:"url"`
	Source string `json:"source"` // "feed", "shopify", "openapi"…
}

// Report is what [Learn] weighed.
type Report struct {
	// Ranked are the captured calls whose answers hold a list, best first.
	Ranked []Ranked `json:"ranked"`
	// Unmapped are row fields no value of the chosen answer matched; a
	// call does not return them.
	Unmapped []string `json:"unmapped,omitempty"`
	// Pages is how many answers of the chosen call the capture holds.
	Pages int `json:"pages"`
	// Sender is the code that sent the chosen call, by the site's
	// source map ([Sender]): "src/api/lamps.ts:12:10 loadLamps".
	Sender string `json:"sender,omitempty"`
}

// Ranked is one call and how much of the rows it held.
type Ranked struct {
	Exchange string `json:"exchange"`
	Method   string `json:"method"`
	URL      string `json:"url"`
	// Source says where the answer came from: "capture" (the network),
	// a candidate's source, or the application's own cache:
	// SourceCacheStorage, SourceIndexedDB (the Exchange names the cache,
	// or the database and store). A store of IndexedDB is ranked, never
	// called: it has no request.
	Source string `json:"source,omitempty"`
	List   string `json:"list"` // the JSON pointer of the list
	Rows   int    `json:"rows"` // the browser's rows it holds, of Of
	Of     int    `json:"of"`
	Fields int    `json:"fields"` // fields mapped
	Bytes  int    `json:"bytes"`
}

// endpoint is the answers of one call (method, origin and path) in the
// order they were sent: the pages of a list.
type endpoint struct {
	key  string
	xs   []capture.Exchange
	docs []any
}

// Learn finds the call behind rows (what the browser read, one object a
// row) in a capture and writes its recipe: every JSON answer is ranked by
// how many rows it holds, the best call's values are traced to their
// sources, and its pagination is inferred from the pages captured. The
// recipe is not yet verified: [Verify] calls it and keeps it only when it
// returns the rows.
func Learn(f *capture.File, rows []map[string]any, opts LearnOptions) (*Recipe, *Report, error) {
	if len(rows) == 0 {
		return nil, nil, calls.Errorf(calls.ErrBadInput, "give the rows the browser read ("+calls.Cmd("extract … --json")+" writes them)", "no rows to look for")
	}
	names := fieldsOf(rows)
	eps := endpoints(f, append(append([]capture.Exchange{}, opts.Extra...), f.Cached...))
	rep := &Report{Ranked: []Ranked{}}
	type pick struct {
		ep   *endpoint
		list string
		fit  fit
		r    Ranked
	}
	var best *pick
	for _, ep := range eps {
		all := map[string][]any{}
		for _, d := range ep.docs {
			found := map[string][]any{}
			lists(d, "", 6, found)
			for p, items := range found {
				all[p] = append(all[p], items...)
			}
		}
		for p, items := range all {
			ft := fitList(rows, items, names)
			if ft.partial == 0 {
				continue
			}
			x := ep.xs[0]
			src := sourceOf(x)
			bytes := 0
			for _, x := range ep.xs {
				bytes += len(x.ResponseBody)
			}
			r := Ranked{Exchange: x.ID, Method: x.Method, URL: x.URL, Source: src, List: p, Rows: ft.rows, Of: len(rows), Fields: len(ft.fields), Bytes: bytes}
			rep.Ranked = append(rep.Ranked, r)
			if callable(x.URL) && (best == nil || better(r, best.r)) {
				best = &pick{ep: ep, list: p, fit: ft, r: r}
			}
		}
	}
	sort.SliceStable(rep.Ranked, func(i, j int) bool { return better(rep.Ranked[i], rep.Ranked[j]) })
	if best == nil || best.fit.rows == 0 {
		return nil, rep, newError(KindChanged, "capture while the page loads the list (waymark capture start, then open or scroll the page), then learn again",
			"no captured JSON answer holds the rows the browser read (%d answer(s) looked at)", countJSON(eps))
	}
	first := best.ep.xs[0]
	site, err := originOf(first.URL)
	if err != nil {
		return nil, rep, err
	}
	page := opts.Page
	if page == "" {
		page = first.Page
	}
	if page == "" {
		page = site + "/"
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	r := &Recipe{Format: Format, Site: site, Page: page, Rows: best.list,
		Learned: &Learned{At: now().UTC().Round(time.Second), Exchange: first.ID, Rows: best.fit.rows}}
	for _, n := range names {
		p, ok := best.fit.fields[n]
		if !ok {
			rep.Unmapped = append(rep.Unmapped, n)
			continue
		}
		fd := Field{Name: n, Path: p}
		if best.fit.minor[n] {
			fd.Divide = 100
		}
		r.Fields = append(r.Fields, fd)
	}
	r.Schema = rowSchema(r.Fields, best.fit.types)
	r.Pagination = paginate(best.ep, best.list)
	rep.Pages = len(best.ep.xs)
	tr := &tracer{f: f, before: first.Sent, vars: opts.Vars}
	if r.Request, err = tr.request(first, r.Pagination); err != nil {
		return nil, rep, err
	}
	if err := r.Validate(); err != nil {
		return nil, rep, err
	}
	return r, rep, nil
}

// Sources of a ranked answer the application cached for itself
// (capture.File.Cached).
const (
	SourceCacheStorage = capture.KindCacheStorage
	SourceIndexedDB    = capture.KindIndexedDB
)

// sourceOf says where an answer came from.
func sourceOf(x capture.Exchange) string {
	switch {
	case strings.HasPrefix(x.ID, "candidate:"):
		return strings.TrimPrefix(x.ID, "candidate:")
	case x.Kind == capture.KindCacheStorage, x.Kind == capture.KindIndexedDB:
		return x.Kind
	}
	return "capture"
}

// callable reports whether an answer's URL can be called again: an
// IndexedDB store's cannot.
func callable(u string) bool {
	_, err := originOf(u)
	return err == nil
}

// better ranks a over b: more rows held, then more fields mapped, then
// the smaller answer.
func better(a, b Ranked) bool {
	if a.Rows != b.Rows {
		return a.Rows > b.Rows
	}
	if a.Fields != b.Fields {
		return a.Fields > b.Fields
	}
	return a.Bytes < b.Bytes
}

// endpoints groups the JSON answers of a capture by call.
func endpoints(f *capture.File, extra []capture.Exchange) []*endpoint {
	by := map[string]*endpoint{}
	var out []*endpoint
	xs := append(append([]capture.Exchange{}, f.Exchanges...), extra...)
	for _, x := range xs {
		if x.Status < 200 || x.Status > 299 || x.ResponseBody == "" {
			continue
		}
		var doc any
		if json.Unmarshal([]byte(x.ResponseBody), &doc) != nil {
			continue
		}
		u, err := url.Parse(x.URL)
		if err != nil {
			continue
		}
		key := strings.ToUpper(x.Method) + " " + u.Scheme + "://" + u.Host + u.Path
		ep := by[key]
		if ep == nil {
			ep = &endpoint{key: key}
			by[key] = ep
			out = append(out, ep)
		}
		ep.xs = append(ep.xs, x)
		ep.docs = append(ep.docs, doc)
	}
	for _, ep := range out {
		idx := make([]int, len(ep.xs))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(i, j int) bool { return ep.xs[idx[i]].Sent.Before(ep.xs[idx[j]].Sent) })
		xs, docs := make([]capture.Exchange, len(idx)), make([]any, len(idx))
		for i, k := range idx {
			xs[i], docs[i] = ep.xs[k], ep.docs[k]
		}
		ep.xs, ep.docs = xs, docs
	}
	return samePages(out)
}

func countJSON(eps []*endpoint) int {
	n := 0
	for _, ep := range eps {
		n += len(ep.xs)
	}
	return n
}

// rowSchema is the schema of a row as the answers typed its fields.
func rowSchema(fields []Field, types map[string]map[string]bool) json.RawMessage {
	props := map[string]any{}
	var required []string
	for _, f := range fields {
		var ts []string
		for t := range types[f.Name] {
			ts = append(ts, t)
		}
		sort.Strings(ts)
		if len(ts) == 1 {
			props[f.Name] = map[string]any{"type": ts[0]}
		} else {
			props[f.Name] = map[string]any{"type": ts}
		}
		required = append(required, f.Name)
	}
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": required})
	return b
}

// describe names a request value for errors.
func describe(part, name string) string { return fmt.Sprintf("the request's %s %q", part, name) }
