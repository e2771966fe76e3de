package siteapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/apishop"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/siteapi"
)

func TestMain(m *testing.M) { drivertest.Main(m) }

const listSchema = `{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"price":{"type":"string"},"stock":{"type":"string"}}}}`

// browserRows opens a page of the shop and reads its list as the browser
// shows it, by a recipe (package recipe) learned from the shop's own
// products: the rows `waymark extract` would give.
func browserRows(t testing.TB, ctx context.Context, s *driver.Session, shop *apishop.Shop, u string, r *recipe.Recipe) ([]map[string]any, *recipe.Recipe) {
	t.Helper()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: u}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Selector: "body[data-loaded=yes]"}); err != nil {
		t.Fatal(err)
	}
	if r == nil {
		l, err := recipe.ListOf(json.RawMessage(listSchema))
		if err != nil {
			t.Fatal(err)
		}
		var want []map[string]any
		for _, p := range shop.Products()[:10] {
			want = append(want, map[string]any{"name": p.Name, "price": p.Price, "stock": p.Stock})
		}
		if r, err = recipe.Learn(ctx, s, l, want); err != nil {
			t.Fatal(err)
		}
	}
	got, err := recipe.Read(ctx, s, r)
	if err != nil {
		t.Fatal(err)
	}
	if got.Misfit != "" {
		t.Fatalf("the browser's recipe no longer fits: %s", got.Misfit)
	}
	return got.Rows, r
}

// readPages reads the shop's first pages in the browser, following its
// next link, and returns the rows and the page recipe that read them.
func readPages(t testing.TB, ctx context.Context, s *driver.Session, shop *apishop.Shop, pages int) ([]map[string]any, *recipe.Recipe) {
	t.Helper()
	var rows []map[string]any
	var dom *recipe.Recipe
	u := shop.URL + "/"
	for p := 0; p < pages; p++ {
		var got []map[string]any
		got, dom = browserRows(t, ctx, s, shop, u, dom)
		rows = append(rows, got...)
		next, err := s.Get(ctx, calls.GetRequest{What: "attr", Target: "css=#next", Name: "href"})
		if err != nil {
			t.Fatal(err)
		}
		u = shop.URL + next.Value
	}
	return rows, dom
}

// learnShop reads the shop's first pages in the browser (page is how
// many), learns the API behind them from the capture of those calls (the
// shop's own account of them: see apishop.Shop.Capture), and returns the
// recipe, the rows the browser read and the page recipe.
func learnShop(t testing.TB, ctx context.Context, s *driver.Session, shop *apishop.Shop, pages int) (*siteapi.Recipe, []map[string]any, *recipe.Recipe) {
	t.Helper()
	rows, dom := readPages(t, ctx, s, shop, pages)
	f := shop.Capture([]byte("test key"))
	r, rep, err := siteapi.LearnCall(ctx, s, f, rows, siteapi.LearnOptions{Page: shop.URL + "/"})
	if err != nil {
		b, _ := json.MarshalIndent(rep, "", " ")
		t.Fatalf("learn: %v\n%s", err, b)
	}
	return r, rows, dom
}

