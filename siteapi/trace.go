package siteapi

import (
	"encoding/json"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/discover"
)

// tracer finds where each value a request sent came from.
type tracer struct {
	f      *capture.File
	before time.Time // the request's time: earlier answers may be sources
	vars   map[string]string
}

// browserHeaders are set by the browser (or its proxy: waymark's own adds
// proxy-connection on the way), never by the page: a call from the tab
// sends its own, and the hop-by-hop ones (RFC 9110 §7.6.1) are no part
// of a request at all.
var browserHeaders = map[string]bool{
	"accept-encoding": true, "accept-language": true, "user-agent": true, "referer": true,
	"origin": true, "host": true, "connection": true, "content-length": true, "cookie": true,
	"pragma": true, "cache-control": true, "if-none-match": true, "if-modified-since": true,
	"priority": true, "dnt": true, "upgrade-insecure-requests": true, "te": true,
	"proxy-connection": true, "proxy-authorization": true, "keep-alive": true,
	"transfer-encoding": true, "trailer": true, "upgrade": true,
}

var markerRE = regexp.MustCompile(`«redacted:[a-z0-9_-]+:([0-9a-f]{12})»`)

// request writes the recipe's request from a captured one: its URL, and
// each query parameter (but the page's), header and JSON body field with
// its source.
func (tr *tracer) request(x capture.Exchange, pg *Pagination) (Request, error) {
	u, err := url.Parse(x.URL)
	if err != nil {
		return Request{}, calls.Errorf(calls.ErrBadInput, "", "captured URL %q: %v", x.URL, err)
	}
	req := Request{Method: strings.ToUpper(x.Method)}
	if req.Method == "" {
		req.Method = "GET"
	}
	q := u.Query()
	u.RawQuery, u.Fragment = "", ""
	req.URL = u.String()
	names := make([]string, 0, len(q))
	for n := range q {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if pg != nil && pg.Param == n {
			continue
		}
		src, err := tr.source(describe("query parameter", n), q.Get(n))
		if err != nil {
			return req, err
		}
		req.Query = append(req.Query, Param{Name: n, Source: src})
	}
	for _, h := range x.RequestHeaders {
		n := strings.ToLower(h.Name)
		if browserHeaders[n] || strings.HasPrefix(n, "sec-") || strings.HasPrefix(n, ":") {
			continue
		}
		src, err := tr.source(describe("header", n), h.Value)
		if err != nil {
			return req, err
		}
		req.Headers = append(req.Headers, Param{Name: n, Source: src})
	}
	if x.RequestBody != "" {
		var body any
		if json.Unmarshal([]byte(x.RequestBody), &body) != nil {
			return req, calls.Errorf(calls.ErrBadInput, "learn from a call with a JSON body, or none", "the request's body is not JSON")
		}
		var err error
		leaves(body, "", 8, func(p string, v any) {
			if err != nil {
				return
			}
			var src Source
			if src, err = tr.source(describe("body field", p), text(v)); err == nil {
				if _, isNum := v.(float64); isNum && src.From == FromConst {
					src.Value = text(v)
				}
				req.Body = append(req.Body, Param{Name: p, Source: src})
			}
		})
		sort.Slice(req.Body, func(i, j int) bool { return req.Body[i].Name < req.Body[j].Name })
		if err != nil {
			return req, err
		}
		if req.Method == "POST" {
			// A POST is called without asking only when its shape proves
			// it reads (gate.go checks it again at each call).
			req.Read = discover.ReadShape(x.RequestBody)
		}
	}
	return req, nil
}

// source traces one value: a marker by its hash to the state or answer
// that held the same; a plain value to a variable, the state, or an
// earlier answer, else a constant.
func (tr *tracer) source(what, v string) (Source, error) {
	if m := markerRE.FindStringSubmatchIndex(v); m != nil {
		prefix, hash := v[:m[0]], v[m[2]:m[3]]
		if m[1] != len(v) {
			return Source{}, tr.untraced(what, "text after its secret")
		}
		src, ok := tr.find(func(s string) bool {
			h, ok := capture.MarkerHash(s)
			return ok && h == hash
		}, true)
		if !ok {
			return Source{}, tr.untraced(what, "a secret the capture saw nowhere else")
		}
		src.Prefix = prefix
		return src, nil
	}
	for name, val := range tr.vars {
		if val != "" && val == v {
			return Source{From: FromVar, Key: name}, nil
		}
	}
	if len(v) >= 4 {
		if src, ok := tr.find(func(s string) bool { return s == v }, len(v) >= 6); ok {
			return src, nil
		}
		// "Bearer " + a stored value.
		if i := strings.IndexByte(v, ' '); i > 0 && i < 12 && len(v)-i-1 >= 6 {
			if src, ok := tr.find(func(s string) bool { return s == v[i+1:] }, true); ok {
				src.Prefix = v[:i+1]
				return src, nil
			}
		}
	}
	return Source{From: FromConst, Value: v}, nil
}

func (tr *tracer) untraced(what, why string) error {
	return calls.Errorf(calls.ErrBadInput, "capture from the page's first load (capture start before open), so its state is read; or set the source in the recipe by hand",
		"%s holds %s: its source is not in the capture", what, why)
}

// find looks for a value in the page's state (whole values first, then
// inside JSON ones when deep), then in earlier answers.
func (tr *tracer) find(match func(string) bool, deep bool) (Source, bool) {
	for _, st := range tr.f.State {
		kind, key, ok := strings.Cut(st.Source, ":")
		from := stateFrom(kind)
		if !ok || from == "" {
			continue
		}
		if match(st.Value) {
			return Source{From: from, Key: key}, true
		}
	}
	if !deep {
		return Source{}, false
	}
	for _, st := range tr.f.State {
		kind, key, _ := strings.Cut(st.Source, ":")
		from := stateFrom(kind)
		var doc any
		if from == "" || json.Unmarshal([]byte(st.Value), &doc) != nil {
			continue
		}
		if p := findLeaf(doc, match); p != "" {
			return Source{From: from, Key: key, Path: p}, true
		}
	}
	for _, x := range tr.f.Exchanges {
		if !x.Sent.Before(tr.before) || strings.ToUpper(x.Method) != "GET" || x.Status != 200 {
			continue
		}
		var doc any
		if json.Unmarshal([]byte(x.ResponseBody), &doc) != nil {
			continue
		}
		if p := findLeaf(doc, match); p != "" {
			return Source{From: FromResponse, URL: x.URL, Path: p}, true
		}
	}
	return Source{}, false
}

// stateFrom maps a capture state's kind to a source, or "" for one a
// call cannot read again (a main-world global).
func stateFrom(kind string) string {
	switch kind {
	case "meta":
		return FromMeta
	case "localStorage":
		return FromLocal
	case "sessionStorage":
		return FromSession
	case "cookie":
		return FromCookie
	case "script":
		return FromScript
	}
	return ""
}

func findLeaf(doc any, match func(string) bool) string {
	best := ""
	leaves(doc, "", 8, func(p string, v any) {
		if s, ok := v.(string); ok && match(s) && (best == "" || len(p) < len(best)) {
			best = p
		}
	})
	return best
}
