package discover

import (
	"encoding/json"
	"net/url"
	"strings"
)

// A POST can be a read: a GraphQL query operation, a JSON-RPC call whose
// method reads. ReadShape tells one from its body, so the one who asks
// (api learn marking a recipe a read, api call checking the body again
// at call time) reads the same shape. It never guesses: a body it cannot
// read as one of these is not a read.

// Read shapes [ReadShape] returns.
const (
	ReadGraphQL = "graphql-query" // every operation of the document is a query
	ReadJSONRPC = "json-rpc-read" // every call's method reads
)

// ReadShape returns the read shape of a request body (JSON), or "" when
// the body is not proved a read: a GraphQL document with a mutation or a
// subscription (anywhere in it, whatever operationName picks), a
// persisted query with no document, a JSON-RPC method whose words act or
// do not start with a reading verb. A batch (a JSON array) is a read only
// when every element is, of the same shape.
func ReadShape(body string) string {
	var doc any
	if json.Unmarshal([]byte(body), &doc) != nil {
		return ""
	}
	items, batch := doc.([]any)
	if !batch {
		items = []any{doc}
	}
	if len(items) == 0 {
		return ""
	}
	shape := ""
	for _, it := range items {
		obj, ok := it.(map[string]any)
		if !ok {
			return ""
		}
		s := ""
		if q, ok := obj["query"].(string); ok && GraphQLReads(q) {
			s = ReadGraphQL
		} else if _, hasQuery := obj["query"]; !hasQuery && obj["jsonrpc"] != nil {
			if m, ok := obj["method"].(string); ok && methodReads(m) {
				s = ReadJSONRPC
			}
		}
		if s == "" || (shape != "" && s != shape) {
			return ""
		}
		shape = s
	}
	return shape
}

// GraphQLReads reports whether every operation a GraphQL document
// defines is a query (the shorthand "{ … }" is one). Comments and strings
// are skipped; a document with no operation is not a read.
func GraphQLReads(doc string) bool {
	depth, ops := 0, 0
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		switch {
		case c == '#':
			for i < len(doc) && doc[i] != '\n' && doc[i] != '\r' {
				i++
			}
		case c == '"':
			if strings.HasPrefix(doc[i:], `"""`) {
				end := strings.Index(doc[i+3:], `"""`)
				if end < 0 {
					return false
				}
				i += 3 + end + 2
				continue
			}
			for i++; i < len(doc) && doc[i] != '"'; i++ {
				if doc[i] == '\\' {
					i++
				}
			}
		case c == '{':
			if depth == 0 {
				ops++ // a shorthand query, or the selection of the operation named before it
			}
			depth++
		case c == '}':
			depth--
			if depth < 0 {
				return false
			}
		case depth == 0 && isNameStart(c):
			j := i
			for j < len(doc) && isNameChar(doc[j]) {
				j++
			}
			switch doc[i:j] {
			case "mutation", "subscription":
				return false
			case "query", "fragment":
			default:
				// A name at the top level is an operation's or a
				// fragment's name, a type condition, or a variable's
				// type inside (…): skip the parentheses whole.
			}
			i = j - 1
		case depth == 0 && c == '(':
			// Variable definitions: no braces unless in a default
			// value's object, which is depth-neutral.
			n := 1
			for i++; i < len(doc) && n > 0; i++ {
				switch doc[i] {
				case '(':
					n++
				case ')':
					n--
				case '"':
					for i++; i < len(doc) && doc[i] != '"'; i++ {
						if doc[i] == '\\' {
							i++
						}
					}
				}
			}
			i--
		}
	}
	return depth == 0 && ops > 0
}

func isNameStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isNameChar(c byte) bool { return isNameStart(c) || '0' <= c && c <= '9' }

// readVerbs are the words a JSON-RPC method that reads starts with
// (after a namespace: "eth_getBalance", "user.list").
var readVerbs = map[string]bool{
	"get": true, "list": true, "read": true, "fetch": true, "find": true, "search": true,
	"query": true, "lookup": true, "describe": true, "show": true, "count": true, "view": true,
	"load": true, "browse": true,
}

// methodReads reports whether a JSON-RPC method's name reads: one of its
// first two words is a reading verb, and none of its words acts (Acts).
func methodReads(m string) bool {
	if Acts(&url.URL{Path: "/" + m}) != "" {
		return false
	}
	words := splitWords(m)
	for i, w := range words {
		if i == 2 {
			break
		}
		if readVerbs[w] {
			return true
		}
	}
	return false
}
