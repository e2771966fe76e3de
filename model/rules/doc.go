// Package rules is the rules model: the [pilot.Model] waymark uses when no
// model key is set. It is deterministic, needs no network and no key, and
// understands plain instructions, matched against the outline's roles and
// names. For anything else it answers with an error wrapping
// [pilot.ErrCannot] that says what a model key would unlock.
//
// # The contract with the pilot
//
// The pilot sends a [pilot.Turn] with Purpose [pilot.PurposeAct] (act), or
// [pilot.PurposeDecide] (a run's turn; see "Tasks of several steps"). The
// last user message of an act turn holds:
//
//   - the instruction, inside <instruction>…</instruction>, or on a line
//     starting "Instruction:", or else as all the text outside the fence;
//   - the page outline inside a <page_content>…</page_content> fence (the
//     opening tag may carry attributes). Everything up to the last
//     </page_content> is page, so a page that writes the closing tag cannot
//     put words outside the fence.
//
// The outline is the one package outline renders: one element a line,
// indented two spaces a level, as in `- textbox "Email" [required] [ref=e7]
// value="ann@example.com"` or `- checkbox "I agree" [checked] [ref=e3]`.
// Lines without a ref (headings, text, the page header, summaries) are
// not targets.
//
// The reply's Data is an [Answer] as JSON, the shape [AnswerSchema]
// describes; a real model asked for the same schema answers the same way,
// so the pilot needs one decoder. %name% placeholders in values are passed
// through untouched: the pilot substitutes them after the model call.
//
// # Instructions
//
// Case does not matter and quotes around names and values are optional
// (needed only when a value holds a joining word such as " in "):
//
//	click X · tap X · press X          click a button, link, tab, …
//	press Enter · press Control+A      press a key (in X: "press Enter in Search")
//	fill X with Y · set X to Y         fill a field
//	type Y into X                      type keys into a field
//	enter Y in X · put Y in X          fill a field
//	select Y in X · choose Y from X    choose an option of a combobox or listbox
//	select X · choose X                choose a radio button, option or tab
//	check X · uncheck X                tick or untick a checkbox, switch or radio
//	go to URL · open URL · navigate to URL
//	scroll down · scroll up · scroll to X
//
//	enter Y as X                       fill a field ("enter 10/08/2012 as the date")
//
// X is matched against the names of the elements that have a ref: an exact
// name (ignoring case and spacing) first, then a unique prefix, then a
// unique substring from the start of a word. Role words narrow the search:
// "the Sign in button", "the Email field", "link Next"; a role alone ("the
// textbox", "the checkbox") names the one element of that role. Counting
// words pick one of several in the page's order: "the second checkbox",
// "the last row's Delete", "the 12th link". "x", "×" and "close" name a
// close control. A quoted name keeps its case when two names differ only
// by it ("No" and "no"). A control inside another of its name (a button in
// an accordion tab called the same) is counted once, as the inner one. A
// ref works too: "click e5". Two equally good matches are an
// [ErrAmbiguous] error listing them, never a guess (shared/DESIGN.md,
// invariant 4).
//
// Targets a page leaves unnamed, by class (issue 31, item 7):
//
//   - a field named by its kind: "the text input", "the textbox", "the
//     input", "the date" or "the date field" (a [type=date] field; a
//     field named Date is found by its name when no such field is there);
//   - a list named as a list: "select Dixie from the list" (the one
//     combobox or listbox). A list that shows its options in the outline
//     (an ARIA listbox, a <select size>) has the option clicked, which a
//     page's own listbox takes where a select would not reach it;
//   - ordinals over results: "the 9th search result", "the first result"
//     count the links after the page's last text field (its search box),
//     not the site's navigation above it; "the 3rd link" counts all links;
//   - a name that is a row's text: "click Gretchen", "open the email from
//     Gretchen". A row with a ref (a clickable inbox line) is matched by
//     its name as any control; a table row whose text (the interactive
//     outline's "- row: Gretchen") holds the name as whole words is
//     opened by its one link, else its one button. When no control is
//     named so, and two rows hold the name, it is ambiguous;
//   - "the trash icon": a control drawn as a picture, by its name;
//   - a menu the step's own typing opened (an autocomplete's, over the
//     submit button) is no target at all: the driver's guarded click
//     closes it by leaving the field and checks again, and a pick from it
//     ("click Antigua") is a click on its item.
//
// # Tasks of several steps
//
// A sentence that holds several steps ("Enter the username "ann" and the
// password "x" into the text fields and press login") is split by
// [Steps], the one place that does it: only before a verb the rules know,
// never inside quotes, and only when every part is a plain instruction.
// act does one step, so act refuses such a sentence with a
// [MultiStepError] listing its steps; run (waymark run with no key)
// answers its turns ([pilot.PurposeDecide]) one step a turn: it counts the
// steps the run's history lists as done, answers the next as act would,
// and answers done after the last (the run accepts it only when the last
// step's check passed). A step that failed ends the run with a
// [StepFailedError]: the rules know no other way. A task that is not plain
// steps is a [NeedsModelError], as before.
//
// testdata/instructions.json is a set of plain instructions on the demo
// shop and pages of our own, written before these rules were tuned; the
// test scores the model on it. evals/rules measures it on small web tasks
// in the manner of MiniWoB++, from their plain steps and from their raw
// sentences (make evals).
package rules
