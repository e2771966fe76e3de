package routine

import (
	"encoding/json"
	"errors"
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
		}
	}
	walk(r.Steps)
	for _, k := range []string{KindGoto, KindAct, KindVerify, KindExtract, KindIf, KindEach} {
		if !kinds[k] {
			t.Errorf("kind %s not loaded", k)
		}
	}
	if r.Steps[1].Value.Slot != "email" || r.Steps[5].Do[0].Target.Positional != true {
		t.Errorf("fields lost: %+v", r.Steps[1])
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
