package keys

import (
	"strings"

	"github.com/chromedp/cdproto/input"
)

// StepKind says how to send a [Step].
type StepKind uint8

// Step kinds.
const (
	// StepKey is one key press: send each of Step.Events with
	// [input.DispatchKeyEvent].
	StepKey StepKind = iota + 1
	// StepInsert is text no key of a US keyboard types (é, 漢, emoji): send
	// Step.Text with [input.InsertText], as an IME or emoji picker would. The
	// page sees input events but no key events.
	StepInsert
)

// Step is one key press or one run of inserted text of [Type].
type Step struct {
	Kind   StepKind
	Events []input.DispatchKeyEventParams // for StepKey
	Text   string                         // for StepInsert
}

// Type returns the steps that type text key by key on a US keyboard: each
// printable ASCII character is a keyDown with its text and a keyUp (with the
// Shift bit for "A" or "!", but no Shift key press); "\n", "\r" and "\r\n"
// are one Enter and "\t" is Tab, which moves the focus as it would for a
// person. Every other run of characters, control characters included, is one
// [StepInsert] step.
func Type(text string) []Step {
	var steps []Step
	var insert strings.Builder
	flush := func() {
		if insert.Len() > 0 {
			steps = append(steps, Step{Kind: StepInsert, Text: insert.String()})
			insert.Reset()
		}
	}
	prevCR := false
	for _, r := range text {
		if r == '\n' && prevCR {
			prevCR = false
			continue // "\r\n" is one Enter
		}
		prevCR = r == '\r'
		var d keyDef
		switch {
		case r == '\n' || r == '\r':
			d = tables().byName["enter"]
		case r == '\t':
			d = tables().byName["tab"]
		case r >= ' ' && r <= '~':
			d = tables().byChar[r]
		default:
			insert.WriteRune(r)
			continue
		}
		flush()
		steps = append(steps, Step{Kind: StepKey, Events: chord(nil, d)})
	}
	flush()
	return steps
}
