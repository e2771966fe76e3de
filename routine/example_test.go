package routine_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/routine"
)

// A routine is plain JSON: its variables are declared, never valued, and
// each step's element carries a locator and a fingerprint from the live
// page.
func ExampleParse() {
	r, err := routine.Parse([]byte(`{
  "format": "waymark.routine/1",
  "name": "sign in",
  "version": 1,
  "variables": [{"name": "email"}, {"name": "password", "secret": true}],
  "steps": [
    {"kind": "goto", "url": "https://shop.example/login", "landed": {"path": "/login"}},
    {"kind": "act", "op": "fill", "value": {"from": "secret", "slot": "password"},
     "target": {"locator": "label=Password", "fingerprint": {"role": "textbox", "name": "Password"}}}
  ]
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range r.Variables {
		fmt.Println("variable", v.Name, "secret:", v.Secret)
	}
	for _, s := range r.Steps {
		switch s.Kind {
		case routine.KindGoto:
			fmt.Println("goto", s.URL)
		default:
			fmt.Println(s.Kind, s.Op, s.Target.Locator)
		}
	}
	// Output:
	// variable email secret: false
	// variable password secret: true
	// goto https://shop.example/login
	// act fill label=Password
}

// A routine that breaks the format is refused with what is wrong.
func ExampleParse_invalid() {
	_, err := routine.Parse([]byte(`{"format": "waymark.routine/1", "name": "x", "version": 1, "steps": [{"kind": "jump"}]}`))
	fmt.Println(err)
	// Output:
	// routine: steps[0].kind: value must be one of 'goto', 'act', 'verify', 'extract', 'if', 'each', 'form', 'sheet_read', 'sheet_write', 'sheet_fill', 'doc_insert', 'doc_read', 'api'

}
