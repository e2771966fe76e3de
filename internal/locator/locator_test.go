package locator

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Locator
	}{
		{"@e12", Locator{Kind: Ref, Value: "e12"}},
		{"e12", Locator{Kind: Ref, Value: "e12"}},
		{" @E7 ", Locator{Kind: Ref, Value: "e7"}},
		{"role=button", Locator{Kind: Role, Value: "button"}},
		{"Role=Button", Locator{Kind: Role, Value: "button"}},
		{`role=button[name="Pay now"]`, Locator{Kind: Role, Value: "button", Name: "Pay now", HasName: true, Exact: true}},
		{`role=button[name='Pay now']`, Locator{Kind: Role, Value: "button", Name: "Pay now", HasName: true, Exact: true}},
		{`role=button [ name = "Pay now" ] `, Locator{Kind: Role, Value: "button", Name: "Pay now", HasName: true, Exact: true}},
		{`role=link[name=Help center]`, Locator{Kind: Role, Value: "link", Name: "Help center", HasName: true, Exact: true}},
		{`role=button[name="say \"hi\" \\ ok"]`, Locator{Kind: Role, Value: "button", Name: `say "hi" \ ok`, HasName: true, Exact: true}},
		{`role=button[name="a]b"]`, Locator{Kind: Role, Value: "button", Name: "a]b", HasName: true, Exact: true}},
		{"text=Continue", Locator{Kind: Text, Value: "Continue"}},
		{"text=  Continue  ", Locator{Kind: Text, Value: "Continue"}},
		{`text="Continue"`, Locator{Kind: Text, Value: "Continue", Exact: true}},
		{`text=" Continue "`, Locator{Kind: Text, Value: " Continue ", Exact: true}},
		{`text=it's "fine"`, Locator{Kind: Text, Value: `it's "fine"`}},
		{"text=a=b", Locator{Kind: Text, Value: "a=b"}},
		{"label=Email", Locator{Kind: Label, Value: "Email"}},
		{`label='Email'`, Locator{Kind: Label, Value: "Email", Exact: true}},
		{"placeholder=Search", Locator{Kind: Placeholder, Value: "Search"}},
		{"testid=submit", Locator{Kind: TestID, Value: "submit", Exact: true}},
		{`testid="submit"`, Locator{Kind: TestID, Value: "submit", Exact: true}},
		{"css=#go", Locator{Kind: CSS, Value: "#go"}},
		{`css=form > button[type="submit"]`, Locator{Kind: CSS, Value: `form > button[type="submit"]`}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.in, diff)
			}
			back, err := Parse(got.String())
			if err != nil {
				t.Fatalf("Parse(%q.String() = %q): %v", tt.in, got.String(), err)
			}
			if back != got {
				t.Errorf("round trip through %q: got %+v, want %+v", got.String(), back, got)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string // a part of the message
	}{
		{"", "empty locator; locators are @e12"},
		{"   ", "empty locator"},
		{"Pay now", `"Pay now" is not a locator; did you mean text="Pay now"? locators are @e12`},
		{"#go", "for a CSS selector write css=#go"},
		{".btn", "write css=.btn"},
		{"//button", "looks like XPath, which is not supported; use css="},
		{"xpath=//button", "xpath= is not supported; use css="},
		{"@foo", `"@foo" is not a ref; refs look like @e12`},
		{"ref=e12", "write a ref as @e12"},
		{"id=go", `unknown locator kind "id"; write css=#go instead`},
		{"data-testid=x", "write testid=x instead"},
		{"foo=bar", `unknown locator kind "foo"; locators are`},
		{"role=", "role= needs a role"},
		{`role=[name="x"]`, "role= needs a role"},
		{`role=button[name=""]`, "is empty; leave out [name=…] to match any button"},
		{`role=button[name="x"`, `missing "]" after the name`},
		{`role=button[name=x`, `missing "]"`},
		{`role=button[name="x]`, "missing closing \""},
		{`role=button[checked]`, "unknown attribute"},
		{`role=button[name="x" i]`, `missing "]" after the name`},
		{`role=button[name="x"]x`, `unexpected text after "]"`},
		{`role=button name`, "unexpected text"},
		{"text=", "text= needs a value"},
		{`text=""`, `text="" is empty`},
		{`text="  "`, "only white space"},
		{`text="a" b`, `unexpected " b" after the closing quote`},
		{`text="a\`, "lone backslash"},
		{`label='a`, "missing closing '"},
		{"css=", "css= needs a selector"},
		{"testid=", "testid= needs a value"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want an error", tt.in, got)
			}
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("Parse(%q) error %v does not match ErrSyntax", tt.in, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse(%q) error\n%s\ndoes not contain\n%s", tt.in, err, tt.want)
			}
		})
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		l    Locator
		want string
	}{
		{Locator{Kind: Ref, Value: "e3"}, "@e3"},
		{Locator{Kind: Role, Value: "button"}, "role=button"},
		{Locator{Kind: Role, Value: "button", Name: `a "b"`, HasName: true, Exact: true}, `role=button[name="a \"b\""]`},
		{Locator{Kind: Text, Value: "Go"}, "text=Go"},
		{Locator{Kind: Text, Value: "Go", Exact: true}, `text="Go"`},
		{Locator{Kind: TestID, Value: "x y", Exact: true}, "testid=x y"},
		{Locator{Kind: TestID, Value: " x", Exact: true}, `testid=" x"`},
		{Locator{Kind: CSS, Value: "#go"}, "css=#go"},
	}
	for _, tt := range tests {
		if got := tt.l.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.l, got, tt.want)
		}
	}
}

