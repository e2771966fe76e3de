package rules

import (
	"regexp"
	"strconv"
	"strings"
)

// intent is an instruction as parsed, before its target is matched.
type intent struct {
	action    Action
	target    string // X, with quotes restored
	value     string // Y
	key       string
	url       string
	direction string
	// orClick is set when a key name could also be a control's name
	// ("press Home"): the model refuses to guess if the page has one.
	orClick string
}

// quoted holds the quoted parts of an instruction while it is parsed, so
// that joining words inside quotes ("type 'stay in' into Note") do not
// split it. Each part is replaced by \x00N\x00.
type quoted []quote

type quote struct{ text, open, close string }

var quotePairs = []struct{ open, close string }{
	{`"`, `"`}, {"“", "”"}, {"‘", "’"}, {"`", "`"}, {"'", "'"},
}

// protect replaces quoted parts of s by markers. A single quote opens only
// at the start of a word and closes only at the end of one, so that
// apostrophes ("Ann's profile") stay text.
func protect(s string) (string, quoted) {
	var q quoted
	var b strings.Builder
	for i := 0; i < len(s); {
		done := false
		for _, p := range quotePairs {
			if !strings.HasPrefix(s[i:], p.open) || p.open == "'" && i > 0 && s[i-1] != ' ' {
				continue
			}
			from := i + len(p.open)
			end := -1
			for j := from; j < len(s); j++ {
				if strings.HasPrefix(s[j:], p.close) && (p.close != "'" || j+1 == len(s) || strings.ContainsRune(" .,!?", rune(s[j+1]))) {
					end = j
					break
				}
			}
			if end < 0 {
				continue
			}
			b.WriteString("\x00" + strconv.Itoa(len(q)) + "\x00")
			q = append(q, quote{s[from:end], p.open, p.close})
			i = end + len(p.close)
			done = true
			break
		}
		if !done {
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String(), q
}

var marker = lazyRE("\x00([0-9]+)\x00")

// restore puts the quoted parts back, without their quotes: for values.
func (q quoted) restore(s string) string {
	return marker().ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.Atoi(strings.Trim(m, "\x00"))
		return q[n].text
	})
}

// target puts the quoted parts back with their quotes: a target phrase is
// read again by [readings], which needs to know what was quoted.
func (q quoted) target(s string) string {
	return marker().ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.Atoi(strings.Trim(m, "\x00"))
		return q[n].open + q[n].text + q[n].close
	})
}

// onlyQuoted reports whether s, trimmed, is one quoted part.
func onlyQuoted(s string) bool {
	s = strings.TrimSpace(s)
	return marker().FindStringIndex(s) != nil && marker().ReplaceAllString(s, "") == ""
}

// The instruction forms, tried in order on the protected text. (?is) makes
// them case-insensitive and lets values span lines.
var (
	reFill     = lazyRE(`(?is)^fill(?:\s+in|\s+out)?\s+(.+?)\s+with\s+(.+)$`)
	reSet      = lazyRE(`(?is)^set\s+(.+?)\s+to\s+(.+)$`)
	reType     = lazyRE(`(?is)^type\s+(.+)\s+(?:into|in|in\s+to|on)\s+(.+)$`)
	reEnter    = lazyRE(`(?is)^(?:enter|input|write|put)\s+(.+)\s+(?:into|in|in\s+to|on)\s+(.+)$`)
	reEnterAs  = lazyRE(`(?is)^(?:enter|input|write|put|type)\s+(.+)\s+as\s+(.+)$`)
	reSelectIn = lazyRE(`(?is)^(?:select|choose|pick)\s+(.+)\s+(?:in|from|for|on)\s+(.+)$`)
	reSelect   = lazyRE(`(?is)^(?:select|choose|pick)\s+(.+)$`)
	reUncheck  = lazyRE(`(?is)^(?:uncheck|untick|deselect|turn\s+off|disable)\s+(.+)$`)
	reCheck    = lazyRE(`(?is)^(?:check|tick|turn\s+on|enable)\s+(.+)$`)
	reGoto     = lazyRE(`(?is)^(?:go\s+to|goto|open|navigate\s+to|visit|load|browse\s+to)\s+(.+)$`)
	reScroll   = lazyRE(`(?is)^scroll(?:\s+(.*))?$`)
	rePress    = lazyRE(`(?is)^(?:press|hit|push)\s+(.+)$`)
	reClick    = lazyRE(`(?is)^(?:click|tap|double[- ]?click|follow)(?:\s+on)?\s+(.+)$`)
	rePolite   = lazyRE(`(?i)^(?:please\s+|now\s+|then\s+)+`)
)

