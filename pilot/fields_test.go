package pilot

import (
	"slices"
	"testing"
)

func TestMaskLineValue(t *testing.T) {
	marks := map[string]string{"e4": "pin"}
	tests := []struct{ in, want string }{
		{`- textbox "PIN" [ref=e4] value="739"` + "\n", `- textbox "PIN" [ref=e4] value=«secret:pin»` + "\n"},
		{`- textbox "PIN" [ref=e4] value="a \"quoted\" one": after`, `- textbox "PIN" [ref=e4] value=«secret:pin»: after`},
		{`- textbox "Other" [ref=e40] value="739"`, `- textbox "Other" [ref=e40] value="739"`},
		{`- textbox "Email" [ref=e3] value="a@b.c"`, `- textbox "Email" [ref=e3] value="a@b.c"`},
		{`- textbox "PIN" [ref=e4]`, `- textbox "PIN" [ref=e4]`},
		{`- textbox "PIN" [ref=e4] value="unterminated`, `- textbox "PIN" [ref=e4] value=«secret:pin»` + "\n"},
		{`- text: 739`, `- text: 739`},
	}
	for _, tt := range tests {
		if got := maskLineValue(tt.in, marks); got != tt.want {
			t.Errorf("maskLineValue(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSecretFieldsRefs(t *testing.T) {
	var f secretFields
	if got := f.refs(); got != nil {
		t.Errorf("no marks: %q", got)
	}
	f.mark("e12", "pin")
	f.mark("@e4", "password")
	f.mark("e12", "code")
	f.mark("", "nothing")
	if got, want := f.refs(), []string{"@e12", "@e4"}; !slices.Equal(got, want) {
		t.Errorf("refs = %q, want %q", got, want)
	}
}