func TestMatch(t *testing.T) {
	pay := Candidate{Role: "button", Name: "Pay  now", Text: "Pay now", TestID: "pay-btn"}
	email := Candidate{Role: "textbox", Name: "Email address", Label: "Email address", Placeholder: "you@example.com"}
	more := Candidate{Role: "clickable", Name: "More details"}
	tests := []struct {
		loc  string
		c    Candidate
		want bool
	}{
		{"role=button", pay, true},
		{"role=BUTTON", pay, true},
		{"role=link", pay, false},
		{`role=button[name="Pay now"]`, pay, true},
		{`role=button[name="pay NOW"]`, pay, true},
		{"role=button[name=\" Pay\tnow \"]", pay, true},
		{`role=button[name=Pay now]`, pay, true},
		{`role=button[name="Pay"]`, pay, false}, // exact, not substring
		{`role=button[name=Pay]`, pay, false},   // quotes do not change that
		{`role=textbox[name="Email address"]`, email, true},
		{"text=pay", pay, true},
		{"text=ay n", pay, true},
		{`text="pay now"`, pay, true},
		{`text="Pay"`, pay, false},
		{"text=Pay later", pay, false},
		{"label=email", email, true},
		{`label="Email"`, email, false},
		{`label="email ADDRESS"`, email, true},
		{"label=Email", pay, false},
		{"placeholder=example", email, true},
		{`placeholder="you@example.com"`, email, true},
		{"testid=pay-btn", pay, true},
		{"testid=PAY-BTN", pay, false},
		{"testid=pay", pay, false},
		{`role=clickable[name="More details"]`, more, true},
		{`role=generic[name="More details"]`, more, true}, // recorded before "clickable"
		{`role=generic`, pay, false},
		{"@e1", pay, false},
		{"css=button", pay, false},
	}
	for _, tt := range tests {
		t.Run(tt.loc, func(t *testing.T) {
			l, err := Parse(tt.loc)
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Match(tt.c); got != tt.want {
				t.Errorf("Parse(%q).Match(%+v) = %v, want %v", tt.loc, tt.c, got, tt.want)
			}
		})
	}
}

// A hand-built locator with an empty value matches nothing.
func TestMatchEmpty(t *testing.T) {
	c := Candidate{Role: "button", Name: "x", Text: "x", Label: "x", Placeholder: "x"}
	for _, k := range []Kind{Role, Text, Label, Placeholder, TestID} {
		for _, exact := range []bool{false, true} {
			if (Locator{Kind: k, Exact: exact}).Match(c) {
				t.Errorf("empty %s locator (exact %v) matched", k, exact)
			}
		}
	}
	if (Locator{Kind: Role, Value: "button", HasName: true, Name: " "}).Match(c) {
		t.Error("role with a blank name matched")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"@e12", "e3", "role=button", `role=button[name="Pay \"now\""]`, `role=link[name='x']`,
		"role=a[name=b]", "text=Continue", `text="Continue"`, `label=' a '`, "placeholder=Search",
		"testid=submit", `testid="'q"`, "css=#go", "xpath=//a", "Pay now", `text="a\`, "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("Parse(%q) error %v does not match ErrSyntax", s, err)
			}
			return
		}
		back, err := Parse(l.String())
		if err != nil {
			t.Fatalf("Parse(%q) = %+v, whose String %q does not parse: %v", s, l, l.String(), err)
		}
		if back != l {
			t.Fatalf("Parse(%q) = %+v, but Parse(%q) = %+v", s, l, l.String(), back)
		}
		_ = l.Match(Candidate{Role: l.Value, Name: l.Name, Text: l.Value})
	})
}
