package routine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
)

func TestParseEveryKind(t *testing.T) {
	r, err := Load("testdata/every-kind.json")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	var walk func([]Step)
	walk = func(ss []Step) {
		for _, s := range ss {
			kinds[s.Kind] = true
			walk(s.Then)
			walk(s.Else)
			walk(s.Do)
			walk(s.Fallback)
		}
	}
	walk(r.Steps)
	for _, k := range []string{KindGoto, KindAct, KindVerify, KindExtract, KindIf, KindEach, KindAPI} {
		if !kinds[k] {
			t.Errorf("kind %s not loaded", k)
		}
	}
	if r.Steps[1].Value.Slot != "email" || r.Steps[5].Do[0].Target.Positional != true {
		t.Errorf("fields lost: %+v", r.Steps[1])
	}
	orders, rows := r.Steps[10], r.Steps[11]
	if orders.Recipe == nil || orders.Recipe.Fields[1].Format != "date" || rows.Recipe == nil || rows.Over != "" ||
		rows.Do[0].Target.Place != "td:nth-of-type(3) > button:nth-of-type(1)" {
		t.Errorf("recipes and places lost: %+v %+v", orders, rows)
	}
	if api := r.Steps[12]; api.API == nil || api.API.Request.Headers[0].From != "localStorage" || len(api.Fallback) != 2 || api.Fallback[1].Recipe == nil {
		t.Errorf("the api step lost: %+v", api)
	}
}

// TestAPIStepRefused: an API recipe only on an api step, fallback steps
// only there, and no recipe that holds a secret.
func TestAPIStepRefused(t *testing.T) {
	api := `{"format": "waymark.api/1", "site": "https://shop.example", "page": "https://shop.example/",
"request": {"method": "GET", "url": "https://shop.example/api/items", "headers": [%s]}, "rows": "/items", "fields": [{"name": "name", "path": "/title"}]}`
	for _, tc := range []struct{ steps, where string }{
		{`[{"kind": "api", "api": ` + fmt.Sprintf(api, `{"name": "authorization", "from": "const", "value": "Bearer tok-7f3a9c2e51b84d06a1e2"}`) + `}]`, "steps[0].api"},
		{`[{"kind": "goto", "url": "https://shop.example/", "api": ` + fmt.Sprintf(api, "") + `}]`, "steps[0].api"},
		{`[{"kind": "goto", "url": "https://shop.example/", "fallback": [{"kind": "goto", "url": "https://shop.example/"}]}]`, "steps[0].fallback"},
		{`[{"kind": "api", "api": ` + fmt.Sprintf(api, "") + `, "list": {"pages": 2, "scroll": true}}]`, "steps[0].list"},
	} {
		le := loadErr(t, `{"format": "waymark.routine/1", "name": "x", "version": 1, "steps": `+tc.steps+`}`)
		if le.Where != tc.where {
			t.Errorf("%s: refused at %s (%s), want %s", tc.steps, le.Where, le.Msg, tc.where)
		}
	}
}

// loadErr parses src (a routine with its steps given) and returns the
// LoadError.
func loadErr(t *testing.T, src string) *LoadError {
	t.Helper()
	r, err := Parse([]byte(src))
	if err == nil {
		t.Fatalf("Parse succeeded: %+v", r)
	}
	if r != nil {
		t.Errorf("half-loaded routine returned with the error: %+v", r)
	}
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("err = %T %v, want *LoadError", err, err)
	}
	if !errors.Is(err, ErrInvalid) || !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("err %v is not ErrInvalid and calls.ErrBadInput", err)
	}
	return le
}

func routineWith(vars, steps string) string {
	return `{"format": "waymark.routine/1", "name": "t", "variables": ` + vars + `, "steps": ` + steps + `}`
}

const fp = `"fingerprint": {"role": "textbox", "name": "Email"}`

