package outline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Line
		ok   bool
	}{
		{`- textbox "Email" [required] [ref=e12] value="ann@example.com"`,
			Line{Role: "textbox", Name: "Email", Ref: "e12", Value: "ann@example.com", Flags: []string{"required"},
				Raw: `textbox "Email" [required] [ref=e12] value="ann@example.com"`}, true},
		{`    - heading "Checkout" [level=1]`,
			Line{Depth: 2, Role: "heading", Name: "Checkout", Flags: []string{"level=1"}, Raw: `heading "Checkout" [level=1]`}, true},
		{`  - text: loose text run`, Line{Depth: 1, Role: "text", Text: "loose text run", Raw: "text: loose text run"}, true},
		{`- list:`, Line{Role: "list", Raw: "list:"}, true},
		{`- button [ref=e3]: Pay €12`, Line{Role: "button", Ref: "e3", Text: "Pay €12", Raw: "button [ref=e3]: Pay €12"}, true},
		{`- combobox "Size" [expanded=false] [ref=e4] value="M": shown`,
			Line{Role: "combobox", Name: "Size", Ref: "e4", Value: "M", Flags: []string{"expanded=false"}, Text: "shown",
				Raw: `combobox "Size" [expanded=false] [ref=e4] value="M": shown`}, true},
		{`- link "say \"hi\" [ref=e9]" [ref=e5]`,
			Line{Role: "link", Name: `say "hi" [ref=e9]`, Ref: "e5", Raw: `link "say \"hi\" [ref=e9]" [ref=e5]`}, true},
		{`- textbox ~"Username" [type=date] [ref=e6]`,
			Line{Role: "textbox", Name: "Username", Inferred: true, Ref: "e6", Flags: []string{"type=date"},
				Raw: `textbox ~"Username" [type=date] [ref=e6]`}, true},
		{`- button ~"close" [ref=e2]`, Line{Role: "button", Name: "close", Inferred: true, Ref: "e2", Raw: `button ~"close" [ref=e2]`}, true},
		{`- link "Trail Mug" [ref=e7] url="https://shop.test/products/2": Trail Mug`,
			Line{Role: "link", Name: "Trail Mug", Ref: "e7", URL: "https://shop.test/products/2", Text: "Trail Mug",
				Raw: `link "Trail Mug" [ref=e7] url="https://shop.test/products/2": Trail Mug`}, true},
		{`- textbox ~"broken [ref=e2]`, Line{}, false},
		{`[page] https://shop.test/ "Shop"`, Line{}, false},
		{`[sign-in] a sign-in form: "Email" [ref=e3]`, Line{}, false},
		{`(40 more lines below: 32 links — scroll, or snapshot --full)`, Line{}, false},
		{`- button "broken`, Line{}, false},
		{`- - button "Gone" [ref=e7]`, Line{}, false},
		{`+ - button "New" [ref=e8]`, Line{}, false},
		{`- "no role"`, Line{}, false},
		{``, Line{}, false},
	} {
		got, ok := ParseLine(tc.in)
		if ok != tc.ok {
			t.Errorf("ParseLine(%q) ok = %v, want %v", tc.in, ok, tc.ok)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseLine(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

// TestParseRender reads back what Render writes: every line parses, with
// the role, name, ref, value and states of its node.
func TestParseRender(t *testing.T) {
	yes, no := true, false
	root := &Node{Role: "document", Children: []*Node{
		{Role: "heading", Name: "Checkout", Level: 1},
		{Role: "form", Name: "Pay", Children: []*Node{
			{Role: "textbox", Name: `Name "as on card" [ref=e1]`, Ref: "e2", Value: "Ann\nLee", Required: true},
			{Role: "checkbox", Name: "Mixed", Ref: "e3", Checked: "mixed", Disabled: true},
			{Role: "combobox", Name: "Size", Ref: "e4", Value: "M", Expanded: &no},
			{Role: "button", Name: "Open", Ref: "e5", Expanded: &yes, Selected: true},
			{Role: "button", Ref: "e6", Children: []*Node{{Role: "text", Name: "Pay €12"}}},
			{Role: "textbox", Inferred: "Birthday", Type: "date", Ref: "e7", Value: "2012-06-24"},
			{Role: "textbox", Name: "Zip", Ref: "e8", Required: true, Invalid: "Use [0-9] x5] [ref=e1]"},
		}},
		{Role: "text", Name: "loose: text"},
	}}
	var buf bytes.Buffer
	if _, err := Render(&buf, root, RenderOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	want := []Line{
		{Role: "heading", Name: "Checkout", Flags: []string{"level=1"}},
		{Role: "form", Name: "Pay"},
		{Depth: 1, Role: "textbox", Name: `Name "as on card" [ref=e1]`, Ref: "e2", Value: "Ann\nLee", Flags: []string{"required"}},
		{Depth: 1, Role: "checkbox", Name: "Mixed", Ref: "e3", Flags: []string{"checked=mixed", "disabled"}},
		{Depth: 1, Role: "combobox", Name: "Size", Ref: "e4", Value: "M", Flags: []string{"expanded=false"}},
		{Depth: 1, Role: "button", Name: "Open", Ref: "e5", Flags: []string{"selected", "expanded"}},
		{Depth: 1, Role: "button", Ref: "e6", Text: "Pay €12"},
		{Depth: 1, Role: "textbox", Name: "Birthday", Inferred: true, Ref: "e7", Value: "2012-06-24", Flags: []string{"type=date"}},
		{Depth: 1, Role: "textbox", Name: "Zip", Ref: "e8", Flags: []string{"required", "invalid: Use (0-9) x5) (ref=e1)"}},
		{Role: "text", Text: "loose: text"},
	}
	got := Parse(buf.String())
	for i := range got {
		got[i].Raw = ""
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse(Render) (-want +got):\n%s\n%s", diff, buf.String())
	}
	l, ok := FindRef(buf.String(), "e1")
	if ok {
		t.Errorf("FindRef found e1, which is only inside a name: %+v", l)
	}
	if l, ok := FindRef(buf.String(), "e4"); !ok || l.Name != "Size" || !strings.HasPrefix(l.Raw, `combobox "Size"`) {
		t.Errorf("FindRef(e4) = %+v, %v", l, ok)
	}
}
