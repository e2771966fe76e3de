// Package chatter is the corpus the submit gate's friction is measured on
// (issue 27, item 7): pages whose plain buttons send what real pages send
// on a click — analytics beacons, keepalive POSTs, same-site telemetry,
// GraphQL queries, JSON-RPC reads, error reports — and pages whose buttons
// commit, some dressed as chatter. Pages are generated from a seed, so a
// run is repeatable and another seed gives other pages. The eval itself
// (eval_test.go, build tag evals) clicks every page's button with the gate
// on and counts, at the loopback server, what asked and what got through:
// make evals.
package chatter

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Page is one generated page.
type Page struct {
	Name string // "07-graphql-query"
	Kind string // the generator that made it: "graphql-query"
	// Commit says the button's send commits: it must ask, and nothing
	// may reach the server without approval.
	Commit bool
	// HTML is the page; {{other}} stands for another site's origin.
	HTML string
	// Path is the path of the send, counted at the server (on either
	// origin: both are the same server).
	Path string
	// Typed, when set, is typed into the page's field #email (with the
	// gate open) before the click.
	Typed string
}

// kind makes a page's send script from the page's random source.
type kind struct {
	name   string
	commit bool
	typed  bool
	send   func(r *rand.Rand) (script, path string)
}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

func id(r *rand.Rand) string { return fmt.Sprintf("%d", 1000+r.IntN(9000)) }

var kinds = []kind{
	{name: "ga-collect-beacon", send: func(r *rand.Rand) (string, string) {
		p := pick(r, "/g/collect", "/collect", "/j/collect")
		return fmt.Sprintf(`navigator.sendBeacon('{{other}}%s?v=2&tid=G-%s&en=%s&_p=%s','')`, p, id(r), pick(r, "click", "select_item", "view_item", "scroll"), id(r)), p
	}},
	{name: "keepalive-hit", send: func(r *rand.Rand) (string, string) {
		p := pick(r, "/hit", "/t/hit", "/log", "/ping")
		return fmt.Sprintf(`fetch('%s',{method:'POST',keepalive:true,body:'e=%s&x=%d'})`, p, pick(r, "click", "tap", "expand"), r.IntN(800)), p
	}},
	{name: "same-site-telemetry", send: func(r *rand.Rand) (string, string) {
		p := pick(r, "/telemetry", "/api/events", "/rum", "/metrics/v1", "/analytics/track")
		return fmt.Sprintf(`fetch('%s',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({type:'%s',ts:Date.now(),w:innerWidth})})`, p, pick(r, "ui.click", "widget_open", "perf")), p
	}},
	{name: "graphql-query", send: func(r *rand.Rand) (string, string) {
		doc := pick(r,
			`query ProductDetails($id: ID!) { product(id: $id) { name price { amount } } }`,
			`{ viewer { id cart { count } } }`,
			`query Reviews($id: ID!, $first: Int = 5) { reviews(product: $id, first: $first) { edges { node { stars text } } } }`,
			`query Stock { stock(sku: \"A-1\") { ...S } } fragment S on Stock { level }`,
			"# a comment\nquery Related($id: ID!) { related(id: $id, filter: {sort: \"top\"}) { id } }")
		return fmt.Sprintf(`fetch('/graphql',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({operationName:'%s',query:'%s',variables:{id:'%s'}})})`,
			pick(r, "ProductDetails", "Viewer", "Reviews"), strings.ReplaceAll(doc, "\n", `\n`), id(r)), "/graphql"
	}},
	{name: "jsonrpc-read", send: func(r *rand.Rand) (string, string) {
		m := pick(r, "getProduct", "eth_call", "list_reviews", "inventory.get", "search_items", "eth_getBalance")
		return fmt.Sprintf(`fetch('/rpc',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({jsonrpc:'2.0',id:%d,method:'%s',params:[%s]})})`, r.IntN(99), m, id(r)), "/rpc"
	}},
	{name: "sentry-envelope", send: func(r *rand.Rand) (string, string) {
		p := fmt.Sprintf("/api/%s/envelope/", id(r))
		return fmt.Sprintf(`fetch('{{other}}%s?sentry_key=%s',{method:'POST',mode:'no-cors',body:'{"event_id":"%s"}\n{"type":"event"}\n{"message":"TypeError"}'})`, p, id(r), id(r)), p
	}},
	{name: "segment-track", send: func(r *rand.Rand) (string, string) {
		return fmt.Sprintf(`fetch('{{other}}/v1/track',{method:'POST',mode:'no-cors',body:JSON.stringify({event:'%s',anonymousId:'%s'})})`, pick(r, "Product Clicked", "Tab Opened"), id(r)), "/v1/track"
	}},
	{name: "beacon-and-query", send: func(r *rand.Rand) (string, string) {
		return fmt.Sprintf(`navigator.sendBeacon('/collect','ev=open&id=%s');fetch('/graphql',{method:'POST',body:JSON.stringify({query:'{ product(id: %s) { name } }'})})`, id(r), id(r)), "/graphql"
	}},
	{name: "error-report-same-site", send: func(r *rand.Rand) (string, string) {
		return fmt.Sprintf(`fetch('/errors',{method:'POST',keepalive:true,body:JSON.stringify({msg:'ResizeObserver loop %s'})})`, id(r)), "/errors"
	}},

	// Commits: each must ask, and nothing may reach the server.
	{name: "form-submit", commit: true, send: func(r *rand.Rand) (string, string) {
		return `document.getElementById('f').requestSubmit()`, "/order"
	}},
	{name: "fetch-post-cart", commit: true, send: func(r *rand.Rand) (string, string) {
		return fmt.Sprintf(`fetch('/api/cart/items',{method:'POST',body:JSON.stringify({sku:'%s',qty:1})})`, id(r)), "/api/cart/items"
	}},
	{name: "graphql-mutation-named-query", commit: true, send: func(r *rand.Rand) (string, string) {
		return `fetch('/graphql?op=GetCartQuery',{method:'POST',body:JSON.stringify({operationName:'GetCartQuery',query:'mutation GetCartQuery { emptyCart { id } }'})})`, "/graphql"
	}},
	{name: "beacon-with-typed-values", commit: true, typed: true, send: func(r *rand.Rand) (string, string) {
		return `navigator.sendBeacon('{{other}}/collect',JSON.stringify({ev:'lead',email:document.getElementById('email').value}))`, "/collect"
	}},
	{name: "fetch-delete", commit: true, send: func(r *rand.Rand) (string, string) {
		return fmt.Sprintf(`fetch('/api/items/%s',{method:'DELETE'})`, id(r)), "/api/items/"
	}},
	{name: "beacon-to-order", commit: true, send: func(r *rand.Rand) (string, string) {
		return fmt.Sprintf(`navigator.sendBeacon('/order','sku=%s&qty=1')`, id(r)), "/order"
	}},
	{name: "analytics-path-that-deletes", commit: true, send: func(r *rand.Rand) (string, string) {
		return fmt.Sprintf(`fetch('/collect?action=delete&id=%s',{method:'POST',keepalive:true})`, id(r)), "/collect"
	}},
	{name: "jsonrpc-transfer", commit: true, send: func(r *rand.Rand) (string, string) {
		return `fetch('{{other}}/rpc',{method:'POST',mode:'no-cors',body:JSON.stringify({jsonrpc:'2.0',id:1,method:'wallet_transfer',params:[5]})})`, "/rpc"
	}},
}

