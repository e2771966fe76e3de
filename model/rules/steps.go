package rules

import (
	"regexp"
	"strings"
)

// Steps splits a task sentence that holds several steps into plain
// instructions, in order: `Enter "Kasey" into the text field and press
// Submit` is `Enter "Kasey" into the text field` and `press Submit`. It
// splits only before a verb the rules know ("and click", ", then type"),
// never inside quotes, and reads a few phrasings of task sentences as the
// instructions they stand for ("use the textbox to enter X", "find the
// email by X", "… by clicking X", "the username "a" and the password "b"
// into the text fields", "X into both fields"). Every part must be an
// instruction the rules model reads; if one is not, Steps returns nil
// rather than do part of a task. A sentence of one step is itself.
//
// This is the one place a sentence becomes steps: the rules model uses it
// to answer a run's turns (waymark run with no key), one step a turn, and
// refuses an act instruction that holds several, saying to run it.
func Steps(task string) []string {
	p, q := protect(strings.TrimSpace(task))
	p = strings.TrimRight(p, ".! ")
	p = reFindAnd().ReplaceAllString(p, "")
	p = reTwoValues().ReplaceAllString(p, "fill the $2 with $3 and fill the $4 with $5")
	p = reBoth().ReplaceAllString(p, "type $1 into the first $2 and type $1 into the second $2")
	var out []string
	for _, c := range clauses(p) {
		for _, c := range rewrite(c) {
			c = q.target(strings.TrimSpace(c))
			if _, ok := parseInstruction(c); !ok {
				return whole(task)
			}
			out = append(out, c)
		}
	}
	return out
}

// verbs are the words a step may start with: a sentence is split only
// before one of them.
var verbs = map[string]bool{
	"click": true, "tap": true, "press": true, "hit": true, "push": true, "enter": true, "type": true, "input": true,
	"write": true, "put": true, "fill": true, "set": true, "select": true, "choose": true, "pick": true, "check": true,
	"uncheck": true, "tick": true, "untick": true, "go": true, "open": true, "navigate": true, "visit": true,
	"scroll": true, "find": true, "use": true, "close": true, "double-click": true, "follow": true,
}

var (
	// reJoin is where a sentence may be split: "and", "then", a comma or
	// a semicolon, before a verb (checked by clauses).
	reJoin = lazyRE(`(?i)(?:\s*,\s*and\s+then\s+|\s*,\s*then\s+|\s+and\s+then\s+|\s+then\s+|\s*,\s*and\s+|\s+and\s+|\s*,\s+|\s*;\s*)`)
	// reFindAnd: "find and click X" is "click X".
	reFindAnd = lazyRE(`(?i)\bfind\s+and\s+`)
	// reTwoValues: `enter the username "ann" and the password "x" into
	// the text fields`. The values must be quoted.
	reTwoValues = lazyRE(`(?i)\b(enter|type|input|fill\s+in|put)\s+the\s+([a-z][a-z ]*?)\s+(\x00[0-9]+\x00)\s+and\s+the\s+([a-z][a-z ]*?)\s+(\x00[0-9]+\x00)\s+(?:in|into|in\s+to)\s+the\s+(?:[a-z]+\s+)?(?:fields|boxes|inputs|textboxes)\b`)
	// reBoth: `enter the password "x" into both text fields`.
	reBoth = lazyRE(`(?i)\b(?:enter|type|input|put)\s+(?:the\s+[a-z]+\s+)?(\x00[0-9]+\x00)\s+(?:in|into|in\s+to)\s+both\s+(?:of\s+the\s+)?([a-z][a-z ]*?(?:field|box|input|textbox))e?s\b`)
	// reList: "select A, B and C".
	reList  = lazyRE(`(?is)^(select|check|choose|pick|tick)\s+(.+)$`)
	reItems = lazyRE(`\s*,\s*(?:and\s+)?|\s+and\s+`)
	// reUseTo: "use the textbox to enter X".
	reUseTo = lazyRE(`(?is)^use\s+(.+?)\s+to\s+(?:enter|type|input|write)\s+(.+)$`)
	// reFindRow: "find the email by X" opens it.
	reFindRow = lazyRE(`(?is)^(?:find|locate)\s+(the\s+(?:e-?mail|message|mail|row|item|entry|thread|conversation|record)\s+(?:from|by|of|for|named|called|with)\s+.+)$`)
	// reByDoing: "close the dialog by clicking the x" is "click the x".
	reByDoing = lazyRE(`(?is)^.+?\s+by\s+(clicking|pressing|tapping|selecting|choosing|checking|hitting)\s+(?:on\s+)?(.+)$`)
	// rePurpose: "click the trash icon to delete it": the purpose is not
	// part of the step.
	rePurpose = lazyRE(`(?is)^((?:click|tap|press|hit|push)\s+.+?)\s+(?:in\s+order\s+)?to\s+(?:delete|remove|open|close|submit|send|confirm|finish|complete|continue|proceed|save|search|log\s*in|sign\s+in|dismiss|select|choose|reply|forward|archive)\b.*$`)
)

// clauses splits p at the joins that come before a verb.
func clauses(p string) []string {
	var out []string
	start := 0
	for _, m := range reJoin().FindAllStringIndex(p, -1) {
		next := strings.ToLower(firstWord(p[m[1]:]))
		if !verbs[next] || m[0] <= start {
			continue
		}
		out = append(out, p[start:m[0]])
		start = m[1]
	}
	return append(out, p[start:])
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return strings.TrimRight(f[0], ",.;:")
	}
	return ""
}

// rewrite reads one clause as the instructions it stands for.
func rewrite(c string) []string {
	c = strings.TrimSpace(c)
	sub := func(re *regexp.Regexp, tmpl string) (string, bool) {
		if m := re.FindStringSubmatchIndex(c); m != nil {
			return string(re.ExpandString(nil, tmpl, c, m)), true
		}
		return "", false
	}
	if s, ok := sub(reUseTo(), "type $2 into $1"); ok {
		return []string{s}
	}
	if s, ok := sub(reFindRow(), "click $1"); ok {
		return []string{s}
	}
	if m := reByDoing().FindStringSubmatch(c); m != nil {
		verb := strings.TrimSuffix(strings.ToLower(m[1]), "ing")
		switch verb {
		case "tapp":
			verb = "tap"
		case "hitt":
			verb = "hit"
		}
		c = verb + " " + m[2]
	}
	if s, ok := sub(rePurpose(), "$1"); ok {
		c = s
	}
	if m := reList().FindStringSubmatch(c); m != nil && strings.Contains(m[2], ",") && !reHasPlace().MatchString(m[2]) {
		// "select amet, urna and dolor": each is chosen.
		items := reItems().Split(m[2], -1)
		out := make([]string, 0, len(items))
		for i, it := range items {
			verb := m[1]
			if i > 0 {
				verb = strings.ToLower(verb)
			}
			out = append(out, verb+" "+strings.TrimSpace(it))
		}
		return out
	}
	return []string{c}
}

// reHasPlace: a list to choose from ("select A, B from the list") is one
// choice of a list, not several.
var reHasPlace = lazyRE(`(?i)\s(?:in|from|on|into|for)\s`)

// whole is the task as one instruction when its parts are not all
// instructions but it is one ("click Save and close": a button called
// "Save and close", whose "close" alone is no step), else nil.
func whole(task string) []string {
	t := strings.TrimRight(strings.TrimSpace(task), ".! ")
	if _, ok := parseInstruction(t); ok {
		return []string{t}
	}
	return nil
}
