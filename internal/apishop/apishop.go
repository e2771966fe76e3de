// Package apishop is a test shop whose product list comes from its own
// JSON API, as a single-page app's does: cursor pagination, a bearer
// token the page keeps in local storage, a CSRF header from a meta tag,
// a build id from a Next.js-style __NEXT_DATA__, an ETag, a 429 on a
// chosen call, and an endpoint that redirects to another origin (a second
// loopback listener, which records whether any credential reached it).
// It counts what reaches it, so tests trust the server, not waymark.
//
// The shop serves loopback only; tests of package siteapi, replay and the
// benchmark use it.
package apishop

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

//go:embed page.html
var pageHTML string

var pageTmpl = template.Must(template.New("page").Parse(pageHTML))

// Options shape a shop. The zero value is valid: 100 products, 10 a page,
// no 429.
type Options struct {
	Products int // zero means 100
	PageSize int // zero means 10
	// RateLimitAt answers the Nth call of /api/products (counting from 1)
	// with 429 and Retry-After: 1, once; zero never.
	RateLimitAt int
}

// Shop is a running shop and its other origin.
type Shop struct {
	URL   string // the shop: http://127.0.0.1:PORT
	Other string // the other origin /api/featured redirects to

	Token, CSRF, BuildID, SID string

	opts    Options
	main    *httptest.Server
	other   *httptest.Server
	renamed atomic.Bool

	mu       sync.Mutex
	hits     map[string]int
	bytes    int64
	apiCalls int
	limited  bool
	otherLog []Seen
	log      []Logged
}

// Seen is what the other origin received: whether a credential came.
type Seen struct {
	Path                        string
	Authorization, CSRF, Cookie bool
}

// Logged is one API request the shop answered, as a capture would hold it.
type Logged struct {
	Method, URL string
	Headers     http.Header
	Status      int
	Body        string
	RespHeaders http.Header
}

// Start starts a shop; Close stops it.
func Start(opts Options) *Shop {
	if opts.Products <= 0 {
		opts.Products = 100
	}
	if opts.PageSize <= 0 {
		opts.PageSize = 10
	}
	s := &Shop{opts: opts, hits: map[string]int{},
		Token: "tok-7f3a9c2e51b84d06a1e2", CSRF: "csrf-4b1d8e77c2a94f30", BuildID: "build-lamps-2026", SID: "sid-93c1f0a7d2e5"}
	s.other = httptest.NewServer(http.HandlerFunc(s.serveOther))
	s.Other = s.other.URL
	s.main = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.main.URL
	return s
}

// Close stops both listeners.
func (s *Shop) Close() {
	s.main.Close()
	s.other.Close()
}

// Rename changes the API's field names (title → label, price → cost
// {value, unit}, stock → qty); the page reads both, as a site whose API
// and front end changed together.
func (s *Shop) Rename(on bool) { s.renamed.Store(on) }

// Hits returns how many requests reached a path of the shop.
func (s *Shop) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// Bytes returns the bytes of every body the shop sent.
func (s *Shop) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}

// Requests returns how many requests reached the shop.
func (s *Shop) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.hits {
		n += c
	}
	return n
}

// Reset zeroes the counts (not the 429, which happens once).
func (s *Shop) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits, s.bytes, s.log, s.otherLog = map[string]int{}, 0, nil, nil
}

// OtherSaw returns what reached the other origin.
func (s *Shop) OtherSaw() []Seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Seen(nil), s.otherLog...)
}

// Log returns the API requests answered, in order.
func (s *Shop) Log() []Logged {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Logged(nil), s.log...)
}

// Product is one product as the page shows it.
type Product struct {
	Name  string
	Price string // "12.50 EUR"
	Stock string // "23 in stock"
}

// Products returns the products as the page shows them, in order.
func (s *Shop) Products() []Product {
	out := make([]Product, s.opts.Products)
	for i := range out {
		it := item(i)
		out[i] = Product{Name: it.title, Price: fmt.Sprintf("%.2f EUR", it.price), Stock: fmt.Sprintf("%d in stock", it.stock)}
	}
	return out
}

type product struct {
	id    string
	title string
	price float64
	stock int
}

func item(i int) product {
	colours := []string{"Brass", "Copper", "Walnut", "Linen", "Slate", "Amber", "Ivory"}
	kinds := []string{"desk lamp", "floor lamp", "pendant", "wall light", "reading lamp"}
	return product{id: fmt.Sprintf("p-%03d", i+1), title: fmt.Sprintf("%s %s %d", colours[i%len(colours)], kinds[i%len(kinds)], i+1),
		price: float64(1000+i*137%9000) / 100, stock: 200 + i*7%50}
}

func (s *Shop) count(path string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits[path]++
	s.bytes += int64(n)
}

func (s *Shop) write(w http.ResponseWriter, r *http.Request, status int, ctype, body string) {
	if ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
	s.count(r.URL.Path, len(body))
}

