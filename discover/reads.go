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
			if m, ok := obj["method"].(string); ok && MethodReads(m) {
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
// defines is a query (the shorthand "{ … }" is one), whatever the
// operation's name, operationName or the URL say. Comments and strings
// are skipped; a document with no operation, or a word at its top level
// that starts no query or fragment (mutation, subscription, anything not
// GraphQL), is not a read. The send gate (driver/sendclass.go) and the
// API read gate (siteapi/gate.go) both ask it: one reader of the shape.
func GraphQLReads(doc string) bool {
	depth, paren, ops, sets := 0, 0, 0, 0
	expectOp := true // at the top level, before a definition's first token
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		switch {
		case c == '#':
			// A comment ends at any line terminator GraphQL knows: a lone
			// CR too, or a mutation after "#\r" would hide in it.
			for i < len(doc) && doc[i] != '\n' && doc[i] != '\r' {
				i++
			}
		case c == '"':
			if strings.HasPrefix(doc[i:], `"""`) {
				// A block string ends at the first """ not escaped as \""".
				j := i + 3
				for j < len(doc) && !strings.HasPrefix(doc[j:], `"""`) {
					if strings.HasPrefix(doc[j:], `\"""`) {
						j += 4
						continue
					}
					j++
				}
				if j >= len(doc) {
					return false
				}
				i = j + 2
				continue
			}
			for i++; i < len(doc) && doc[i] != '"'; i++ {
				if doc[i] == '\\' {
					i++
				}
			}
		case c == '(':
			paren++
		case c == ')':
			paren--
			if paren < 0 {
				return false
			}
		case paren > 0:
			// Variables' definitions and arguments: an object value's
			// braces there open no selection.
		case c == '{':
			if depth == 0 {
				sets++
				if expectOp {
					ops++ // the shorthand query
				}
			}
			depth++
			expectOp = false
		case c == '}':
			depth--
			if depth < 0 {
				return false
			}
			expectOp = depth == 0
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(doc) && (doc[j] == '_' || doc[j] >= 'a' && doc[j] <= 'z' || doc[j] >= 'A' && doc[j] <= 'Z' || doc[j] >= '0' && doc[j] <= '9') {
				j++
			}
			word := doc[i:j]
			if depth == 0 && expectOp {
				switch word {
				case "query":
					ops++
				case "fragment":
				default:
					return false // mutation, subscription, or not GraphQL
				}
				expectOp = false
			}
			i = j - 1
		}
	}
	return depth == 0 && paren == 0 && ops > 0 && sets >= ops
}

// readVerbs are the words a JSON-RPC method that reads starts with
// (after a namespace: "eth_getBalance", "user.list"). "call" is not one
// (MCP's "tools/call" acts); Ethereum's eth_call and eth_estimateGas are
// reads by that protocol's definition and are named whole (readMethods).
var readVerbs = map[string]bool{
	"get": true, "list": true, "read": true, "fetch": true, "find": true, "search": true,
	"query": true, "lookup": true, "describe": true, "show": true, "count": true, "view": true,
	"load": true, "browse": true, "estimate": true, "status": true, "ping": true, "version": true, "info": true,
}

// writeVerbs are words that make a method a write whatever verb it
// starts with; Acts' list names the acts a person would, not these.
var writeVerbs = map[string]bool{
	"set": true, "create": true, "update": true, "clear": true, "add": true, "save": true, "insert": true,
	"write": true, "put": true, "edit": true, "modify": true, "move": true, "mark": true, "upsert": true,
	"patch": true, "replace": true, "store": true, "send": true, "post": true, "reset": true, "remove": true,
}

// readMethods are whole method names that read though their verb is not
// one of readVerbs.
var readMethods = map[string]bool{"eth_call": true, "eth_estimateGas": true}

// MethodReads reports whether a JSON-RPC method's name reads: it is one
// of readMethods, or one of its first two words is a reading verb; and
// none of its words acts (Acts).
func MethodReads(m string) bool {
	if Acts(&url.URL{Path: "/" + m}) != "" {
		return false
	}
	if readMethods[m] {
		return true
	}
	words := SplitWords(m)
	for _, w := range words {
		if writeVerbs[w] {
			return false // "status.set", "get_or_create", "list.clear"
		}
	}
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
