package calls

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Approval is what an action that needs approval expects of the page: its
// URL, the control it would press and the form's values. Sent back with
// the action, it lets the action proceed only on the page as approved.
type Approval struct {
	Action string `json:"action"` // "click", "press Enter"
	URL    string `json:"url"`    // the page's URL
	// Control is the control as the page shows it, one way for every
	// press (a submit judged before pressing, a send held at sending):
	// its tag and type, then its words in quotes (`button[type=button]
	// "Continue"`), never the locator the caller typed.
	Control string `json:"control"`
	// Why is what makes the step need a person: a verb phrase whose
	// subject is the step (the pressed control, the called tool, the
	// request, the write), to be read after "it": "submits the form",
	// "sends a fetch request: POST https://shop/pay", "writes 2 cells of
	// the sheet \"Budget\"", "is a PUT, which may change what the site
	// holds". A phrase, not a sentence, so that every front says it the
	// one way ([Approval.Line]) and a message can go on after it.
	//
	// Why is also a match key: a routine records it (routine.Approved)
	// and a replay presses a recorded submit without asking only while
	// the page gives the same Why, byte for byte. So the submit check's
	// reasons keep the words they had before Why had a grammar, although
	// four are not verb phrases ("Enter in a form field submits the
	// form", "Enter on it submits the form", "Space on it submits the
	// form", "its words commit: \"Pay now\""): [WhyPhrase] says each as
	// the phrase it means. Read Why through WhyPhrase, never bare.
	Why  string            `json:"why"`
	Form map[string]string `json:"form,omitempty"` // the form's current values; passwords masked
	// Target is where a press that submits a form sends it: the method
	// and the action URL ("POST https://shop/order"), the control's
	// formaction and formmethod winning over the form's.
	Target string `json:"target,omitempty"`
	// Fixed names the form's fields the person cannot change on the page
	// (hidden, readonly): what they carry is part of what was approved.
	Fixed []string `json:"fixed,omitempty"`
	// Sends is the request the step would have sent ("POST https://…/pay")
	// when the gate held it at the point of sending; an approval with
	// Sends lets exactly that request through.
	Sends string `json:"sends,omitempty"`
	// Writes are the values an approved sheet fill writes, by cell
	// (secrets masked); Form then holds what the cells hold now, and
	// Sends binds the approval to the exact values ("cells " and a hash).
	Writes map[string]string `json:"writes,omitempty"`
	// Token binds the approval to the page load it was given on; it is
	// used once. Send the approval back unchanged.
	Token string `json:"token"`
}

// The submit check's reasons that are not verb phrases, as the page-side
// probe words them (driver/js/submit_probe.js), with the phrase each
// means. The action already names the key ("press Enter"), so the phrase
// does not. They stay as they are made: see [Approval.Why].
var clauseWhys = map[string]string{
	"Enter in a form field submits the form": "submits the form",
	"Enter on it submits the form":           "submits the form",
	"Space on it submits the form":           "submits the form",
}

// wordsCommit begins the submit check's reason for a control whose words
// (quoted after it) say it sends, pays, deletes or confirms.
const wordsCommit = "its words commit: "

// WhyPhrase is an approval's Why as the verb phrase the field's grammar
// asks for, to be read after "it" ("submits the form"); "" for none.
// Only the submit check's older reasons ([Approval.Why]) are reworded:
// the control's words it quotes are the control's own, which the person
// reads beside it.
func WhyPhrase(why string) string {
	if p, ok := clauseWhys[why]; ok {
		return p
	}
	if strings.HasPrefix(why, wordsCommit) {
		return "is worded to send, pay, delete or confirm"
	}
	return why
}

// Line says in one line what the step does, where, and why a person is
// asked: `click button "Place order" on https://shop/checkout: it submits
// the form`. It is the first line of [Approval.Describe] and of the
// needs_approval error that carries a (a message goes on after it: ", so
// it needs approval; nothing was pressed"), and what a front shows when
// it has a line only.
func (a Approval) Line() string {
	s := shown(a.Action) + " " + shownControl(a.Control) + " on " + shown(a.URL)
	if p := WhyPhrase(a.Why); p != "" {
		s += ": it " + shown(p)
	}
	return s
}

// shown is the page's words (a control's, a form's value, a URL, a
// reason a routine file recorded) as a person reads them in a question:
// a character that is not printed (a newline, an escape code that moves
// a terminal's cursor, a bidi override that turns the text around) is
// written as its escape, so the page's words cannot start a line of
// their own, rewrite the screen, or reorder what waymark says.
func shown(s string) string {
	clean := true
	for _, r := range s {
		if !unicode.IsPrint(r) && r != ' ' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsPrint(r) || r == ' ' {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r) // '\n', '\x1b', '\u202e'
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// ShownControl is an approval's control as a message names it beside
// waymark's own words ("the control is …, not …"): as [Approval.Line]
// shows it, its words quoted again and what is not printed escaped, so
// the page's words in it cannot end it, start a line or rewrite the
// screen. Every message that names an approval's control goes through it.
func ShownControl(c string) string { return shownControl(c) }

// shownControl is a control as the submit check names it (`button "Pay
// now"`: its tag, then its words in quotes) with the words quoted again,
// so a quote in them cannot end them and go on as waymark's words
// (`"Cancel" on https://…: it only reads`); any other control is shown.
func shownControl(c string) string {
	tag, words, ok := strings.Cut(c, ` "`)
	if !ok || !strings.HasSuffix(words, `"`) || strings.Contains(tag, " ") {
		return shown(c)
	}
	words = strings.TrimSuffix(words, `"`)
	if !strings.ContainsAny(words, `\"`) {
		return shown(tag) + ` "` + shown(words) + `"`
	}
	return shown(tag) + " " + strconv.QuoteToGraphic(words)
}

// Describe is what a person reads before they approve: [Approval.Line],
// then what the step sends: the cells a sheet fill writes (what each
// holds now and gets), the request the gate held or where the form goes,
// and the form's values (secrets masked). Every front asks with it: MCP's
// question, the CLI's replay, a run's.
func (a Approval) Describe() string {
	var b strings.Builder
	b.WriteString(a.Line() + ".")
	if d := a.Details(); d != "" {
		b.WriteString("\n" + d)
	}
	return b.String()
}

// Details is [Approval.Describe] without its first line, for a front
// that shows the line already (a needs_approval error's message begins
// with it); "" when the approval holds nothing more.
func (a Approval) Details() string {
	var lines []string
	if len(a.Writes) > 0 {
		// A sheet fill: each cell, what it holds now and what it gets.
		lines = append(lines, "The cells (now → written):")
		for _, k := range slices.Sorted(maps.Keys(a.Writes)) {
			lines = append(lines, fmt.Sprintf("  %s: %q → %q", shown(k), a.Form[k], a.Writes[k]))
		}
		return strings.Join(lines, "\n")
	}
	if a.Sends != "" {
		lines = append(lines, "It sends "+shown(a.Sends)+".")
	} else if a.Target != "" {
		lines = append(lines, "The form goes to "+shown(a.Target)+".")
	}
	if len(a.Form) > 0 {
		lines = append(lines, "The form:")
		for _, k := range slices.Sorted(maps.Keys(a.Form)) {
			lines = append(lines, fmt.Sprintf("  %s: %s", shown(k), shown(a.Form[k])))
		}
	}
	return strings.Join(lines, "\n")
}
