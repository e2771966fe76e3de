package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

func TestFormTools(t *testing.T) {
	fc := &fakeCaller{reply: func(method string, params any) (any, error) {
		switch method {
		case calls.MethodForm:
			return calls.Form{URL: "http://shop.test/", Fields: []calls.FormField{{Key: "email", Ref: "e1", Kind: "text"}}}, nil
		case calls.MethodFormFill:
			return calls.FormFillResult{Fields: []calls.FilledField{{Key: "email", After: "ann@example.com", Answered: true, ReadBack: true}},
				Stopped: []string{"POST http://shop.test/apply (a form submission)"}}, nil
		}
		return nil, nil
	}}
	cs := connect(t, Options{Caller: fc})
	out, failed, res := callTool(t, cs, "form", map[string]any{})
	if failed || !strings.Contains(out, `email text [ref=e1] = ""`) {
		t.Fatalf("form: %v %s", failed, out)
	}
	if b, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(b), `"key":"email"`) {
		t.Fatalf("form structuredContent: %s", b)
	}
	out, failed, _ = callTool(t, cs, "form_fill", map[string]any{"answers": map[string]string{"email": "ann@example.com"}})
	if failed || !strings.Contains(out, `email = "ann@example.com" ok`) || !strings.Contains(out, "stopped: POST") {
		t.Fatalf("form_fill: %v %s", failed, out)
	}
	seen := fc.seen()
	if last := seen[len(seen)-1]; last.Method != calls.MethodFormFill || !strings.Contains(last.Params, `"email":"ann@example.com"`) {
		t.Fatalf("form_fill called %+v", last)
	}
}

func TestFormFillUnplacedIsError(t *testing.T) {
	fc := &fakeCaller{reply: func(method string, params any) (any, error) {
		return calls.FormFillResult{Fields: []calls.FilledField{{Key: "email", After: "ann@example.com", Answered: true, ReadBack: true}},
			Unmatched: []string{"Shoe size"}, NeedsPerson: []string{"Shoe size: no field takes this answer"}}, nil
	}}
	cs := connect(t, Options{Caller: fc})
	out, failed, _ := callTool(t, cs, "form_fill", map[string]any{"answers": map[string]string{"email": "ann@example.com", "Shoe size": "38"}})
	if !failed || !strings.Contains(out, "1 answer found no field: Shoe size") || !strings.Contains(out, "code: not_found") || !strings.Contains(out, `email = "ann@example.com" ok`) {
		t.Fatalf("form_fill: %v %s", failed, out)
	}
}
