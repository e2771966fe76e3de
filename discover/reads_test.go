package discover

import "testing"

func TestReadShape(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"query":"query Search($q: String!) { search(q: $q) { nodes { name } } }","variables":{"q":"lamp"}}`, ReadGraphQL},
		{`{"query":"{ items { id } }"}`, ReadGraphQL},
		{`{"query":"# mutation in a comment\nquery A { a(s: \"mutation {x}\") { id } } fragment F on T { id }"}`, ReadGraphQL},
		{`[{"query":"{ a }"},{"query":"query B { b }"}]`, ReadGraphQL},
		{`{"query":"mutation DeleteAll { deleteAll { ok } }","operationName":"DeleteAll"}`, ""},
		{`{"query":"query Items { items { id } } mutation Pay { pay { ok } }","operationName":"Items"}`, ""},
		{`{"query":"subscription S { s }"}`, ""},
		{`[{"query":"{ a }"},{"query":"mutation { b }"}]`, ""},
		{`{"operationName":"Items","extensions":{"persistedQuery":{"sha256Hash":"abc"}}}`, ""},
		{`{"query":"query A($x: In = {a: 1}) { a(x: $x) }"}`, ReadGraphQL},
		{`{"query":"query A { a "}`, ""},
		{`{"jsonrpc":"2.0","method":"eth_getBalance","params":[],"id":1}`, ReadJSONRPC},
		{`{"jsonrpc":"2.0","method":"user.list","id":1}`, ReadJSONRPC},
		{`{"jsonrpc":"2.0","method":"getAndDelete","id":1}`, ""},
		{`{"jsonrpc":"2.0","method":"eth_sendTransaction","id":1}`, ""},
		{`{"jsonrpc":"2.0","method":"transfer","id":1}`, ""},
		{`{"q":"lamp"}`, ""},
		{`not json`, ""},
		{`[]`, ""},
	} {
		if got := ReadShape(c.body); got != c.want {
			t.Errorf("ReadShape(%s) = %q, want %q", c.body, got, c.want)
		}
	}
}
