package testplan

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseValid(t *testing.T) {
	src := `format: waymark.plan/1
name: shop
base_url: http://127.0.0.1:8080
secrets: [PW]
expect_timeout: 2s
scenarios:
  - name: one
    steps:
      - open /products
      - click role=button[name="Sign in"]
      - click "role=button[name=\"Sign in\"]"
      - fill label=Email ${EMAIL}
      - fill "label=Full name" "Ann Example"
      - fill: {target: label=Full name, text: Ann Example, timeout: 3s}
      - type: [label=Notes, hello there]
      - press Enter
      - select label=Country United Kingdom
      - check label=Terms
      - uncheck: label=News
      - wait text Loaded
      - wait 500
      - wait: 2s
      - wait url: /orders/*
      - expect text Cart (1)
      - expect text "Cart (1)"
      - expect title: Trail Mug
      - expect url /orders/*
      - expect value label=Email ann@example.com
      - expect visible role=heading[name="Checkout"]
      - expect count css=.item 3
      - expect count role=button[name="Add to cart"] 1
      - expect count: {locator: role=link, count: 4, timeout: 1s}
      - screenshot
      - screenshot: {name: whole page, full: true}
      - act "add the mug to the cart"
      - act: {instruction: place the order, allow_submit: true}
      - extract "the order total" total.json
`
	p, err := Parse([]byte(src), "shop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "shop" || p.BaseURL != "http://127.0.0.1:8080" || p.ExpectTimeout != 2*time.Second {
		t.Errorf("plan header: %+v", p)
	}
	if diff := cmp.Diff([]string{"PW"}, p.Secrets); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
	type short struct {
		Verb, Kind  string
		Args        []string
		Timeout     time.Duration
		Full, Allow bool
	}
	want := []short{
		{Verb: "open", Args: []string{"/products"}},
		{Verb: "click", Args: []string{`role=button[name="Sign in"]`}},
		{Verb: "click", Args: []string{`role=button[name="Sign in"]`}},
		{Verb: "fill", Args: []string{"label=Email", "${EMAIL}"}},
		{Verb: "fill", Args: []string{"label=Full name", "Ann Example"}},
		{Verb: "fill", Args: []string{"label=Full name", "Ann Example"}, Timeout: 3 * time.Second},
		{Verb: "type", Args: []string{"label=Notes", "hello there"}},
		{Verb: "press", Args: []string{"Enter"}},
		{Verb: "select", Args: []string{"label=Country", "United Kingdom"}},
		{Verb: "check", Args: []string{"label=Terms"}},
		{Verb: "uncheck", Args: []string{"label=News"}},
		{Verb: "wait", Kind: "text", Args: []string{"Loaded"}},
		{Verb: "wait", Args: []string{"500"}},
		{Verb: "wait", Args: []string{"2000"}},
		{Verb: "wait", Kind: "url", Args: []string{"/orders/*"}},
		{Verb: "expect", Kind: "text", Args: []string{"Cart (1)"}},
		{Verb: "expect", Kind: "text", Args: []string{"Cart (1)"}},
		{Verb: "expect", Kind: "title", Args: []string{"Trail Mug"}},
		{Verb: "expect", Kind: "url", Args: []string{"/orders/*"}},
		{Verb: "expect", Kind: "value", Args: []string{"label=Email", "ann@example.com"}},
		{Verb: "expect", Kind: "visible", Args: []string{`role=heading[name="Checkout"]`}},
		{Verb: "expect", Kind: "count", Args: []string{"css=.item", "3"}},
		{Verb: "expect", Kind: "count", Args: []string{`role=button[name="Add to cart"]`, "1"}},
		{Verb: "expect", Kind: "count", Args: []string{"role=link", "4"}, Timeout: time.Second},
		{Verb: "screenshot", Args: []string{"screenshot"}},
		{Verb: "screenshot", Args: []string{"whole page"}, Full: true},
		{Verb: "act", Args: []string{"add the mug to the cart"}},
		{Verb: "act", Args: []string{"place the order"}, Allow: true},
		{Verb: "extract", Args: []string{"the order total", "total.json"}},
	}
	var got []short
	for _, st := range p.Scenarios[0].Steps {
		got = append(got, short{st.Verb, st.Kind, st.Args, st.Timeout, st.Full, st.AllowSubmit})
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	if l := p.Scenarios[0].Steps[0].Line; l != 9 {
		t.Errorf("first step on line %d, want 9", l)
	}
	if txt := p.Scenarios[0].Steps[5].Text; txt != `fill "label=Full name" "Ann Example"` {
		t.Errorf("mapping step rendered as %q", txt)
	}
}

func TestParseNameDefaultsToFile(t *testing.T) {
	p, err := Parse([]byte("scenarios:\n  - name: a\n    steps: [open /]\n"), filepath.Join("dir", "smoke.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "smoke" {
		t.Errorf("name %q, want smoke", p.Name)
	}
}

func TestParseMalformed(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		want      []string // parts of the message
	}{
		{"not yaml", "name: [\n", 1, []string{"not valid YAML"}},
		{"empty", "", 1, []string{"empty"}},
		{"list at top", "- open /\n", 1, []string{"mapping"}},
		{"unknown key", "name: x\nscenario: []\n", 2, []string{`unknown key "scenario"`}},
		{"no scenarios", "name: x\n", 1, []string{"no scenarios"}},
		{"empty scenarios", "scenarios: []\n", 1, []string{"must not be empty"}},
		{"bad format", "format: waymark.plan/9\nscenarios: []\n", 1, []string{"waymark.plan/1"}},
		{"bad base url", "base_url: /relative\nscenarios: []\n", 1, []string{"absolute URL"}},
		{"secret value not name", "secrets: [\"${PW}\"]\nscenarios: []\n", 1, []string{"not an environment variable name"}},
		{"scenario without name", "scenarios:\n  - steps: [open /]\n", 2, []string{"scenario 1 has no name"}},
		{"scenario twice", "scenarios:\n  - name: a\n    steps: [open /]\n  - name: a\n    steps: [open /]\n", 4, []string{`"a" is named twice`}},
		{"no steps", "scenarios:\n  - name: a\n", 2, []string{`scenario "a"`, "at least one step"}},
		{"unknown verb", "scenarios:\n  - name: a\n    steps:\n      - open /\n      - clik Go\n", 5, []string{`scenario "a", step 2`, `unknown step "clik"`, "open, click"}},
		{"missing arg", "scenarios:\n  - name: a\n    steps:\n      - fill label=Email\n", 4, []string{"step 1", "fill needs TEXT", "fill TARGET TEXT"}},
		{"expect what", "scenarios:\n  - name: a\n    steps:\n      - expect Cart\n", 4, []string{"expect what?", "text|title|url"}},
		{"bad count", "scenarios:\n  - name: a\n    steps:\n      - expect count css=li many\n", 4, []string{`"many" is not a count`}},
		{"bad wait", "scenarios:\n  - name: a\n    steps:\n      - wait soon\n", 4, []string{`wait "soon"`}},
		{"colon in string step", "scenarios:\n  - name: a\n    steps:\n      - fill label=Email: x\n", 4, []string{"quote the whole step"}},
		{"unknown map key", "scenarios:\n  - name: a\n    steps:\n      - fill: {target: x, value: y}\n", 4, []string{`"value" is not one of them`}},
		{"bad env ref", "scenarios:\n  - name: a\n    steps:\n      - fill label=Email ${EMAIL\n", 4, []string{"${NAME}"}},
		{"unclosed quote", "scenarios:\n  - name: a\n    steps:\n      - click \"text=Go\n", 4, []string{"unclosed"}},
		{"step is a list", "scenarios:\n  - name: a\n    steps:\n      - [open, /]\n", 4, []string{"not a list"}},
		{"bad timeout", "scenarios:\n  - name: a\n    steps:\n      - expect text: {text: x, timeout: soon}\n", 4, []string{"timeout"}},
		{"extract schema", "scenarios:\n  - name: a\n    steps:\n      - extract \"the total\" total.txt\n", 4, []string{".json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src), "p.yaml")
			var pe *PlanError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *PlanError", err)
			}
			if pe.Line != tt.line {
				t.Errorf("line %d, want %d (%v)", pe.Line, tt.line, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "p.yaml:") {
				t.Errorf("%q does not name the file", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestExamplePlansParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "plans", "*.yaml"))
	if err != nil || len(files) < 3 {
		t.Fatalf("example plans: %v %v", files, err)
	}
	for _, f := range files {
		if _, err := Load(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
