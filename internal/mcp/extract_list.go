package mcp

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/recipe"
)

// listIn is the extract tool's list argument: the recipe an earlier
// extract returned, and how to read a list over pages (the CLI's --recipe,
// --pages, --scroll, --key, --limit, --until, --until-field, --seen).
type listIn struct {
	Recipe     json.RawMessage `json:"recipe,omitempty"`
	Pages      int             `json:"pages,omitempty"`
	Scroll     bool            `json:"scroll,omitempty"`
	Key        string          `json:"key,omitempty"`
	Limit      int             `json:"limit,omitempty"`
	Until      string          `json:"until,omitempty"`
	UntilField string          `json:"until_field,omitempty"`
	Seen       []string        `json:"seen,omitempty"` // keys an earlier extract returned
}

const listHint = `give list as {"recipe": {…}, "pages": 5, "scroll": false, "key": "sku", "limit": 100, "until": "2026-11-01", "until_field": "date", "seen": ["…"]}, each optional`

// extractList reads the list argument into the pilot's options; relative
// dates in until count from now.
func extractList(v any, now time.Time) (pilot.ExtractOptions, error) {
	var xo pilot.ExtractOptions
	if v == nil {
		return xo, nil
	}
	if _, ok := v.(map[string]any); !ok {
		return xo, calls.Errorf(calls.ErrBadInput, listHint, "list is not an object")
	}
	b, _ := json.Marshal(v)
	var in listIn
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return xo, calls.Errorf(calls.ErrBadInput, listHint, "list: %v", err)
	}
	if g, ok, err := gridRecipe(in.Recipe); ok || err != nil {
		xo.Grid = g
		return xo, err
	}
	if len(in.Recipe) > 0 && string(in.Recipe) != "null" {
		r, err := recipe.Parse(in.Recipe)
		if err != nil {
			return xo, calls.Errorf(calls.ErrBadInput, "give the recipe an earlier extract returned, unchanged", "list.recipe: %v", err)
		}
		xo.Recipe = r
	}
	lo := pilot.ListOptions{Pages: in.Pages, Scroll: in.Scroll, Key: in.Key, Limit: in.Limit, UntilField: in.UntilField, Seen: in.Seen, Now: now}
	if lo.Scroll && lo.Pages < 2 {
		lo.Pages = 10
	}
	switch {
	case in.Pages < 0 || in.Limit < 0:
		return xo, calls.Errorf(calls.ErrBadInput, listHint, "list: pages and limit count up from 1")
	case len(in.Seen) > 0 && in.Key == "":
		return xo, calls.Errorf(calls.ErrBadInput, "add list.key: seen holds rows' keys", "list.seen needs list.key")
	case in.UntilField != "" && in.Until == "":
		return xo, calls.Errorf(calls.ErrBadInput, "add list.until", "list.until_field needs list.until")
	}
	if in.Until != "" {
		d, ok := recipe.ParseDate(in.Until, now)
		if !ok {
			return xo, calls.Errorf(calls.ErrBadInput, `write until as "2026-11-01", "1 Nov 2026" or "3 days ago"`, "list.until %q is not a date", in.Until)
		}
		lo.Until = d
	}
	xo.List, xo.Now = lo, now
	return xo, nil
}
