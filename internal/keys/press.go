package keys

import (
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// Press returns the events that press the key or chord of spec, such as
// "Enter", "a", "Control+A" or "Control+Shift+ArrowLeft", in the order to send
// them with [input.DispatchKeyEvent]:
//
//   - a rawKeyDown for each modifier, left to right, each with the modifier
//     mask so far (its own bit included);
//   - a keyDown with text for a key that inserts text ("a", "Enter" as "\r",
//     "Space"), or a rawKeyDown for one that does not ("Tab", "ArrowUp");
//   - a keyUp for the key;
//   - a keyUp for each modifier, right to left, its own bit already cleared.
//
// Names and aliases are case-insensitive; a single character is not: "A" is
// Shift+a on a US keyboard, sent with the Shift bit but no Shift key press.
// In a chord with modifiers a letter's case follows Shift, so "Control+A" is
// Control with the A key, which selects all on Linux and Windows, and "Shift+1" is "!".
// While Control, Meta or Alt is held no text is sent, as on a real keyboard
// where such a chord is a shortcut: "Control+A" selects, it does not type.
// The macOS editing chords (Meta+A, C, X, V, Z and Meta+Shift+Z) carry their
// editing command, such as "selectAll", so they work on every platform.
//
// An unknown name gives an [*UnknownKeyError], which matches [ErrUnknownKey]
// with errors.Is.
func Press(spec string) ([]input.DispatchKeyEventParams, error) {
	mods, key, err := parseChord(spec)
	if err != nil {
		return nil, err
	}
	return chord(mods, key), nil
}

// chord returns the events that press key while mods are held.
func chord(mods []keyDef, key keyDef) []input.DispatchKeyEventParams {
	evs := make([]input.DispatchKeyEventParams, 0, 2*len(mods)+2)
	var held kb.Modifier
	for _, m := range mods {
		held |= m.modifier
		evs = append(evs, event(m, kb.KeyRawDown, held))
	}
	key = caseFor(key, held)
	mask := held | key.modifier
	if key.shift {
		mask |= kb.ModifierShift
	}
	down := event(key, kb.KeyRawDown, mask)
	if key.text != "" && held&(kb.ModifierCtrl|kb.ModifierMeta|kb.ModifierAlt) == 0 {
		down.Type, down.Text, down.UnmodifiedText = kb.KeyDown, key.text, key.unmodified
	}
	if cmd, ok := metaCommands[metaChord{held, key.code}]; ok {
		down.Commands = []string{cmd}
	}
	// The key's own modifier bit is clear on its keyUp, as for the modifiers.
	evs = append(evs, down, event(key, kb.KeyUp, mask&^key.modifier))
	for i := len(mods) - 1; i >= 0; i-- {
		held &^= mods[i].modifier
		evs = append(evs, event(mods[i], kb.KeyUp, held))
	}
	return evs
}

// metaChord is a chord of metaCommands: the held modifiers and the code of
// the key.
type metaChord struct {
	held kb.Modifier
	code string
}

// metaCommands are the editing commands of the macOS Command shortcuts.
// On macOS, Chromium maps Cmd+A and the like to editing commands in the
// browser process (NSResponder key bindings), which Input.dispatchKeyEvent
// bypasses, so without the command Meta+A does nothing. We send the command
// on every platform, so "Meta+A" selects all wherever the browser runs, as
// Playwright does on macOS. Control+A needs no command on Linux and Windows:
// Blink's own key bindings select all (tested with Chromium 148 on Linux,
// 2026-11; see browser_test.go).
var metaCommands = map[metaChord]string{
	{kb.ModifierMeta, "KeyA"}:                    "selectAll",
	{kb.ModifierMeta, "KeyC"}:                    "copy",
	{kb.ModifierMeta, "KeyX"}:                    "cut",
	{kb.ModifierMeta, "KeyV"}:                    "paste",
	{kb.ModifierMeta, "KeyZ"}:                    "undo",
	{kb.ModifierMeta | kb.ModifierShift, "KeyZ"}: "redo",
}

// event is one key event of d with no text.
func event(d keyDef, typ input.DispatchKeyEventType, mods kb.Modifier) input.DispatchKeyEventParams {
	return input.DispatchKeyEventParams{
		Type:                  typ,
		Modifiers:             int64(mods),
		Key:                   d.key,
		Code:                  d.code,
		WindowsVirtualKeyCode: d.keyCode,
		// Puppeteer sends the Windows code as the native code on every
		// platform; Chromium derives keyCode from the Windows code.
		NativeVirtualKeyCode: d.keyCode,
		Location:             d.location,
	}
}

// caseFor picks the character of the physical key of d that the held
// modifiers give: with Shift held, "1" becomes "!" and "a" becomes "A"; with
// other modifiers but no Shift, "A" becomes "a". A lone character keeps the
// case the user typed.
func caseFor(d keyDef, held kb.Modifier) keyDef {
	if held == 0 || len(d.key) != 1 {
		return d
	}
	if held&kb.ModifierShift != 0 {
		if s, ok := tables().shifted[d.code]; ok {
			return s
		}
		return d
	}
	if u, ok := tables().unshifted[d.code]; ok && d.shift && isLetter(d.key) {
		return u
	}
	return d
}

func isLetter(s string) bool {
	return len(s) == 1 && s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z'
}

// parseChord splits spec at "+" into modifiers and the final key. A "+" as
// the key is written as itself: "+" or "Shift++".
func parseChord(spec string) (mods []keyDef, key keyDef, err error) {
	if strings.TrimSpace(spec) == "" && spec != " " {
		return nil, keyDef{}, fmt.Errorf("%w: no key given; %s", ErrChord, knownKeys)
	}
	parts := strings.Split(spec, "+")
	if strings.HasSuffix(spec, "+") && (spec == "+" || strings.HasSuffix(spec, "++")) {
		// The key is "+"; Split left two empty strings after the modifiers.
		parts = append(parts[:len(parts)-2], "+")
	}
	last := len(parts) - 1
	var seen kb.Modifier
	for _, p := range parts[:last] {
		d, err := lookupPart(p, spec)
		if err != nil {
			return nil, keyDef{}, err
		}
		if d.modifier == 0 {
			return nil, keyDef{}, fmt.Errorf("%w: %q in %q is not a modifier; put the modifiers (Shift, Control, Alt, Meta) first and one key last, as in Control+Shift+A", ErrChord, strings.TrimSpace(p), spec)
		}
		if seen&d.modifier != 0 {
			return nil, keyDef{}, fmt.Errorf("%w: %s appears twice in %q", ErrChord, d.key, spec)
		}
		seen |= d.modifier
		mods = append(mods, d)
	}
	key, err = lookupPart(parts[last], spec)
	return mods, key, err
}

// lookupPart finds the key of one part of a chord. Spaces around a name are
// dropped, but a lone " " is the space bar.
func lookupPart(p, spec string) (keyDef, error) {
	name := p
	if name != " " {
		name = strings.TrimSpace(p)
	}
	if name == "" {
		return keyDef{}, fmt.Errorf("%w: empty key name in %q; write chords as Control+Shift+A", ErrChord, spec)
	}
	d, ok := lookup(name)
	if !ok {
		return keyDef{}, &UnknownKeyError{Name: name, Suggestions: suggest(name)}
	}
	return d, nil
}

// Shift is the event of the left Shift key going down or coming up alone,
// for typing at a person's pace, where Shift is held around a run of
// capitals (the capitals' own events carry the Shift bit, as with [Type]).
func Shift(down bool) input.DispatchKeyEventParams {
	d := tables().byName["shift"]
	if down {
		return event(d, kb.KeyRawDown, kb.ModifierShift)
	}
	return event(d, kb.KeyUp, 0)
}
