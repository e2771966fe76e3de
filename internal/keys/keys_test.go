package keys

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/textdist"

	"github.com/chromedp/cdproto/input"
	"github.com/google/go-cmp/cmp"
)

// ev builds an expected event; native and Windows codes are equal.
func ev(typ input.DispatchKeyEventType, key, code string, keyCode, mods int64, text string) input.DispatchKeyEventParams {
	return input.DispatchKeyEventParams{
		Type: typ, Key: key, Code: code, WindowsVirtualKeyCode: keyCode,
		NativeVirtualKeyCode: keyCode, Modifiers: mods, Text: text,
	}
}

func withText(e input.DispatchKeyEventParams, unmodified string) input.DispatchKeyEventParams {
	e.UnmodifiedText = unmodified
	return e
}

func left(e input.DispatchKeyEventParams) input.DispatchKeyEventParams {
	e.Location = 1
	return e
}

func withCommand(e input.DispatchKeyEventParams, cmd string) input.DispatchKeyEventParams {
	e.Commands = []string{cmd}
	return e
}

const (
	down = input.DispatchKeyEventTypeKeyDown
	raw  = input.DispatchKeyEventTypeRawKeyDown
	up   = input.DispatchKeyEventTypeKeyUp
)

func TestPress(t *testing.T) {
	ctrlDown := left(ev(raw, "Control", "ControlLeft", 17, 2, ""))
	ctrlUp := left(ev(up, "Control", "ControlLeft", 17, 0, ""))
	shiftDown := left(ev(raw, "Shift", "ShiftLeft", 16, 8, ""))
	shiftUp := left(ev(up, "Shift", "ShiftLeft", 16, 0, ""))
	tests := []struct {
		spec string
		want []input.DispatchKeyEventParams
	}{
		{"Enter", []input.DispatchKeyEventParams{
			withText(ev(down, "Enter", "Enter", 13, 0, "\r"), "\r"),
			ev(up, "Enter", "Enter", 13, 0, ""),
		}},
		{"return", []input.DispatchKeyEventParams{
			withText(ev(down, "Enter", "Enter", 13, 0, "\r"), "\r"),
			ev(up, "Enter", "Enter", 13, 0, ""),
		}},
		{"Tab", []input.DispatchKeyEventParams{
			ev(raw, "Tab", "Tab", 9, 0, ""), ev(up, "Tab", "Tab", 9, 0, ""),
		}},
		{"esc", []input.DispatchKeyEventParams{
			ev(raw, "Escape", "Escape", 27, 0, ""), ev(up, "Escape", "Escape", 27, 0, ""),
		}},
		{"Del", []input.DispatchKeyEventParams{
			ev(raw, "Delete", "Delete", 46, 0, ""), ev(up, "Delete", "Delete", 46, 0, ""),
		}},
		{"up", []input.DispatchKeyEventParams{
			ev(raw, "ArrowUp", "ArrowUp", 38, 0, ""), ev(up, "ArrowUp", "ArrowUp", 38, 0, ""),
		}},
		{"PageDown", []input.DispatchKeyEventParams{
			ev(raw, "PageDown", "PageDown", 34, 0, ""), ev(up, "PageDown", "PageDown", 34, 0, ""),
		}},
		{"f12", []input.DispatchKeyEventParams{
			ev(raw, "F12", "F12", 123, 0, ""), ev(up, "F12", "F12", 123, 0, ""),
		}},
		{"Space", []input.DispatchKeyEventParams{
			withText(ev(down, " ", "Space", 32, 0, " "), " "), ev(up, " ", "Space", 32, 0, ""),
		}},
		{"a", []input.DispatchKeyEventParams{
			withText(ev(down, "a", "KeyA", 65, 0, "a"), "a"), ev(up, "a", "KeyA", 65, 0, ""),
		}},
		{"A", []input.DispatchKeyEventParams{
			withText(ev(down, "A", "KeyA", 65, 8, "A"), "a"), ev(up, "A", "KeyA", 65, 8, ""),
		}},
		{"/", []input.DispatchKeyEventParams{
			withText(ev(down, "/", "Slash", 191, 0, "/"), "/"), ev(up, "/", "Slash", 191, 0, ""),
		}},
		{"+", []input.DispatchKeyEventParams{
			withText(ev(down, "+", "Equal", 187, 8, "+"), "="), ev(up, "+", "Equal", 187, 8, ""),
		}},
		{"Control+A", []input.DispatchKeyEventParams{
			ctrlDown, ev(raw, "a", "KeyA", 65, 2, ""), ev(up, "a", "KeyA", 65, 2, ""), ctrlUp,
		}},
		{"ctrl+a", []input.DispatchKeyEventParams{
			ctrlDown, ev(raw, "a", "KeyA", 65, 2, ""), ev(up, "a", "KeyA", 65, 2, ""), ctrlUp,
		}},
		{"Shift+Tab", []input.DispatchKeyEventParams{
			shiftDown, ev(raw, "Tab", "Tab", 9, 8, ""), ev(up, "Tab", "Tab", 9, 8, ""), shiftUp,
		}},
		{"Shift+1", []input.DispatchKeyEventParams{
			shiftDown, withText(ev(down, "!", "Digit1", 49, 8, "!"), "1"), ev(up, "!", "Digit1", 49, 8, ""), shiftUp,
		}},
		{"Shift+a", []input.DispatchKeyEventParams{
			shiftDown, withText(ev(down, "A", "KeyA", 65, 8, "A"), "a"), ev(up, "A", "KeyA", 65, 8, ""), shiftUp,
		}},
		{"Meta+Enter", []input.DispatchKeyEventParams{
			left(ev(raw, "Meta", "MetaLeft", 91, 4, "")),
			ev(raw, "Enter", "Enter", 13, 4, ""), ev(up, "Enter", "Enter", 13, 4, ""),
			left(ev(up, "Meta", "MetaLeft", 91, 0, "")),
		}},
		{"Cmd+A", []input.DispatchKeyEventParams{
			left(ev(raw, "Meta", "MetaLeft", 91, 4, "")),
			withCommand(ev(raw, "a", "KeyA", 65, 4, ""), "selectAll"), ev(up, "a", "KeyA", 65, 4, ""),
			left(ev(up, "Meta", "MetaLeft", 91, 0, "")),
		}},
		{"Control+Shift+ArrowLeft", []input.DispatchKeyEventParams{
			ctrlDown,
			left(ev(raw, "Shift", "ShiftLeft", 16, 10, "")),
			ev(raw, "ArrowLeft", "ArrowLeft", 37, 10, ""), ev(up, "ArrowLeft", "ArrowLeft", 37, 10, ""),
			left(ev(up, "Shift", "ShiftLeft", 16, 2, "")),
			ctrlUp,
		}},
		{"Option+F4", []input.DispatchKeyEventParams{
			left(ev(raw, "Alt", "AltLeft", 18, 1, "")),
			ev(raw, "F4", "F4", 115, 1, ""), ev(up, "F4", "F4", 115, 1, ""),
			left(ev(up, "Alt", "AltLeft", 18, 0, "")),
		}},
		{"Control++", []input.DispatchKeyEventParams{
			ctrlDown, ev(raw, "+", "Equal", 187, 10, ""), ev(up, "+", "Equal", 187, 10, ""), ctrlUp,
		}},
		{"Shift", []input.DispatchKeyEventParams{shiftDown, shiftUp}},
		{" Control + a ", []input.DispatchKeyEventParams{
			ctrlDown, ev(raw, "a", "KeyA", 65, 2, ""), ev(up, "a", "KeyA", 65, 2, ""), ctrlUp,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := Press(tt.spec)
			if err != nil {
				t.Fatalf("Press(%q): %v", tt.spec, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Press(%q) (-want +got):\n%s", tt.spec, diff)
			}
		})
	}
}

func TestPressErrors(t *testing.T) {
	tests := []struct {
		spec    string
		is      error
		wantMsg []string
	}{
		{"Entr", ErrUnknownKey, []string{`unknown key "Entr"; did you mean "Enter"`, "known keys: Enter, Tab, Escape"}},
		{"Control+Escpae", ErrUnknownKey, []string{`unknown key "Escpae"; did you mean "Escape"?`}},
		{"ArowUp", ErrUnknownKey, []string{`did you mean "ArrowUp"?`}},
		{"Ctl+a", ErrUnknownKey, []string{`unknown key "Ctl"; did you mean "Control"?`}},
		{"Banana", ErrUnknownKey, []string{`unknown key "Banana"; known keys:`, "F1–F12"}},
		{"é", ErrUnknownKey, []string{"no key on a US keyboard, so type it instead"}},
		{"", ErrChord, []string{"no key given"}},
		{"Control+", ErrChord, []string{`empty key name in "Control+"`}},
		{"a+b", ErrChord, []string{`"a" in "a+b" is not a modifier; put the modifiers`}},
		{"Arrow", ErrUnknownKey, []string{`did you mean "ArrowUp" or "ArrowDown" or "ArrowLeft" or "ArrowRight"?`}},
		{"Ctrl+Control+a", ErrChord, []string{"Control appears twice"}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			_, err := Press(tt.spec)
			if !errors.Is(err, tt.is) {
				t.Fatalf("Press(%q) = %v, want an error matching %v", tt.spec, err, tt.is)
			}
			for _, m := range tt.wantMsg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("Press(%q) error %q does not contain %q", tt.spec, err, m)
				}
			}
		})
	}
}