// parseInstruction reads one instruction. ok is false when it is none of
// the forms the rules model knows.
func parseInstruction(s string) (intent, bool) {
	s = strings.TrimSpace(rePolite().ReplaceAllString(strings.TrimSpace(s), ""))
	p, q := protect(s)
	p = strings.TrimRight(p, ".! ")
	r, t := q.restore, q.target
	for _, re := range []*regexp.Regexp{reFill(), reSet()} {
		if m := re.FindStringSubmatch(p); m != nil {
			return intent{action: ActionFill, target: t(m[1]), value: r(m[2])}, true
		}
	}
	if m := reType().FindStringSubmatch(p); m != nil {
		return intent{action: ActionType, target: t(m[2]), value: r(m[1])}, true
	}
	if m := reEnter().FindStringSubmatch(p); m != nil {
		return intent{action: ActionFill, target: t(m[2]), value: r(m[1])}, true
	}
	if m := reEnterAs().FindStringSubmatch(p); m != nil {
		// "enter 10/08/2012 as the date"
		return intent{action: ActionFill, target: t(m[2]), value: r(m[1])}, true
	}
	if m := reSelectIn().FindStringSubmatch(p); m != nil {
		return intent{action: ActionSelect, target: t(m[2]), value: r(m[1])}, true
	}
	if m := reSelect().FindStringSubmatch(p); m != nil {
		// "select Express": a radio, option or tab; the action follows
		// the element's role once it is found.
		return intent{action: ActionSelect, target: t(m[1])}, true
	}
	if m := reUncheck().FindStringSubmatch(p); m != nil {
		return intent{action: ActionUncheck, target: t(m[1])}, true
	}
	if m := reCheck().FindStringSubmatch(p); m != nil {
		return intent{action: ActionCheck, target: t(m[1])}, true
	}
	if m := reGoto().FindStringSubmatch(p); m != nil {
		if u, ok := asURL(r(m[1])); ok {
			return intent{action: ActionGoto, url: u}, true
		}
		// "open the menu", "go to Checkout": a control, not an address.
		return intent{action: ActionClick, target: t(m[1])}, true
	}
	if m := reScroll().FindStringSubmatch(p); m != nil {
		return scrollIntent(t(m[1])), true
	}
	if m := rePress().FindStringSubmatch(p); m != nil {
		return pressIntent(m[1], q)
	}
	if m := reClick().FindStringSubmatch(p); m != nil {
		return intent{action: ActionClick, target: t(m[1])}, true
	}
	return intent{}, false
}

// scrollIntent reads what follows "scroll": a direction, "to the bottom",
// or an element to bring into view.
func scrollIntent(rest string) intent {
	words := strings.Fields(strings.ToLower(rest))
	for _, w := range words {
		switch w {
		case "down", "bottom", "end":
			return intent{action: ActionScroll, direction: "down"}
		case "up", "top":
			return intent{action: ActionScroll, direction: "up"}
		case "left", "right":
			return intent{action: ActionScroll, direction: w}
		}
	}
	if t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), "to ")); t != "" {
		return intent{action: ActionScroll, direction: "into-view", target: t}
	}
	return intent{action: ActionScroll, direction: "down"}
}

// pressIntent reads what follows "press": a key ("Enter", "Control+A",
// "the Tab key"), a key in an element ("Enter in Search"), or an element
// to click ("Sign in").
func pressIntent(arg string, q quoted) (intent, bool) {
	whole := q.target(arg)
	if k, ok := keyName(whole); ok {
		in := intent{action: ActionPress, key: k}
		if !strings.HasSuffix(strings.ToLower(whole), " key") && !strings.Contains(k, "+") &&
			k != "Enter" && k != "Tab" && k != "Escape" {
			in.orClick = whole
		}
		return in, true
	}
	for _, sep := range []string{" in ", " on ", " into "} {
		if i := strings.LastIndex(strings.ToLower(arg), sep); i > 0 {
			if k, ok := keyName(q.restore(arg[:i])); ok {
				return intent{action: ActionPress, key: k, target: q.target(arg[i+len(sep):])}, true
			}
		}
	}
	return intent{action: ActionClick, target: whole}, true
}

// asURL reports whether s is an address rather than a control's name:
// it has a scheme, starts with a slash, is a %placeholder%, or is a host
// name with a dot and no spaces. A bare host gets https://.
func asURL(s string) (string, bool) {
	s = strings.TrimSpace(s)
	switch {
	case strings.Contains(s, " "):
		return "", false
	case strings.Contains(s, "://"), strings.HasPrefix(s, "/"), strings.HasPrefix(s, "about:"), strings.HasPrefix(s, "data:"):
		return s, true
	case len(s) > 2 && s[0] == '%' && s[len(s)-1] == '%':
		return s, true
	case strings.HasPrefix(strings.ToLower(s), "localhost"):
		return "http://" + s, true
	case strings.Contains(s, ".") && !strings.HasSuffix(s, ".") && !strings.HasPrefix(s, "."):
		return "https://" + s, true
	}
	return "", false
}
