package rules

import "strings"

// keys maps key names, lower case, to the names the driver's keyboard
// takes (those of package internal/keys).
var keys = map[string]string{
	"enter": "Enter", "return": "Enter", "tab": "Tab", "escape": "Escape", "esc": "Escape",
	"backspace": "Backspace", "delete": "Delete", "del": "Delete", "insert": "Insert",
	"arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight",
	"up arrow": "ArrowUp", "down arrow": "ArrowDown", "left arrow": "ArrowLeft", "right arrow": "ArrowRight",
	"home": "Home", "end": "End", "pageup": "PageUp", "pagedown": "PageDown",
	"page up": "PageUp", "page down": "PageDown", "space": "Space", "spacebar": "Space",
	"f1": "F1", "f2": "F2", "f3": "F3", "f4": "F4", "f5": "F5", "f6": "F6",
	"f7": "F7", "f8": "F8", "f9": "F9", "f10": "F10", "f11": "F11", "f12": "F12",
}

var modifiers = map[string]string{
	"shift": "Shift", "control": "Control", "ctrl": "Control", "alt": "Alt", "option": "Alt",
	"meta": "Meta", "cmd": "Meta", "command": "Meta",
}

// keyName reads a key or a chord ("Enter", "the Tab key", "ctrl+a") and
// returns it as the keyboard names it ("Control+a").
func keyName(s string) (string, bool) {
	l := strings.ToLower(strings.Trim(s, " \"'`“”‘’"))
	l = strings.TrimPrefix(l, "the ")
	l = strings.TrimSpace(strings.TrimSuffix(l, " key"))
	if k, ok := keys[l]; ok {
		return k, true
	}
	parts := strings.Split(l, "+")
	if len(parts) < 2 {
		return "", false
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		last := i == len(parts)-1
		switch m, k := modifiers[p], keys[p]; {
		case !last && m != "":
			out[i] = m
		case last && k != "":
			out[i] = k
		case last && len(p) == 1:
			out[i] = p
		default:
			return "", false
		}
	}
	return strings.Join(out, "+"), true
}
