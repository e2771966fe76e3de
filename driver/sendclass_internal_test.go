package driver

import (
	"testing"

	"github.com/waymark-dev/waymark/secret"
)

// TestClassifySend: chatter goes, a commit — however dressed — needs
// approval. The page is on shop.example; cdn.shop.example is the same
// site, analytics.example another.
func TestClassifySend(t *testing.T) {
	typed := &secret.Set{}
	typed.Add("email", "ann@example.org")
	const page = "https://www.shop.example/p/7"
	for _, tt := range []struct {
		name   string
		f      sendFacts
		commit bool
	}{
		{"beacon to another site", sendFacts{method: "POST", url: "https://analytics.example/g/collect?en=click", kind: "ping"}, false},
		{"beacon to the site's /collect", sendFacts{method: "POST", url: "https://www.shop.example/collect", kind: "ping"}, false},
		{"keepalive to /hit", sendFacts{method: "POST", url: "https://www.shop.example/hit", kind: "fetch", body: "e=click"}, false},
		{"telemetry on a sister host", sendFacts{method: "POST", url: "https://rum.shop.example/v1/rum", kind: "xhr"}, false},
		{"POST to another site", sendFacts{method: "POST", url: "https://errors.example/api/1/envelope/", kind: "fetch", body: "{}"}, false},
		{"GraphQL query", sendFacts{method: "POST", url: "https://www.shop.example/graphql", kind: "fetch", body: `{"query":"query Q($id: ID = \"x)\") { p(id: $id, f: {a: 1}) { n } }","variables":{"id":"7"}}`}, false},
		{"GraphQL shorthand and fragment", sendFacts{method: "POST", url: "https://www.shop.example/graphql", kind: "fetch", body: `{"query":"{ a { ...F } } fragment F on A { b }"}`}, false},
		{"GraphQL batch of queries", sendFacts{method: "POST", url: "https://www.shop.example/graphql", kind: "fetch", body: `[{"query":"{ a }"},{"query":"query B { b }"}]`}, false},
		{"GraphQL query carrying a typed search", sendFacts{method: "POST", url: "https://www.shop.example/graphql", kind: "fetch", body: `{"query":"query S($q: String) { s(q: $q) { id } }","variables":{"q":"ann@example.org"}}`, typed: typed}, false},
		{"JSON-RPC read", sendFacts{method: "POST", url: "https://www.shop.example/rpc", kind: "fetch", body: `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":[]}`}, false},

		{"form submission", sendFacts{method: "POST", url: "https://www.shop.example/collect", kind: "document", submission: true}, true},
		{"navigation with POST", sendFacts{method: "POST", url: "https://analytics.example/x", kind: "document"}, true},
		{"DELETE to another site", sendFacts{method: "DELETE", url: "https://api.example/items/1", kind: "fetch"}, true},
		{"an events path that cancels", sendFacts{method: "POST", url: "https://www.shop.example/api/events/42/cancel", kind: "fetch"}, true},
		{"a logs path that purges", sendFacts{method: "POST", url: "https://www.shop.example/api/logs/purge", kind: "fetch"}, true},
		{"same-site POST with no sign", sendFacts{method: "POST", url: "https://www.shop.example/api/cart", kind: "fetch", body: "{}"}, true},
		{"beacon to /order", sendFacts{method: "POST", url: "https://www.shop.example/order", kind: "ping"}, true},
		{"beacon to /orders", sendFacts{method: "POST", url: "https://www.shop.example/api/orders", kind: "ping"}, true},
		{"camelCase placeOrder", sendFacts{method: "POST", url: "https://api.example/placeOrder", kind: "ping"}, true},
		{"analytics path that deletes", sendFacts{method: "POST", url: "https://www.shop.example/analytics/delete", kind: "ping"}, true},
		{"collect?action=delete", sendFacts{method: "POST", url: "https://www.shop.example/collect?action=delete", kind: "fetch"}, true},
		{"escaped word", sendFacts{method: "POST", url: "https://www.shop.example/collect?a=%64elete", kind: "fetch"}, true},
		{"payments on another site", sendFacts{method: "POST", url: "https://psp.example/v1/payments", kind: "fetch"}, true},
		{"deletion on another site", sendFacts{method: "POST", url: "https://api.example/account-deletion", kind: "fetch"}, true},
		{"confirmations on another site", sendFacts{method: "POST", url: "https://mail.example/confirmations", kind: "fetch"}, true},
		{"beacon body asks to delete", sendFacts{method: "POST", url: "https://www.shop.example/collect", kind: "ping", body: "action=delete&id=1"}, true},
		{"JSON body op transfer to another site", sendFacts{method: "POST", url: "https://t.example/events", kind: "fetch", body: `{"op":"transferFunds","to":"x"}`}, true},
		{"event named after a removal", sendFacts{method: "POST", url: "https://www.shop.example/collect", kind: "ping", body: "en=remove_from_cart&ep=1"}, false},
		{"payload is not pay", sendFacts{method: "POST", url: "https://analytics.example/payload", kind: "fetch"}, false},
		{"pay on another site", sendFacts{method: "POST", url: "https://psp.example/v1/pay", kind: "fetch"}, true},
		{"control says pay", sendFacts{method: "POST", url: "https://www.shop.example/collect", kind: "ping", control: "Pay now"}, true},
		{"beacon carrying typed values", sendFacts{method: "POST", url: "https://analytics.example/collect", kind: "ping", body: `{"e":"ann@example.org"}`, typed: typed}, true},
		{"typed values base64 in the URL", sendFacts{method: "POST", url: "https://analytics.example/collect?d=YW5uQGV4YW1wbGUub3Jn", kind: "ping", typed: typed}, true},
		{"typed values URL-encoded", sendFacts{method: "POST", url: "https://analytics.example/collect", kind: "ping", body: "e=ann%40example.org", typed: typed}, true},
		{"body too long to read", sendFacts{method: "POST", url: "https://analytics.example/collect", kind: "ping", unread: true}, true},
		{"mutation named like a query", sendFacts{method: "POST", url: "https://api.example/graphql?query=GetCart", kind: "fetch", body: `{"operationName":"GetCartQuery","query":"mutation GetCartQuery { wipe { id } }"}`}, true},
		{"query then mutation", sendFacts{method: "POST", url: "https://api.example/graphql", kind: "fetch", body: `{"query":"query A { a } mutation B { b }"}`}, true},
		{"mutation hidden behind a string", sendFacts{method: "POST", url: "https://api.example/graphql", kind: "fetch", body: `{"query":"query A($x: S = \"}\") { a } mutation B { b }"}`}, true},
		{"mutation after a comment with a brace", sendFacts{method: "POST", url: "https://api.example/graphql", kind: "fetch", body: `{"query":"# }\nmutation B { b }"}`}, true},
		{"subscription", sendFacts{method: "POST", url: "https://api.example/graphql", kind: "fetch", body: `{"query":"subscription { s }"}`}, true},
		{"batch with a mutation", sendFacts{method: "POST", url: "https://api.example/graphql", kind: "fetch", body: `[{"query":"{ a }"},{"query":"mutation { b }"}]`}, true},
		{"query with values beside", sendFacts{method: "POST", url: "https://api.example/graphql", kind: "fetch", body: `{"query":"{ a }","email":"ann@example.org"}`, typed: typed}, true},
		{"JSON-RPC write", sendFacts{method: "POST", url: "https://api.example/rpc", kind: "fetch", body: `{"jsonrpc":"2.0","method":"eth_sendTransaction"}`}, true},
		{"JSON-RPC read verb with a commit word", sendFacts{method: "POST", url: "https://api.example/rpc", kind: "fetch", body: `{"jsonrpc":"2.0","method":"getAndDelete"}`}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.f.page = page
			v := classifySend(tt.f)
			if v.commit != tt.commit || v.why == "" {
				t.Errorf("classifySend = %+v, want commit %v", v, tt.commit)
			}
		})
	}
}