// plainWords are the words of the buttons: none commits, as on a page
// where a person only looks around.
var plainWords = []string{"Show details", "More", "Next photo", "Open reviews", "Load more", "Expand", "Sort by price", "Filter", "Zoom", "Compare", "Continue", "Size guide"}

// Generate returns the pages made from seed: chatter pages whose
// button's send commits nothing, and commit pages whose send does; every
// kind at least once, the rest drawn at random.
func Generate(seed uint64, chatter, commits int) []Page {
	r := rand.New(rand.NewPCG(seed, 27))
	var plain, acting []kind
	for _, k := range kinds {
		if k.commit {
			acting = append(acting, k)
		} else {
			plain = append(plain, k)
		}
	}
	var order []kind
	for i := range max(chatter, len(plain)) {
		if i < len(plain) {
			order = append(order, plain[i])
		} else {
			order = append(order, plain[r.IntN(len(plain))])
		}
	}
	for i := range max(commits, len(acting)) {
		if i < len(acting) {
			order = append(order, acting[i])
		} else {
			order = append(order, acting[r.IntN(len(acting))])
		}
	}
	pages := make([]Page, 0, len(order))
	for i, k := range order {
		script, path := k.send(r)
		words := pick(r, plainWords...)
		title := pick(r, "Running shoes", "Desk lamp", "Coffee grinder", "Rain jacket", "Headphones")
		button := fmt.Sprintf(`<button type=button id=b onclick="%s">%s</button>`, strings.ReplaceAll(script, `"`, "&quot;"), words)
		body := fmt.Sprintf(`<h1>%s</h1><p>%s</p><label>Email <input id=email name=email></label> %s`, title, pick(r, "In stock.", "Ships tomorrow.", "4.5 stars."), button)
		if k.name == "form-submit" {
			body = fmt.Sprintf(`<h1>%s</h1><form id=f method=post action=/order><label>Email <input id=email name=email></label><input type=hidden name=sku value=%s></form>%s`, title, id(r), button)
		}
		p := Page{Name: fmt.Sprintf("%02d-%s", i+1, k.name), Kind: k.name, Commit: k.commit, Path: path,
			HTML: "<!doctype html><title>" + title + "</title>" + body}
		if k.typed {
			p.Typed = fmt.Sprintf("lead%s@example.org", id(r))
		}
		pages = append(pages, p)
	}
	return pages
}