// rec is a recipe that checks.
const rec = `{"format": "waymark.recipe/1", "container": "ul.users", "row": "li", "fields": [{"name": "name", "type": "string", "by": "role", "select": "h3"}]}`

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		wantWhere string
		wantMsg   string // a part of the message
	}{
		{"malformed", `{"format": "waymark.routine/1", "name": "t",` + "\n" + `"steps": [}`, "", "line 2, column 11"},
		{"not an object", `[1,2]`, "", "one JSON object"},
		{"unknown version", `{"format": "waymark.routine/9", "name": "t", "steps": []}`, "format", `unknown format "waymark.routine/9": this waymark loads waymark.routine/1`},
		{"no version", `{"name": "t", "steps": []}`, "format", `no "format" field`},
		{"unknown kind", routineWith(`[]`, `[{"kind": "goto", "url": "http://x/"}, {"kind": "fly"}]`), "steps[1].kind", "value must be one of"},
		{"goto without url", routineWith(`[]`, `[{"kind": "goto"}]`), "steps[0]", "missing property 'url'"},
		{"fill without value", routineWith(`[]`, `[{"kind": "act", "op": "fill", "target": {"locator": "label=Email", `+fp+`}}]`), "steps[0]", "missing property 'value'"},
		{"unknown field", routineWith(`[]`, `[{"kind": "goto", "url": "http://x/", "colour": "red"}]`), "steps[0]", "colour"},
		{"undeclared slot", routineWith(`[]`, `[{"id": "mail", "kind": "act", "op": "fill", "target": {"locator": "label=Email", `+fp+`}, "value": {"from": "input", "slot": "email"}}]`),
			`steps[0] (id "mail").value.slot`, `variable "email" is not declared`},
		{"undeclared template", routineWith(`[{"name": "a"}]`, `[{"kind": "goto", "url": "http://x/"}, {"kind": "act", "op": "fill", "target": {"locator": "label=Email", `+fp+`}, "value": {"template": "%a% and %b%"}}]`),
			"steps[1].value.template", `%b% refers to an undeclared variable`},
		{"undeclared in url", routineWith(`[]`, `[{"kind": "goto", "url": "http://x/%shop%"}]`), "steps[0].url", "%shop%"},
		{"row outside each", routineWith(`[]`, `[{"kind": "verify", "check": {"text": "%row.name%"}}]`), "steps[0].check.text", "only defined inside the steps of an each"},
		{"each over a plain variable", routineWith(`[{"name": "a"}]`, `[{"kind": "each", "over": "a", "do": []}]`), "steps[0].over", "not a list"},
		{"each over nothing", routineWith(`[]`, `[{"kind": "each", "over": "rows", "do": []}]`), "steps[0].over", "neither a declared list variable"},
		{"secret read from a plain variable", routineWith(`[{"name": "pw"}]`, `[{"kind": "act", "op": "fill", "target": {"locator": "label=Email", `+fp+`}, "value": {"from": "secret", "slot": "pw"}}]`),
			"steps[0].value.from", "not declared with \"secret\": true"},
		{"literal secret", routineWith(`[]`, `[{"kind": "goto", "url": "http://x/"}, {"kind": "goto", "url": "http://x/"}, {"kind": "goto", "url": "http://x/"},
			{"id": "token", "kind": "act", "op": "fill", "target": {"locator": "label=Email", `+fp+`}, "value": {"literal": "ghp_`+"a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"+`"}}]`),
			`steps[3] (id "token").value.literal`, "looks like a secret"},
		{"secret in a url", routineWith(`[]`, `[{"kind": "goto", "url": "https://ann:Zx8qT4vLm2Pw9@shop.example/"}]`), "steps[0].url", "secret"},
		{"duplicate id", routineWith(`[]`, `[{"id": "a", "kind": "goto", "url": "http://x/"}, {"id": "a", "kind": "goto", "url": "http://x/"}]`), `steps[1] (id "a").id`, "also used by steps[0]"},
		{"nested undeclared", routineWith(`[]`, `[{"kind": "if", "check": {"text": "x"}, "then": [{"kind": "goto", "url": "http://x/%y%"}]}]`), "steps[0].then[0].url", "%y%"},

		// How a scroll scrolls and a click clicks.
		{"unknown direction", routineWith(`[]`, `[{"kind": "goto", "url": "http://x/"}, {"id": "down", "kind": "act", "op": "scroll", "direction": "sideways"}]`),
			`steps[1] (id "down").direction`, `value must be one of 'up', 'down', 'left', 'right', 'into-view'`},
		{"zero pixels", routineWith(`[]`, `[{"id": "down", "kind": "act", "op": "scroll", "direction": "down", "pixels": 0}]`), `steps[0] (id "down").pixels`, "must be at least 1, got 0"},
		{"pixels not a number", routineWith(`[]`, `[{"kind": "act", "op": "scroll", "pixels": "600"}]`), "steps[0].pixels", "integer"},
		{"unknown button", routineWith(`[]`, `[{"id": "menu", "kind": "act", "op": "click", "button": "back", "target": {"locator": "label=Email", `+fp+`}}]`),
			`steps[0] (id "menu").button`, `value must be one of 'left', 'right', 'middle'`},
		{"zero count", routineWith(`[]`, `[{"id": "twice", "kind": "act", "op": "click", "count": 0, "target": {"locator": "label=Email", `+fp+`}}]`),
			`steps[0] (id "twice").count`, "must be at least 1, got 0"},
		{"nested bad count", routineWith(`[]`, `[{"kind": "if", "check": {"text": "x"}, "then": [{"id": "twice", "kind": "act", "op": "click", "count": -2, "target": {"locator": "label=Email", `+fp+`}}]}]`),
			`steps[0].then[0] (id "twice").count`, "must be at least 1, got -2"},
		{"direction on a click", routineWith(`[]`, `[{"id": "go", "kind": "act", "op": "click", "direction": "up", "target": {"locator": "label=Email", `+fp+`}}]`),
			`steps[0] (id "go").direction`, `"direction" is for scroll steps; this is a click step`},
		{"pixels on a goto", routineWith(`[]`, `[{"kind": "goto", "url": "http://x/", "pixels": 300}]`), "steps[0].pixels", `"pixels" is for scroll steps; this is a goto step`},
		{"into-view without a target", routineWith(`[]`, `[{"kind": "act", "op": "scroll", "direction": "into-view"}]`), "steps[0].direction", "into-view needs a target"},
		{"into-view with pixels", routineWith(`[]`, `[{"kind": "act", "op": "scroll", "direction": "into-view", "pixels": 40, "target": {"locator": "label=Email", `+fp+`}}]`),
			"steps[0].pixels", "takes no pixels"},
		{"button on a fill", routineWith(`[]`, `[{"kind": "act", "op": "fill", "button": "right", "value": {"literal": "x"}, "target": {"locator": "label=Email", `+fp+`}}]`),
			"steps[0].button", `"button" is for click and dblclick steps; this is a fill step`},
		{"count on a dblclick", routineWith(`[]`, `[{"kind": "act", "op": "dblclick", "count": 3, "target": {"locator": "label=Email", `+fp+`}}]`),
			"steps[0].count", "always two clicks"},
		{"count on a scroll", routineWith(`[]`, `[{"kind": "act", "op": "scroll", "count": 2}]`), "steps[0].count", `"count" is for click steps; this is a scroll step`},

		// Recipes and places in rows.
		{"recipe on a goto", routineWith(`[]`, `[{"kind": "goto", "url": "http://x/", "recipe": `+rec+`}]`), "steps[0].recipe", "this is a goto step"},
		{"a recipe that does not check", routineWith(`[]`, `[{"kind": "each", "recipe": {"format": "waymark.recipe/1", "container": "ul", "row": "li", "fields": []}, "do": []}]`),
			"steps[0].recipe", "no fields"},
		{"each with a recipe and over", routineWith(`[{"name": "rows", "list": true}]`, `[{"kind": "each", "over": "rows", "recipe": `+rec+`, "do": []}]`),
			"steps[0].over", "goes over nothing else"},
		{"each with neither", routineWith(`[]`, `[{"kind": "each", "do": []}]`), "steps[0]", "over"},
		{"place outside a recipe's each", routineWith(`[]`, `[{"kind": "act", "op": "click", "target": {"locator": "", "place": "button:nth-of-type(1)", `+fp+`}}]`),
			"steps[0].target.place", "inside an each with a recipe"},
		{"place in an each over a variable", routineWith(`[{"name": "rows", "list": true}]`, `[{"kind": "each", "recipe": `+rec+`, "do": [{"kind": "each", "over": "rows", "do": [{"kind": "act", "op": "click", "target": {"locator": "", "place": "button:nth-of-type(1)", `+fp+`}}]}]}]`),
			"steps[0].do[0].do[0].target.place", "inside an each with a recipe"},
		{"list on an extract with no recipe", routineWith(`[]`, `[{"kind": "extract", "instruction": "x", "schema": {}, "list": {"pages": 3}}]`),
			"steps[0].list", "an extract with a recipe"},
		{"list until no date", routineWith(`[]`, `[{"kind": "extract", "instruction": "x", "schema": {}, "recipe": `+rec+`, "list": {"until": "soon"}}]`),
			"steps[0].list.until", "not a date"},
		{"a row field the recipe does not read", routineWith(`[]`, `[{"kind": "each", "recipe": `+rec+`, "do": [{"kind": "verify", "check": {"text": "%row.nmae%"}}]}]`),
			"steps[0].do[0].check.text", `no field "nmae" (they have: name)`},
		{"a date format on a number", routineWith(`[]`, `[{"kind": "each", "recipe": {"format": "waymark.recipe/1", "container": "ul", "row": "li", "fields": [{"name": "n", "type": "number", "format": "date", "by": "tag"}]}, "do": []}]`),
			"steps[0].recipe", "date and date-time strings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			le := loadErr(t, tt.src)
			if le.Where != tt.wantWhere {
				t.Errorf("Where = %q, want %q (msg %q)", le.Where, tt.wantWhere, le.Msg)
			}
			if !strings.Contains(le.Msg, tt.wantMsg) {
				t.Errorf("Msg = %q, want it to hold %q", le.Msg, tt.wantMsg)
			}
		})
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(p, []byte(`{"format": "waymark.routine/0"}`), 0o644)
	_, err := Load(p)
	if err == nil || !strings.HasPrefix(err.Error(), "routine "+p+": format: ") {
		t.Errorf("err = %v", err)
	}
}

