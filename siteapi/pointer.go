package siteapi

import (
	"strconv"
	"strings"
)

// JSON pointers (RFC 6901) name places in an answer: "" is the whole,
// "/data/items" a member, "/items/0/name" an item's field.

func validPointer(p string) bool { return p == "" || strings.HasPrefix(p, "/") }

func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func join(p, tok string) string { return p + "/" + escapeToken(tok) }

// at returns the value at pointer p in v.
func at(v any, p string) (any, bool) {
	for _, tok := range splitPointer(p) {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// leaves calls fn with the pointer and value of every string, number and
// bool in v, under prefix, down to depth levels.
func leaves(v any, prefix string, depth int, fn func(p string, v any)) {
	switch x := v.(type) {
	case map[string]any:
		if depth == 0 {
			return
		}
		for k, c := range x {
			leaves(c, join(prefix, k), depth-1, fn)
		}
	case []any:
		if depth == 0 {
			return
		}
		for i, c := range x {
			leaves(c, join(prefix, strconv.Itoa(i)), depth-1, fn)
		}
	case nil:
	default:
		fn(prefix, x)
	}
}

// text is a leaf as the words a page would show: numbers without
// trailing zeros, strings with their spaces folded.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return strings.Join(strings.Fields(x), " ")
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return ""
	}
	return ""
}
