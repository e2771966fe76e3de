package pilot

import (
	"strings"
	"testing"
)

func TestInstruction(t *testing.T) {
	const outline = "[page] https://shop.test/login \"Sign in\"\n- textbox \"Email\" [ref=e3]\n- button \"Sign in\" [ref=e5]"
	for _, tc := range []struct{ name, thought, want string }{
		{"plain", "sign in to the shop", "sign in to the shop"},
		{"lines", "type the email\n\n  then go on", "type the email then go on"},
		{"refs", "click [ref=e5] after @e3, not e9", `click button "Sign in" after textbox "Email", not`},
		{"css", "press css=form > button.btn-primary:nth-child(3)", "press"},
		{"css clause", "the first input, css=form input:nth-of-type(1); then submit", "the first input, then submit"},
		{"bare css", "the blue button at the bottom, div.form > button", "the blue button at the bottom"},
		{"class and id", "the .btn-primary button next to #email", "the button next to"},
		{"xpath", "the link //div[@id='x']/a", "the link"},
		{"prose kept", "open shop.test, e.g. the page. Then #1 item", "open shop.test, e.g. the page. Then #1 item"},
		{"secret", "type hunter2-Correct-Horse into the field", "type «secret:password» into the field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New(nil, nil, nil)
			p.opts.Secrets.Add("password", "hunter2-Correct-Horse")
			r := &run{p: p}
			if got := r.instruction(tc.thought, outline); got != tc.want {
				t.Errorf("instruction(%q) = %q, want %q", tc.thought, got, tc.want)
			}
		})
	}
	long := (&run{p: New(nil, nil, nil)}).instruction(strings.Repeat("word ", 200), "")
	if n := len([]rune(long)); n > maxInstruction || !strings.HasSuffix(long, "…") {
		t.Errorf("a long thought gives %d characters: %q", n, long)
	}
}