func (s *Shop) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/":
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: s.SID, Path: "/", HttpOnly: true})
		var b strings.Builder
		_ = pageTmpl.Execute(&b, map[string]any{"CSRF": s.CSRF, "BuildID": s.BuildID, "Token": s.Token, "PageSize": s.opts.PageSize})
		s.write(w, r, 200, "text/html; charset=utf-8", b.String())
	case "/api/products":
		s.products(w, r)
	case "/api/featured":
		if !s.authorized(r) {
			s.write(w, r, 401, "application/json", `{"error":"sign in"}`)
			return
		}
		w.Header().Set("Location", s.Other+"/api/featured")
		s.write(w, r, http.StatusFound, "", "")
	case "/products.json":
		// A platform's public JSON view of the list (as Shopify gives):
		// no credential needed.
		items := []map[string]any{}
		for i := range s.opts.PageSize {
			it := item(i)
			items = append(items, map[string]any{"id": it.id, "title": it.title, "price": map[string]any{"amount": it.price, "currency": "EUR"}, "stock": it.stock})
		}
		b, _ := json.Marshal(map[string]any{"products": items})
		s.write(w, r, 200, "application/json", string(b))
	case "/account/logout.json":
		s.write(w, r, 200, "application/json", `{"products":[]}`)
	case "/api/private":
		// A hop into the private network, which the policy refuses.
		w.Header().Set("Location", "http://10.9.8.7:8080/api/products")
		s.write(w, r, http.StatusFound, "", "")
	case "/api/notjson":
		s.write(w, r, 200, "text/html", "<html><body>Maintenance</body></html>")
	case "/api/huge":
		s.write(w, r, 200, "application/json", `{"data":{"items":[`+strings.Repeat(`{"title":"x"},`, 200000)+`{"title":"x"}]}}`)
	default:
		s.write(w, r, 404, "text/plain", "not found")
	}
}

func (s *Shop) authorized(r *http.Request) bool {
	c, err := r.Cookie("sid")
	return r.Header.Get("Authorization") == "Bearer "+s.Token && err == nil && c.Value == s.SID
}

// products answers /api/products?limit=N&cursor=C.
func (s *Shop) products(w http.ResponseWriter, r *http.Request) {
	logged := Logged{Method: r.Method, URL: s.URL + r.URL.RequestURI(), Headers: r.Header.Clone()}
	reply := func(status int, body string) {
		logged.Status, logged.Body, logged.RespHeaders = status, body, w.Header().Clone()
		s.mu.Lock()
		s.log = append(s.log, logged)
		s.mu.Unlock()
		s.write(w, r, status, "application/json", body)
	}
	s.mu.Lock()
	s.apiCalls++
	limit := s.opts.RateLimitAt > 0 && s.apiCalls == s.opts.RateLimitAt && !s.limited
	if limit {
		s.limited = true
	}
	s.mu.Unlock()
	switch {
	case limit:
		w.Header().Set("Retry-After", "1")
		reply(429, `{"error":"slow down"}`)
		return
	case !s.authorized(r):
		reply(401, `{"error":"sign in"}`)
		return
	case r.Header.Get("X-CSRF-Token") != s.CSRF:
		reply(403, `{"error":"bad csrf"}`)
		return
	case r.Header.Get("X-Build-Id") != s.BuildID:
		reply(400, `{"error":"stale build"}`)
		return
	}
	size, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil || size <= 0 || size > 100 {
		size = s.opts.PageSize
	}
	from := 0
	if c := r.URL.Query().Get("cursor"); c != "" {
		b, err := base64.RawURLEncoding.DecodeString(c)
		if err != nil || !strings.HasPrefix(string(b), "after:") {
			reply(400, `{"error":"bad cursor"}`)
			return
		}
		from, _ = strconv.Atoi(strings.TrimPrefix(string(b), "after:"))
	}
	items := []map[string]any{}
	for i := from; i < min(from+size, s.opts.Products); i++ {
		it := item(i)
		if s.renamed.Load() {
			items = append(items, map[string]any{"id": it.id, "label": it.title, "cost": map[string]any{"value": it.price, "unit": "EUR"}, "qty": it.stock})
		} else {
			items = append(items, map[string]any{"id": it.id, "title": it.title, "price": map[string]any{"amount": it.price, "currency": "EUR"}, "stock": it.stock})
		}
	}
	var next any
	if from+size < s.opts.Products {
		next = base64.RawURLEncoding.EncodeToString([]byte("after:" + strconv.Itoa(from+size)))
	}
	b, _ := json.Marshal(map[string]any{"data": map[string]any{"items": items, "total": s.opts.Products}, "next_cursor": next})
	sum := sha256.Sum256(b)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	if r.Header.Get("If-None-Match") == etag {
		reply(304, "")
		return
	}
	reply(200, string(b))
}

// serveOther is the other origin: it answers /api/featured to anyone
// (CORS *) and records whether a credential reached it.
func (s *Shop) serveOther(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.otherLog = append(s.otherLog, Seen{Path: r.URL.Path, Authorization: r.Header.Get("Authorization") != "",
		CSRF: r.Header.Get("X-CSRF-Token") != "", Cookie: r.Header.Get("Cookie") != ""})
	s.mu.Unlock()
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Access-Control-Allow-Headers", "*")
	if r.Method == http.MethodOptions {
		w.WriteHeader(204)
		return
	}
	items := []map[string]any{}
	for i := range 3 {
		it := item(i)
		items = append(items, map[string]any{"id": it.id, "title": it.title, "price": map[string]any{"amount": it.price, "currency": "EUR"}, "stock": it.stock})
	}
	b, _ := json.Marshal(map[string]any{"data": map[string]any{"items": items}})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}