// TestUpgrade loads a fake older version through an upgrade function.
func TestUpgrade(t *testing.T) {
	upgrades["waymark.routine/0"] = func(raw map[string]any) (map[string]any, error) {
		// Version 0 called steps "actions" and had no name.
		raw["steps"] = raw["actions"]
		delete(raw, "actions")
		raw["name"] = "upgraded"
		raw["format"] = Format
		return raw, nil
	}
	t.Cleanup(func() { delete(upgrades, "waymark.routine/0") })
	if diff := cmp.Diff([]string{Format, "waymark.routine/0"}, Formats()); diff != "" {
		t.Errorf("Formats (-want +got):\n%s", diff)
	}
	r, err := Parse([]byte(`{"format": "waymark.routine/0", "actions": [{"kind": "goto", "url": "http://x/"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.Format != Format || r.Name != "upgraded" || len(r.Steps) != 1 || r.Steps[0].URL != "http://x/" {
		t.Errorf("upgraded = %+v", r)
	}
	// An unknown version lists what loads.
	le := loadErr(t, `{"format": "waymark.routine/7", "name": "t", "steps": []}`)
	if !strings.Contains(le.Msg, "waymark.routine/1, waymark.routine/0") {
		t.Errorf("Msg = %q", le.Msg)
	}
}

func TestSchemaIsValidJSON(t *testing.T) {
	var v map[string]any
	if err := json.Unmarshal(Schema, &v); err != nil {
		t.Fatal(err)
	}
	if _, err := schema(); err != nil {
		t.Fatal(err)
	}
}

// TestLoadHow loads the fields that say how a scroll scrolls and how a
// click clicks, and a step without them as before.
func TestLoadHow(t *testing.T) {
	target := `"target": {"locator": "label=Email", ` + fp + `}`
	r, err := Parse([]byte(routineWith(`[]`, `[
		{"id": "up", "kind": "act", "op": "scroll", "direction": "up", "pixels": 600},
		{"id": "left", "kind": "act", "op": "scroll", "direction": "left", `+target+`},
		{"id": "into", "kind": "act", "op": "scroll", "direction": "into-view", `+target+`},
		{"id": "plain", "kind": "act", "op": "scroll"},
		{"id": "menu", "kind": "act", "op": "click", "button": "right", `+target+`},
		{"id": "triple", "kind": "act", "op": "click", "button": "left", "count": 3, `+target+`},
		{"id": "open", "kind": "act", "op": "dblclick", "button": "middle", `+target+`},
		{"id": "click", "kind": "act", "op": "click", `+target+`}]`)))
	if err != nil {
		t.Fatal(err)
	}
	type how struct {
		Direction string
		Pixels    int
		Button    string
		Count     int
	}
	var got []how
	for _, s := range r.Steps {
		got = append(got, how{s.Direction, s.Pixels, s.Button, s.Count})
	}
	want := []how{{"up", 600, "", 0}, {"left", 0, "", 0}, {"into-view", 0, "", 0}, {}, {"", 0, "right", 0}, {"", 0, "left", 3}, {"", 0, "middle", 0}, {}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Absent fields stay absent when written back.
	b, err := json.Marshal(r.Steps[3])
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); s != `{"id":"plain","kind":"act","op":"scroll"}` {
		t.Errorf("a plain scroll marshals as %s", s)
	}
}

// TestValidateHow checks a routine built in Go, which meets no schema.
func TestValidateHow(t *testing.T) {
	tg := &Target{Locator: "label=Email", Fingerprint: calls.Fingerprint{Role: "textbox"}}
	tests := []struct {
		name      string
		step      Step
		wantWhere string
		wantMsg   string
	}{
		{"unknown direction", Step{ID: "s", Kind: KindAct, Op: calls.ActScroll, Direction: "sideways"}, `steps[0] (id "s").direction`, `unknown scroll direction "sideways"`},
		{"negative pixels", Step{Kind: KindAct, Op: calls.ActScroll, Direction: "up", Pixels: -5}, "steps[0].pixels", "at least 1"},
		{"unknown button", Step{Kind: KindAct, Op: calls.ActClick, Button: "back", Target: tg}, "steps[0].button", `unknown mouse button "back"`},
		{"negative count", Step{Kind: KindAct, Op: calls.ActClick, Count: -1, Target: tg}, "steps[0].count", "at least 1"},
		{"approved fill", Step{Kind: KindAct, Op: calls.ActFill, Target: tg, Value: &Value{Literal: "x"}, Approved: &Approved{Action: "click", Control: "c"}},
			"steps[0].approved", `"approved" is for click, dblclick and press steps`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(&Routine{Format: Format, Name: "t", Steps: []Step{tt.step}})
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a *LoadError", err)
			}
			if le.Where != tt.wantWhere || !strings.Contains(le.Msg, tt.wantMsg) {
				t.Errorf("got %q: %q, want %q: …%q…", le.Where, le.Msg, tt.wantWhere, tt.wantMsg)
			}
		})
	}
}

// TestLoadAcceptsAByteOrderMark: a routine saved by an editor that starts
// UTF-8 files with a BOM loads like the same file without it.
func TestLoadAcceptsAByteOrderMark(t *testing.T) {
	plain, err := os.ReadFile("testdata/every-kind.json")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bom.json")
	if err := os.WriteFile(path, append([]byte("\xEF\xBB\xBF"), plain...), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatalf("Load with a BOM: %v", err)
	}
	want, err := Load("testdata/every-kind.json")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("with a BOM (-want +got):\n%s", diff)
	}
}

func TestLoadRefusesAFolder(t *testing.T) {
	_, err := Load(t.TempDir())
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(err.Error(), "folder") {
		t.Fatalf("Load of a folder: %v", err)
	}
}

func TestLoadSheetSteps(t *testing.T) {
	base := `{"format": "waymark.routine/1", "name": "s", "steps": [%s]}`
	for _, c := range []struct {
		step string
		want string // "" loads
	}{
		{`{"kind": "sheet_read", "range": "A1:C20", "into": "t"}`, ""},
		{`{"kind": "sheet_write", "cell": "B2", "value": {"literal": "4"}}`, ""},
		{`{"kind": "sheet_fill", "cells": {"B2": {"literal": "4"}, "C9": {"literal": "x"}}}`, ""},
		{`{"kind": "sheet_read", "range": "A0"}`, "rows start at 1"},
		{`{"kind": "sheet_read"}`, "range"},
		{`{"kind": "sheet_write", "cell": "B2:C3", "value": {"literal": "4"}}`, "not one cell"},
		{`{"kind": "sheet_write", "cell": "B2"}`, "value"},
		{`{"kind": "sheet_fill", "cells": {"B2:C2": {"literal": "4"}}}`, "not one cell"},
		{`{"kind": "sheet_fill", "cells": {"B2": {"from": "input", "slot": "nope"}}}`, "not declared"},
		{`{"kind": "goto", "url": "http://x/", "range": "A1"}`, "sheet_read"},
	} {
		_, err := Parse([]byte(fmt.Sprintf(base, c.step)))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.step, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.step, err, c.want)
		}
	}
}
