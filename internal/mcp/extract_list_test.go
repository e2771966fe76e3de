package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
)

func TestExtractListArgument(t *testing.T) {
	now := time.Date(2026, 11, 5, 12, 0, 0, 0, time.UTC)
	xo, err := extractList(map[string]any{"pages": 3.0, "key": "sku", "limit": 50.0, "until": "3 days ago", "until_field": "posted", "seen": []any{"a", "b"}}, now)
	if err != nil {
		t.Fatal(err)
	}
	l := xo.List
	if l.Pages != 3 || l.Key != "sku" || l.Limit != 50 || !l.Until.Equal(now.AddDate(0, 0, -3)) || l.UntilField != "posted" || len(l.Seen) != 2 || !xo.Now.Equal(now) {
		t.Errorf("list options %+v", xo)
	}
	if xo, _ := extractList(map[string]any{"scroll": true}, now); xo.List.Pages != 10 {
		t.Errorf("scroll reads up to %d pages, want 10", xo.List.Pages)
	}
	for _, bad := range []any{
		"pages=3",
		map[string]any{"pagez": 3.0},
		map[string]any{"until": "soon"},
		map[string]any{"seen": []any{"a"}},
		map[string]any{"until_field": "posted"},
		map[string]any{"pages": -1.0},
		map[string]any{"recipe": map[string]any{"format": "waymark.recipe/9"}},
	} {
		_, err := extractList(bad, now)
		var ce *calls.Error
		if !errors.As(err, &ce) || ce.Kind != calls.ErrBadInput || ce.Hint == "" {
			t.Errorf("list %v: %v, want bad input with a hint", bad, err)
		}
	}
}

// extract's list: a recipe with a limit reads with no model call and ends
// at the limit, saying so in structuredContent.
func TestPilotExtractAListWithALimit(t *testing.T) {
	c := &fakeCaller{reply: func(method string, params any) (any, error) {
		if method == calls.MethodEval {
			return calls.EvalResult{Value: json.RawMessage(`{"found":true,"lang":"en","rows":[{"name":"Mug","sku":"m1"},{"name":"Tote","sku":"t1"}]}`)}, nil
		}
		return nil, fmt.Errorf("unexpected %s", method)
	}}
	m := scripted.New()
	defer m.Verify(t)
	cs, _ := pilotServer(t, c, m, PilotOptions{}, nil)
	schema := map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}, "sku": map[string]any{"type": "string"}}}}
	var rec map[string]any
	json.Unmarshal([]byte(`{"format":"waymark.recipe/1","container":"ul","row":"li","fields":[{"name":"name","type":"string","by":"role","select":"a"},{"name":"sku","type":"string","by":"attr","select":"[data-sku]","attr":"data-sku"}]}`), &rec)
	got, isErr, res := callTool(t, cs, "extract", map[string]any{"instruction": "every product", "schema": schema, "list": map[string]any{"recipe": rec, "key": "sku", "limit": 1}})
	if isErr || !strings.HasPrefix(got, `[{"name":"Mug","sku":"m1"}]`) {
		t.Fatalf("isErr=%v reply %q", isErr, got)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	var out struct {
		Source, Ended string
		Rows          int
		Keys          []string
	}
	if json.Unmarshal(sc, &out) != nil || out.Source != "recipe" || out.Ended != "limit" || out.Rows != 1 || len(out.Keys) != 1 {
		t.Fatalf("structuredContent %s", sc)
	}
}
