package keys

import (
	"strings"
	"sync"

	"github.com/chromedp/chromedp/kb"
)

// keyDef is one key of a US keyboard, as the page sees it in a KeyboardEvent.
type keyDef struct {
	key        string      // KeyboardEvent.key: "Enter", "a", "A"
	code       string      // KeyboardEvent.code: "Enter", "KeyA"
	keyCode    int64       // Windows virtual key code; Chromium reports it as keyCode
	text       string      // text a keyDown inserts; "" for keys that insert none
	unmodified string      // text without modifiers other than Shift
	location   int64       // 1 for the left modifier keys, else 0
	shift      bool        // a US keyboard needs Shift for it: "A", "!"
	modifier   kb.Modifier // the bit a modifier key sets; 0 for other keys
}

// named lists the key names Press accepts besides single characters, in the
// order error messages show them. Each maps to the kb constant of its key.
var named = []struct{ name, kb string }{
	{"Enter", kb.Enter},
	{"Tab", kb.Tab},
	{"Escape", kb.Escape},
	{"Backspace", kb.Backspace},
	{"Delete", kb.Delete},
	{"ArrowUp", kb.ArrowUp},
	{"ArrowDown", kb.ArrowDown},
	{"ArrowLeft", kb.ArrowLeft},
	{"ArrowRight", kb.ArrowRight},
	{"Home", kb.Home},
	{"End", kb.End},
	{"PageUp", kb.PageUp},
	{"PageDown", kb.PageDown},
	{"Insert", kb.Insert},
	{"Space", " "},
	{"F1", kb.F1}, {"F2", kb.F2}, {"F3", kb.F3}, {"F4", kb.F4},
	{"F5", kb.F5}, {"F6", kb.F6}, {"F7", kb.F7}, {"F8", kb.F8},
	{"F9", kb.F9}, {"F10", kb.F10}, {"F11", kb.F11}, {"F12", kb.F12},
	{"Shift", kb.Shift},
	{"Control", kb.Control},
	{"Alt", kb.Alt},
	{"Meta", kb.Meta},
}

// aliases maps other spellings, lower case, to a name of [named].
var aliases = map[string]string{
	"ctrl":     "Control",
	"cmd":      "Meta",
	"command":  "Meta",
	"option":   "Alt",
	"esc":      "Escape",
	"return":   "Enter",
	"up":       "ArrowUp",
	"down":     "ArrowDown",
	"left":     "ArrowLeft",
	"right":    "ArrowRight",
	"del":      "Delete",
	"ins":      "Insert",
	"pgup":     "PageUp",
	"pgdn":     "PageDown",
	"spacebar": "Space",
}

// modifierKeys gives the modifier keys what kb lacks. kb has the
// ControlLeft/ShiftLeft/… codes but the VK_LCONTROL-style key codes (162,
// 160, …); a real Chrome reports keyCode 17 for either Control key, so we
// send the generic VK_ codes, as Puppeteer and Playwright do.
var modifierKeys = map[string]struct {
	keyCode int64
	bit     kb.Modifier
}{
	"Shift":   {16, kb.ModifierShift},
	"Control": {17, kb.ModifierCtrl},
	"Alt":     {18, kb.ModifierAlt},
	"Meta":    {91, kb.ModifierMeta},
}

// keyTables are the lookup tables, built at the first key pressed (not at
// init: most commands press none).
type keyTables struct {
	// byName maps a lower-case name or alias to its key.
	byName map[string]keyDef
	// byChar maps a printable ASCII character to its key.
	byChar map[rune]keyDef
	// shifted maps a code ("Digit1") to the key that Shift gives ("!").
	shifted map[string]keyDef
	// unshifted maps a code ("KeyA") to the key without Shift ("a").
	unshifted map[string]keyDef
}

var tables = sync.OnceValue(func() *keyTables {
	t := &keyTables{byName: map[string]keyDef{}, byChar: map[rune]keyDef{}, shifted: map[string]keyDef{}, unshifted: map[string]keyDef{}}
	for r := rune(' '); r <= '~'; r++ {
		d := fromKB(r)
		t.byChar[r] = d
		if d.shift {
			t.shifted[d.code] = d
		} else {
			t.unshifted[d.code] = d
		}
	}
	for _, n := range named {
		d := fromKB([]rune(n.kb)[0])
		if m, ok := modifierKeys[n.name]; ok {
			d.keyCode, d.modifier, d.location = m.keyCode, m.bit, 1
		}
		t.byName[strings.ToLower(n.name)] = d
	}
	for alias, name := range aliases {
		t.byName[alias] = t.byName[strings.ToLower(name)]
	}
	return t
})

// fromKB converts kb's entry for r.
func fromKB(r rune) keyDef {
	k := kb.Keys[r]
	return keyDef{
		key:        k.Key,
		code:       k.Code,
		keyCode:    k.Windows,
		text:       k.Text,
		unmodified: k.Unmodified,
		shift:      k.Shift,
	}
}

// lookup finds the key of one name of a chord: a name or alias in any case,
// or a single printable ASCII character, case-sensitive.
func lookup(name string) (keyDef, bool) {
	if r := []rune(name); len(r) == 1 {
		d, ok := tables().byChar[r[0]]
		return d, ok
	}
	d, ok := tables().byName[strings.ToLower(name)]
	return d, ok
}
