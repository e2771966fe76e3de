package siteapi_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/discover"
	"github.com/waymark-dev/waymark/siteapi"
)

// pages is a capture of one call read over n pages, the URL of page i
// given by at, each answer by body.
func pages(n int, at func(i int) string, body func(i int) string) *capture.File {
	f := &capture.File{Format: capture.Format}
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		f.Exchanges = append(f.Exchanges, capture.Exchange{ID: fmt.Sprint(i), Method: "GET", URL: at(i), Status: 200, ResponseBody: body(i), Sent: t0.Add(time.Duration(i) * time.Second)})
	}
	return f
}

func items(from, n int) string {
	var parts []string
	for i := from; i < from+n; i++ {
		parts = append(parts, fmt.Sprintf(`{"sku":"S%d","name":"Item %d","price":%d.5}`, i, i, i))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func shown(from, n int) []map[string]any {
	var rows []map[string]any
	for i := from; i < from+n; i++ {
		rows = append(rows, map[string]any{"title": fmt.Sprintf("Item %d", i), "cost": fmt.Sprintf("$%d.50", i)})
	}
	return rows
}

// TestLearnPagination: page numbers, offsets and next links are read off
// the captured sequence; the rows' fields are mapped to the answer's.
func TestLearnPagination(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    *capture.File
		want siteapi.Pagination
	}{
		{"page", pages(2, func(i int) string { return fmt.Sprintf("https://shop.example/api/items?page=%d&q=lamp", i+1) },
			func(i int) string { return `{"results":` + items(i*5, 5) + `}` }), siteapi.Pagination{Kind: siteapi.PageNumber, Param: "page", Start: 1, Step: 1}},
		{"offset", pages(3, func(i int) string { return fmt.Sprintf("https://shop.example/api/items?offset=%d", i*5) },
			func(i int) string { return `{"results":` + items(i*5, 5) + `}` }), siteapi.Pagination{Kind: siteapi.PageOffset, Param: "offset", Start: 0, Step: 5}},
		{"next link", pages(2, func(i int) string { return fmt.Sprintf("https://shop.example/api/items?after=k%d", i*5) },
			func(i int) string {
				return fmt.Sprintf(`{"links":{"next":"/api/items?after=k%d"},"results":%s}`, i*5+5, items(i*5, 5))
			}), siteapi.Pagination{Kind: siteapi.PageNext, Next: "/links/next"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, rep, err := siteapi.Learn(tc.f, shown(0, 10), siteapi.LearnOptions{Vars: map[string]string{"q": "lamp"}})
			if err != nil {
				t.Fatal(err)
			}
			if r.Pagination == nil || *r.Pagination != tc.want {
				t.Errorf("pagination %+v, want %+v", r.Pagination, tc.want)
			}
			if r.Rows != "/results" || len(r.Fields) != 2 || rep.Ranked[0].Rows != 10 {
				t.Errorf("rows %q fields %+v ranked %+v", r.Rows, r.Fields, rep.Ranked)
			}
			for _, f := range r.Fields {
				if want := map[string]string{"title": "/name", "cost": "/price"}[f.Name]; f.Path != want {
					t.Errorf("field %s at %s, want %s", f.Name, f.Path, want)
				}
			}
			for _, q := range r.Request.Query {
				if q.Name == "q" && (q.From != siteapi.FromVar || q.Key != "q") {
					t.Errorf("q: %+v, want the variable q", q)
				}
			}
		})
	}
}

// TestLearnTracesMarkers: a redacted header is traced by its hash to the
// state that held the same value, a value from an earlier answer to it;
// a secret seen nowhere else is not guessed.
func TestLearnTracesMarkers(t *testing.T) {
	key := []byte("k")
	f := pages(1, func(int) string { return "https://shop.example/api/items" }, func(int) string { return `{"results":` + items(0, 3) + `}` })
	f.Exchanges[0].RequestHeaders = []capture.Header{
		{Name: "Authorization", Value: "Bearer " + capture.Marker(key, "authorization", "tok-123456")},
		{Name: "X-Api-Key", Value: capture.Marker(key, "token", "key-abcdef")},
		{Name: "X-Session", Value: "sess-778899"},
		{Name: "User-Agent", Value: "Chromium"},
	}
	f.Exchanges = append([]capture.Exchange{{ID: "boot", Method: "GET", URL: "https://shop.example/api/boot", Status: 200,
		ResponseBody: `{"session":{"id":"sess-778899"}}`, Sent: f.Exchanges[0].Sent.Add(-time.Second)}}, f.Exchanges...)
	f.State = []capture.StateValue{
		{Source: "localStorage:auth", Value: `{"user":"ann","access":"` + capture.Marker(key, "token", "tok-123456") + `"}`},
		{Source: "cookie:apikey", Value: capture.Marker(key, "cookie", "key-abcdef")},
	}
	r, _, err := siteapi.Learn(f, shown(0, 3), siteapi.LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]siteapi.Source{
		"authorization": {From: siteapi.FromLocal, Key: "auth", Path: "/access", Prefix: "Bearer "},
		"x-api-key":     {From: siteapi.FromCookie, Key: "apikey"},
		"x-session":     {From: siteapi.FromResponse, URL: "https://shop.example/api/boot", Path: "/session/id"},
	}
	if len(r.Request.Headers) != len(want) {
		t.Errorf("headers %+v, want %d (the browser's own left out)", r.Request.Headers, len(want))
	}
	for _, h := range r.Request.Headers {
		if h.Source != want[h.Name] {
			t.Errorf("%s: %+v, want %+v", h.Name, h.Source, want[h.Name])
		}
	}

	f.State = nil
	if _, _, err := siteapi.Learn(f, shown(0, 3), siteapi.LearnOptions{}); !errors.Is(err, calls.ErrBadInput) || !strings.Contains(err.Error(), "not in the capture") {
		t.Errorf("a secret with no source: %v, want bad input naming it", err)
	}
	if _, _, err := siteapi.Learn(f, shown(50, 3), siteapi.LearnOptions{}); siteapi.KindOf(err) != siteapi.KindChanged {
		t.Errorf("rows no answer holds: %v, want changed", err)
	}
}

// TestParseRefusesSecrets: no recipe holds a secret, whoever wrote it.
func TestParseRefusesSecrets(t *testing.T) {
	base := `{"format":"waymark.api/1","site":"https://shop.example","page":"https://shop.example/",
"request":{"method":"GET","url":"https://shop.example/api/items","headers":[%s]},"rows":"/results","fields":[{"name":"title","path":"/name"}]}`
	if _, err := siteapi.Parse([]byte(fmt.Sprintf(base, `{"name":"accept","from":"const","value":"application/json"}`))); err != nil {
		t.Fatalf("a plain recipe: %v", err)
	}
	for _, h := range []string{
		`{"name":"authorization","from":"const","value":"Bearer tok-7f3a9c2e51b84d06a1e2"}`,
		`{"name":"x-thing","from":"const","value":"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJl"}`,
		`{"name":"x-thing","from":"const","value":"«redacted:token:0123456789ab»"}`,
		`{"name":"x-csrf-token","from":"meta","key":"csrf-token","value":"abc"}`,
	} {
		_, err := siteapi.Parse([]byte(fmt.Sprintf(base, h)))
		if !errors.Is(err, calls.ErrBadInput) {
			t.Errorf("%s: %v, want refused", h, err)
		}
	}
	other := strings.Replace(fmt.Sprintf(base, ""), `"url":"https://shop.example/api/items"`, `"url":"https://evil.example/api/items"`, 1)
	if _, err := siteapi.Parse([]byte(other)); siteapi.KindOf(err) != siteapi.KindBlockedURL {
		t.Errorf("a request to another site: %v, want blocked-url", err)
	}
}

// TestLearnPostBody: a POST's JSON body is kept field by field, each with
// its source (a number stays a number when called).
func TestLearnPostBody(t *testing.T) {
	key := []byte("k")
	f := pages(1, func(int) string { return "https://shop.example/graphql" }, func(int) string { return `{"data":{"search":{"nodes":` + items(0, 3) + `}}}` })
	f.Exchanges[0].Method = "POST"
	f.Exchanges[0].RequestBody = `{"query":"query Search($q: String!) { search(q: $q) { nodes { name } } }","variables":{"q":"lamp","first":3},"csrf":"` + capture.Marker(key, "token", "csrf-99887766") + `"}`
	f.State = []capture.StateValue{{Source: "meta:csrf-token", Value: capture.Marker(key, "token", "csrf-99887766")}}
	r, _, err := siteapi.Learn(f, shown(0, 3), siteapi.LearnOptions{Vars: map[string]string{"q": "lamp"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]siteapi.Source{}
	for _, p := range r.Request.Body {
		got[p.Name] = p.Source
	}
	if got["/variables/q"] != (siteapi.Source{From: siteapi.FromVar, Key: "q"}) || got["/csrf"] != (siteapi.Source{From: siteapi.FromMeta, Key: "csrf-token"}) ||
		got["/variables/first"] != (siteapi.Source{From: siteapi.FromConst, Value: "3"}) || r.Request.Method != "POST" || r.Rows != "/data/search/nodes" {
		t.Errorf("body %+v rows %s", got, r.Rows)
	}
	if r.Request.Read != discover.ReadGraphQL {
		t.Errorf("a GraphQL query POST is learned as read %q", r.Request.Read)
	}
}

// TestLearnLeavesTheProxysHeaders: headers of a hop (waymark's own proxy
// adds proxy-connection to a plain-HTTP request) are no part of what the
// page sends, so the recipe does not send them as constants; the page's
// own header stays.
func TestLearnLeavesTheProxysHeaders(t *testing.T) {
	f := pages(1, func(int) string { return "http://127.0.0.1:8080/api/items" }, func(int) string { return items(0, 3) })
	f.Exchanges[0].RequestHeaders = []capture.Header{
		{Name: "Proxy-Connection", Value: "keep-alive"}, {Name: "Keep-Alive", Value: "timeout=5"},
		{Name: "Accept", Value: "application/json"}, {Name: "X-Client", Value: "web-7"},
	}
	r, _, err := siteapi.Learn(f, shown(0, 3), siteapi.LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range r.Request.Headers {
		names = append(names, h.Name)
	}
	if got := strings.Join(names, ","); strings.Contains(got, "proxy-connection") || strings.Contains(got, "keep-alive") || !strings.Contains(got, "x-client") {
		t.Errorf("the recipe's headers: %s", got)
	}
}

// TestLearnPathPages: a list whose pages are asked for by a number in the
// path (/lamps.json, /lamps-2.json, …) is one call read over pages, not
// three calls; two lists under numbered folders, or ids that do not run on,
// are not.
func TestLearnPathPages(t *testing.T) {
	body := func(i int) string { return `{"results":` + items(i*5, 5) + `}` }
	for _, tc := range []struct {
		name string
		at   func(i int) string
		want siteapi.Pagination
	}{
		{"unnumbered first", func(i int) string {
			if i == 0 {
				return "https://shop.example/data/lamps.json"
			}
			return fmt.Sprintf("https://shop.example/data/lamps-%d.json", i+1)
		}, siteapi.Pagination{Kind: siteapi.PagePath, Param: "/data/lamps-{n}.json", Start: 1, Step: 1}},
		{"numbered from one", func(i int) string { return fmt.Sprintf("https://shop.example/api/lamps/page/%d", i+1) },
			siteapi.Pagination{Kind: siteapi.PagePath, Param: "/api/lamps/page/{n}", Start: 1, Step: 1}},
		{"numbered from zero", func(i int) string { return fmt.Sprintf("https://shop.example/api/lamps_p%d.json", i) },
			siteapi.Pagination{Kind: siteapi.PagePath, Param: "/api/lamps_p{n}.json", Start: 0, Step: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, rep, err := siteapi.Learn(pages(3, tc.at, body), shown(0, 15), siteapi.LearnOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Pagination == nil || *r.Pagination != tc.want || rep.Pages != 3 || rep.Ranked[0].Rows != 15 {
				t.Errorf("pagination %+v (want %+v), %d pages, ranked %+v", r.Pagination, tc.want, rep.Pages, rep.Ranked)
			}
			if r.Request.URL != tc.at(0) {
				t.Errorf("the first page is %s, want %s", r.Request.URL, tc.at(0))
			}
		})
	}
	t.Run("two lists in numbered folders", func(t *testing.T) {
		f := pages(2, func(i int) string { return fmt.Sprintf("https://shop.example/api/categories/%d/items", i+3) }, body)
		r, _, err := siteapi.Learn(f, shown(0, 5), siteapi.LearnOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Pagination != nil {
			t.Errorf("pagination %+v of two lists", r.Pagination)
		}
	})
}

// TestCallPathPages: a recipe learned from path pages calls them in turn
// and ends at the first path the site does not have.
func TestCallPathPages(t *testing.T) {
	body := func(i int) string { return `{"results":` + items(i*5, 5) + `}` }
	at := func(i int) string {
		if i == 0 {
			return "https://shop.example/data/lamps.json"
		}
		return fmt.Sprintf("https://shop.example/data/lamps-%d.json", i+1)
	}
	r, _, err := siteapi.Learn(pages(2, at, body), shown(0, 10), siteapi.LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	site := &fakeSite{answer: func(req calls.FetchRequest) (*calls.FetchResult, error) {
		for i := range 4 {
			if req.URL == at(i) {
				return &calls.FetchResult{URL: req.URL, Status: 200, Body: body(i), Headers: []calls.Header{{Name: "content-type", Value: "application/json"}}}, nil
			}
		}
		return &calls.FetchResult{URL: req.URL, Status: 404, StatusText: "Not Found"}, nil
	}}
	res, err := siteapi.Call(context.Background(), site, r, siteapi.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, req := range site.sent {
		urls = append(urls, req.URL)
	}
	if len(res.Rows) != 20 || res.Pages != 4 || res.Ended != "last page" || len(urls) != 5 || urls[4] != "https://shop.example/data/lamps-5.json" {
		t.Errorf("%d rows over %d pages, ended %q; sent %v", len(res.Rows), res.Pages, res.Ended, urls)
	}
}

// TestLearnAcrossRepresentations: the page and the answer write the same
// row differently (an amount in cents, a price with a decimal comma, a
// flag as words, a date written out, fields nested and renamed); the rows
// are found, the cents kept as the field's divide, and a call gives the
// page's amounts back.
func TestLearnAcrossRepresentations(t *testing.T) {
	var items []string
	var rows []map[string]any
	days := []string{"3 Nov 2026", "November 4, 2026", "5 November 2026"}
	for i := range 3 {
		items = append(items, fmt.Sprintf(`{"id":"SKU-%d","attributes":{"title":"Lamp %d"},"price_cents":%d,"list_price":%d.5,"in_stock":%v,"updated":"2026-11-%02dT10:00:00Z"}`,
			i, i, 4264+i*100, 40+i, i != 1, 3+i))
		rows = append(rows, map[string]any{"name": fmt.Sprintf("Lamp %d", i), "sku": fmt.Sprintf("SKU-%d", i),
			"price": fmt.Sprintf("$%d.%02d", 42+i, 64), "was": fmt.Sprintf("%d,50 €", 40+i),
			"stock": map[bool]string{true: "In stock", false: "Sold out"}[i != 1], "updated": days[i]})
	}
	f := pages(1, func(int) string { return "https://shop.example/api/lamps" }, func(int) string { return `{"data":{"products":[` + strings.Join(items, ",") + `]}}` })
	r, rep, err := siteapi.Learn(f, rows, siteapi.LearnOptions{})
	if err != nil {
		t.Fatalf("learn: %v (ranked %+v)", err, rep)
	}
	want := map[string]siteapi.Field{"name": {Name: "name", Path: "/attributes/title"}, "sku": {Name: "sku", Path: "/id"},
		"price": {Name: "price", Path: "/price_cents", Divide: 100}, "was": {Name: "was", Path: "/list_price"},
		"stock": {Name: "stock", Path: "/in_stock"}, "updated": {Name: "updated", Path: "/updated"}}
	for _, fd := range r.Fields {
		if fd != want[fd.Name] {
			t.Errorf("field %+v, want %+v", fd, want[fd.Name])
		}
		delete(want, fd.Name)
	}
	if len(want) > 0 || rep.Ranked[0].Rows != 3 {
		t.Errorf("unmapped %v; %d of 3 rows found (%v)", want, rep.Ranked[0].Rows, rep.Unmapped)
	}
	site := &fakeSite{answer: func(req calls.FetchRequest) (*calls.FetchResult, error) {
		return &calls.FetchResult{URL: req.URL, Status: 200, Body: f.Exchanges[0].ResponseBody, Headers: []calls.Header{{Name: "content-type", Value: "application/json"}}}, nil
	}}
	res, err := siteapi.Verify(context.Background(), site, r, rows, 1, siteapi.CallOptions{})
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	if got := res.Rows[0]["price"]; got != 42.64 {
		t.Errorf("the first row's price reads %v, want 42.64 as the page shows it", got)
	}
}

// TestLearnAnAmountWrittenAsText: many APIs write a decimal as a string
// ("cost": "42.64", "amount": "1299.00") while the page shows "42,64 €"
// or "¥1,299": the rows are still found (evals/shapes: no captured answer
// held the rows).
func TestLearnAnAmountWrittenAsText(t *testing.T) {
	var items []string
	var rows []map[string]any
	for i := range 3 {
		items = append(items, fmt.Sprintf(`{"product_name":"Lamp %d","cost":"%d.64","yen":"%d"}`, i, 42+i, 1299+i))
		rows = append(rows, map[string]any{"name": fmt.Sprintf("Lamp %d", i), "price": fmt.Sprintf("%d,64\u00a0€", 42+i), "yen": fmt.Sprintf("¥1,%d", 299+i)})
	}
	f := pages(1, func(int) string { return "https://shop.example/api/list?page=1" }, func(int) string { return `{"results":[` + strings.Join(items, ",") + `]}` })
	r, rep, err := siteapi.Learn(f, rows, siteapi.LearnOptions{})
	if err != nil {
		t.Fatalf("learn: %v (ranked %+v)", err, rep)
	}
	want := map[string]string{"name": "/product_name", "price": "/cost", "yen": "/yen"}
	for _, fd := range r.Fields {
		if fd.Path != want[fd.Name] || fd.Divide != 0 {
			t.Errorf("field %+v, want the path %s", fd, want[fd.Name])
		}
	}
}