func TestUnknownKeyErrorAs(t *testing.T) {
	_, err := Press("Entr")
	var uk *UnknownKeyError
	if !errors.As(err, &uk) {
		t.Fatalf("error %v is no *UnknownKeyError", err)
	}
	if uk.Name != "Entr" || len(uk.Suggestions) == 0 || uk.Suggestions[0] != "Enter" {
		t.Errorf("got %+v, want Name Entr and Enter first", uk)
	}
}

// Every name and alias resolves, and every name of the help is pressable.
func TestAllNamesPress(t *testing.T) {
	for _, n := range named {
		if _, err := Press(n.name); err != nil {
			t.Errorf("Press(%q): %v", n.name, err)
		}
	}
	for alias := range aliases {
		if _, err := Press(alias); err != nil {
			t.Errorf("Press(%q): %v", alias, err)
		}
	}
	for r := rune(' '); r <= '~'; r++ {
		evs, err := Press(string(r))
		if err != nil {
			t.Errorf("Press(%q): %v", r, err)
			continue
		}
		if evs[0].Text != string(r) || evs[0].Code == "" || evs[0].WindowsVirtualKeyCode == 0 {
			t.Errorf("Press(%q) keyDown = %+v", r, evs[0])
		}
	}
}

func TestType(t *testing.T) {
	keyStep := func(spec string) Step {
		evs, err := Press(spec)
		if err != nil {
			t.Fatal(err)
		}
		return Step{Kind: StepKey, Events: evs}
	}
	tests := []struct {
		text string
		want []Step
	}{
		{"", nil},
		{"Hi!", []Step{keyStep("H"), keyStep("i"), keyStep("!")}},
		{"a\nb", []Step{keyStep("a"), keyStep("Enter"), keyStep("b")}},
		{"a\r\nb\r", []Step{keyStep("a"), keyStep("Enter"), keyStep("b"), keyStep("Enter")}},
		{"\n\n", []Step{keyStep("Enter"), keyStep("Enter")}},
		{"\t", []Step{keyStep("Tab")}},
		{"café!", []Step{keyStep("c"), keyStep("a"), keyStep("f"), {Kind: StepInsert, Text: "é"}, keyStep("!")}},
		{"漢字🙂", []Step{{Kind: StepInsert, Text: "漢字🙂"}}},
		{"a\x00b", []Step{keyStep("a"), {Kind: StepInsert, Text: "\x00"}, keyStep("b")}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Type(tt.text)); diff != "" {
				t.Errorf("Type(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"entr", "enter", 1},
		{"escpae", "escape", 1}, {"kitten", "sitting", 3},
	}
	for _, tt := range tests {
		if got := textdist.Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
