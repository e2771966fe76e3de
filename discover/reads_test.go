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
		// A comment ends at a lone CR too; an escaped \""" does not end a
		// block string (review of issue 27: both hid a mutation).
		{"{\"query\":\"query Q { a }\\n#\\rmutation M { del }\",\"operationName\":\"M\"}", ""},
		{`{"query":"query { a(s: \"\"\" \\\"\"\" \"\"\") } mutation M { del } # \"\"\" ) }"}`, ""},
		{`{"query":"query { a(s: \"\"\" x \"\"\") { b } }"}`, ReadGraphQL},
		// A writing verb makes a method a write whatever it starts with.
		{`{"jsonrpc":"2.0","method":"status.set","id":1}`, ""},
		{`{"jsonrpc":"2.0","method":"get_or_create","id":1}`, ""},
		{`{"jsonrpc":"2.0","method":"list.clear","id":1}`, ""},
		{`{"jsonrpc":"2.0","method":"view.update","id":1}`, ""},
		{`{"jsonrpc":"2.0","method":"eth_call","id":1}`, ReadJSONRPC},
		{`{"q":"lamp"}`, ""},
		{`not json`, ""},
		{`[]`, ""},
	} {
		if got := ReadShape(c.body); got != c.want {
			t.Errorf("ReadShape(%s) = %q, want %q", c.body, got, c.want)
		}
	}
}
