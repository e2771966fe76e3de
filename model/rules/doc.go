// Package rules is the rules model: the [pilot.Model] waymark uses when no
// model key is set. It is deterministic, needs no network and no key, and
// understands plain instructions, matched against the outline's roles and
// names. For anything else it answers with an error wrapping
// [pilot.ErrCannot] that says what a model key would unlock.
//
// # The contract with the pilot
//
// The pilot sends a [pilot.Turn] with Purpose [pilot.PurposeAct]. The last
// user message holds:
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
// X is matched against the names of the elements that have a ref: an exact
// name (ignoring case and spacing) first, then a unique prefix, then a
// unique substring from the start of a word. Role words narrow the search:
// "the Sign in button", "the Email field", "link Next"; a role alone ("the
// textbox", "the checkbox") names the one element of that role. Counting
// words pick one of several in the page's order: "the second checkbox",
// "the last row's Delete". "x", "×" and "close" name a close control. A
// quoted name keeps its case when two names differ only by it ("No" and
// "no"). A control inside another of its name (a button in an accordion
// tab called the same) is counted once, as the inner one. A ref works
// too: "click e5". Two equally good matches are an [ErrAmbiguous] error
// listing them, never a guess (shared/DESIGN.md, invariant 4).
//
// testdata/instructions.json is a set of plain instructions on the demo
// shop and pages of our own, written before these rules were tuned; the
// test scores the model on it.
package rules