// TestLearnAndCall: the recipe learned from two captured pages traces each
// value to its source (never holding one), infers the cursor, and a call
// from the tab reads all 10 pages, the same rows the browser shows; with
// the validators, an unchanged list costs one request and no rows.
func TestLearnAndCall(t *testing.T) {
	s, ctx := drivertest.Session(t, "learn", 120*time.Second)
	shop := apishop.Start(apishop.Options{})
	defer shop.Close()
	r, rows, _ := learnShop(t, ctx, s, shop, 2)

	src := map[string]siteapi.Param{}
	for _, p := range append(r.Request.Headers, r.Request.Query...) {
		src[p.Name] = p
	}
	for name, want := range map[string]siteapi.Source{
		"authorization": {From: siteapi.FromLocal, Key: "token", Prefix: "Bearer "},
		"x-csrf-token":  {From: siteapi.FromMeta, Key: "csrf-token"},
		"x-build-id":    {From: siteapi.FromScript, Key: "__NEXT_DATA__", Path: "/buildId"},
		"limit":         {From: siteapi.FromConst, Value: "10"},
	} {
		if got := src[name].Source; got != want {
			t.Errorf("%s: source %+v, want %+v", name, got, want)
		}
	}
	if pg := r.Pagination; pg == nil || pg.Kind != siteapi.PageCursor || pg.Param != "cursor" || pg.Next != "/next_cursor" {
		t.Errorf("pagination %+v, want the cursor at /next_cursor", r.Pagination)
	}
	if r.Rows != "/data/items" || !r.Learned.Verified {
		t.Errorf("rows at %q, verified %v", r.Rows, r.Learned.Verified)
	}
	b, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{shop.Token, shop.CSRF, shop.SID} {
		if strings.Contains(string(b), v) {
			t.Errorf("the recipe holds a secret %q:\n%s", v, b)
		}
	}
	if _, err := siteapi.Parse(b); err != nil {
		t.Fatalf("the recipe written does not load: %v", err)
	}

	// From another page: the call opens the recipe's page first.
	if _, err := s.Open(ctx, calls.OpenRequest{URL: "about:blank"}); err != nil {
		t.Fatal(err)
	}
	shop.Reset()
	res, err := siteapi.Call(ctx, s, r, siteapi.CallOptions{Fresh: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 100 || res.Pages != 10 || res.Ended != "last page" {
		t.Fatalf("%d rows over %d pages (ended %s), want 100 over 10", len(res.Rows), res.Pages, res.Ended)
	}
	// The page the person was on stays; the call went from a new tab.
	tabs, err := s.Tab(ctx, calls.TabRequest{Op: "list"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tabs.Tabs) != 2 || tabs.Tabs[0].URL != "about:blank" || !tabs.Tabs[1].Current {
		t.Errorf("tabs %+v, want the blank page kept and a new current tab on the shop", tabs.Tabs)
	}
	// The page's own load made one call; the direct call one a page.
	if n := shop.Hits("/api/products"); n != 1+10 {
		t.Errorf("the shop answered %d API calls, want 11 (the page's and 10 pages)", n)
	}
	for i, p := range shop.Products() {
		got := res.Rows[i]
		if got["name"] != p.Name || !strings.HasPrefix(p.Price, jsonText(got["price"])) {
			t.Fatalf("row %d: %v, want %+v", i, got, p)
		}
	}
	// The same rows as the browser read of the first two pages.
	for i, want := range rows {
		if res.Rows[i]["name"] != want["name"] {
			t.Errorf("row %d: %v; the browser read %v", i, res.Rows[i], want)
		}
	}

	// The session's own call (what the daemon serves): the recipe's JSON in.
	got, err := s.CallAPI(ctx, calls.APICallRequest{Recipe: b, Pages: 3, Fresh: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 30 || got.Pages != 3 || got.ETag == "" {
		t.Errorf("CallAPI: %d rows over %d pages, etag %q; want 30 over 3", len(got.Rows), got.Pages, got.ETag)
	}

	// Unchanged: the validators go back, one request, no rows.
	r.Validators = &siteapi.Validators{ETag: res.ETag, LastModified: res.LastModified}
	if r.Validators.ETag == "" {
		t.Fatal("no ETag kept")
	}
	before := shop.Hits("/api/products")
	res, err = siteapi.Call(ctx, s, r, siteapi.CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Unchanged || len(res.Rows) != 0 || res.Requests != 1 || shop.Hits("/api/products") != before+1 {
		t.Errorf("unchanged call: unchanged %v, %d rows, %d requests, %d reached the shop", res.Unchanged, len(res.Rows), res.Requests, shop.Hits("/api/products")-before)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}

// TestCallHostile: a 429 backs off for its Retry-After and the call goes
// on; a redirect to another origin reaches it without the token, CSRF
// value or cookie (as the other server saw); a hand-edited recipe that
// calls another origin or a private address is refused as blocked-url
// with nothing sent; an answer that is not JSON, and one over the bound,
// fail as changed.
func TestCallHostile(t *testing.T) {
	s, ctx := drivertest.Session(t, "hostile", 120*time.Second)
	// Calls 1 and 2 are the two pages', 3 and 4 the verifying call's, 5
	// the first of the direct call below: answered 429.
	shop := apishop.Start(apishop.Options{RateLimitAt: 5})
	defer shop.Close()
	r, rows, _ := learnShop(t, ctx, s, shop, 2)

	t.Run("429", func(t *testing.T) {
		before := shop.Hits("/api/products")
		start := time.Now()
		res, err := siteapi.Call(ctx, s, r, siteapi.CallOptions{Pages: 2, Fresh: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != 20 || res.WaitedMS < 900 || time.Since(start) < 900*time.Millisecond {
			t.Errorf("%d rows, waited %d ms, want 20 rows after about 1 s", len(res.Rows), res.WaitedMS)
		}
		if n := shop.Hits("/api/products") - before; n != 3 || res.Requests != 3 {
			t.Errorf("%d calls reached the shop (%d counted), want 3: the 429, its retry, page 2", n, res.Requests)
		}
	})
	t.Run("redirect to another origin", func(t *testing.T) {
		f := *r
		f.Request.URL = shop.URL + "/api/featured"
		f.Pagination, f.Validators = nil, nil
		res, err := siteapi.Call(ctx, s, &f, siteapi.CallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rows) != 3 || res.Requests != 2 {
			t.Errorf("%d rows in %d requests, want 3 in 2 (the hop and the other origin)", len(res.Rows), res.Requests)
		}
		seen := shop.OtherSaw()
		if len(seen) != 1 {
			t.Fatalf("the other origin saw %d requests, want 1", len(seen))
		}
		if w := seen[0]; w.Authorization || w.CSRF || w.Cookie {
			t.Errorf("a credential reached the other origin: %+v", w)
		}
	})
	t.Run("another origin", func(t *testing.T) {
		f := *r
		f.Request.URL = shop.Other + "/api/products"
		_, err := siteapi.Call(ctx, s, &f, siteapi.CallOptions{})
		if siteapi.KindOf(err) != siteapi.KindBlockedURL {
			t.Errorf("a recipe calling another origin: %v, want blocked-url", err)
		}
		if n := len(shop.OtherSaw()); n != 1 {
			t.Errorf("the other origin saw %d requests, want the 1 of the redirect before", n)
		}
	})
	t.Run("private address", func(t *testing.T) {
		f := *r
		f.Site, f.Page, f.Request.URL = "http://10.20.30.40:8080", "http://10.20.30.40:8080/", "http://10.20.30.40:8080/api/products"
		_, err := siteapi.Call(ctx, s, &f, siteapi.CallOptions{})
		if siteapi.KindOf(err) != siteapi.KindBlockedURL {
			t.Errorf("a recipe calling a private address: %v, want blocked-url", err)
		}
	})
	t.Run("redirect to a private address", func(t *testing.T) {
		f := *r
		f.Request.URL = shop.URL + "/api/private"
		_, err := siteapi.Call(ctx, s, &f, siteapi.CallOptions{Fresh: true})
		if siteapi.KindOf(err) != siteapi.KindBlockedURL || !strings.Contains(err.Error(), "10.9.8.7") {
			t.Errorf("a hop to a private address: %v, want blocked-url naming it", err)
		}
		if strings.Contains(err.Error(), shop.Token) || strings.Contains(err.Error(), shop.CSRF) {
			t.Errorf("the error repeats a secret: %v", err)
		}
	})
	t.Run("no error repeats a token", func(t *testing.T) {
		f := *r
		f.Request.URL = shop.URL + "/api/gone"
		f.Request.Query = append([]siteapi.Param{{Name: "access_token", Source: siteapi.Source{From: siteapi.FromLocal, Key: "token"}}}, r.Request.Query...)
		_, err := siteapi.Call(ctx, s, &f, siteapi.CallOptions{Fresh: true})
		if siteapi.KindOf(err) != siteapi.KindChanged || strings.Contains(err.Error(), shop.Token) || !strings.Contains(err.Error(), "/api/gone") {
			t.Errorf("a 404 of a URL holding the token: %v, want changed, the token masked", err)
		}
	})
	t.Run("not JSON", func(t *testing.T) {
		f := *r
		f.Request.URL = shop.URL + "/api/notjson"
		_, err := siteapi.Call(ctx, s, &f, siteapi.CallOptions{Fresh: true})
		if siteapi.KindOf(err) != siteapi.KindChanged || !strings.Contains(err.Error(), "not JSON") {
			t.Errorf("an HTML answer: %v, want changed", err)
		}
	})
	t.Run("huge", func(t *testing.T) {
		f := *r
		f.Request.URL = shop.URL + "/api/huge"
		_, err := siteapi.Call(ctx, s, &f, siteapi.CallOptions{Fresh: true, MaxBytes: 1 << 20})
		if siteapi.KindOf(err) != siteapi.KindChanged || !strings.Contains(err.Error(), "over the") {
			t.Errorf("a huge answer: %v, want changed (over the bound)", err)
		}
	})
	t.Run("candidate", func(t *testing.T) {
		// Nothing captured: the rows are found in what the site publishes
		// (discover's candidates); a candidate whose path acts is never
		// fetched.
		f := &capture.File{Format: capture.Format}
		r, rep, err := siteapi.LearnCall(ctx, s, f, rows[:10], siteapi.LearnOptions{Page: shop.URL + "/", Candidates: []siteapi.Candidate{
			{URL: shop.URL + "/account/logout.json", Source: "guess"},
			{URL: shop.URL + "/products.json", Source: "shopify"},
		}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Request.URL != shop.URL+"/products.json" || rep.Ranked[0].Source != "shopify" || !r.Learned.Verified {
			t.Errorf("learned %s from %+v", r.Request.URL, rep.Ranked)
		}
		if n := shop.Hits("/account/logout.json"); n != 0 {
			t.Errorf("a path that logs out was fetched %d times", n)
		}
	})
	t.Run("signed out", func(t *testing.T) {
		if _, err := s.Storage(ctx, calls.StorageRequest{Area: "local", Op: "clear"}); err != nil {
			t.Fatal(err)
		}
		_, err := siteapi.Call(ctx, s, r, siteapi.CallOptions{Fresh: true})
		if siteapi.KindOf(err) != siteapi.KindAuth {
			t.Errorf("no token in storage: %v, want auth", err)
		}
	})
}
