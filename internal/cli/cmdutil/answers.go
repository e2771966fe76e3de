package cmdutil

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// ParseAnswers reads a JSON object of answers; true, false and numbers
// are taken as their words.
func ParseAnswers(raw []byte) (map[string]string, error) {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, UsageErrorf(`write the answers as one JSON object: {"email": "ann@example.com"}`, "the answers are not a JSON object: %v", err)
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch x := v.(type) {
		case string:
			out[k] = x
		case bool:
			out[k] = strconv.FormatBool(x)
		case json.Number:
			out[k] = x.String()
		case nil:
			out[k] = ""
		default:
			return nil, UsageErrorf("give each answer as a string, number or true/false", "the answer for %q is not a single value", k)
		}
	}
	return out, nil
}

// RowsOf reads rows from JSON (see readRows); name names it in errors.
func RowsOf(name string, b []byte) ([]map[string]any, error) {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, calls.Errorf(calls.ErrBadInput, "the rows are JSON: an array of objects", "%s: %v", name, err)
	}
	for range 3 {
		m, ok := v.(map[string]any)
		if !ok {
			break
		}
		if d, ok := m["data"]; ok {
			v = d
			continue
		}
		if d, ok := m["value"]; ok { // extract --json's data
			v = d
			continue
		}
		var lists []any
		for _, x := range m {
			if _, ok := x.([]any); ok {
				lists = append(lists, x)
			}
		}
		if len(lists) != 1 {
			break
		}
		v = lists[0]
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, calls.Errorf(calls.ErrBadInput, "give an array of objects, or an object holding one", "%s holds no list of rows", name)
	}
	var rows []map[string]any
	for _, it := range arr {
		if m, ok := it.(map[string]any); ok {
			rows = append(rows, m)
		}
	}
	return rows, nil
}

// RemoteEndpoint makes a session manager for a CDP endpoint of [pool]:
// the daemon's options, attached to that browser.
func RemoteEndpoint(opts driver.Options) func(endpoint string) (calls.Caller, func() error) {
	return func(endpoint string) (calls.Caller, func() error) {
		o := opts
		o.CDP = endpoint
		m := sessions.New(o)
		return m, m.Close
	}
}
