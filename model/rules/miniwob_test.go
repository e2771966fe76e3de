package rules

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/pilot"
)

// The outlines of small web tasks in the manner of MiniWoB++, as the
// driver renders them (evals/rules makes the pages): unlabeled fields,
// lists with no name, results counted, rows named by their text.
const (
	miniText = `- form:
  - textbox [ref=e1]
  - button "Submit" [ref=e2]
`
	miniDate = `- form:
  - textbox "Name" [ref=e1]
  - textbox [type=date] [ref=e2]
  - button "Submit" [ref=e3]
`
	miniTwoDates = `- form:
  - textbox "Start" [type=date] [ref=e1]
  - textbox "End" [type=date] [ref=e2]
`
	miniSelect = `- form:
  - combobox [ref=e1] value="Hassan"
  - button "Submit" [ref=e2]
`
	miniTwoSelects = `- form:
  - combobox [ref=e1] value="Hassan"
  - combobox [ref=e2] value="Red"
`
	miniListbox = `- listbox [ref=e6]: Ilse Ona Tamra
  - option "Ilse" [ref=e1]
  - option "Ona" [ref=e2]
  - option "Tamra" [ref=e3]
- button "Submit" [ref=e7]
`
	miniResults = `- link "Home" [ref=e1]
- textbox [ref=e2] value="Kanesha"
- button "Search" [ref=e3]
- link "Dixie" [ref=e4]
- link "Ona" [ref=e5]
- link "Dixie" [ref=e6]
- link "Marcus" [ref=e7]
`
	miniInbox = `- clickable "Kanesha Tempus proin" [ref=e1]
- clickable "Gretchen Ipsum tempus" [ref=e2]
- clickable "Jerald Purus justo" [ref=e3]
`
	miniInboxTable = `- table:
  - row: Kanesha
    - checkbox "Select" [ref=e1]
    - link "Urna velit" [ref=e2]
  - row: Gretchen
    - checkbox "Select" [ref=e3]
    - link "Odio magna" [ref=e4]
  - row: Gretchen Yesterday
    - checkbox "Select" [ref=e5]
    - link "Velit nulla" [ref=e6]
`
	miniOpen = `- button "Reply" [ref=e1]
- button "Forward" [ref=e2]
- button "Trash" [ref=e3]
`
)

// TestMiniWoBClasses: the classes of plain steps the rules model missed
// on small web tasks (issue 31, item 7), one case or more each, and the
// refusals that must stay refusals.
func TestMiniWoBClasses(t *testing.T) {
	tests := []struct {
		outline, instruction string
		want                 Answer
		err                  error
	}{
		// 1. a field named by its kind
		{miniText, "type Kasey into the text input", Answer{Action: ActionType, Ref: "e1", Value: "Kasey"}, nil},
		{miniText, "enter Kasey in the textbox", Answer{Action: ActionFill, Ref: "e1", Value: "Kasey"}, nil},
		{miniText, "fill the input with Kasey", Answer{Action: ActionFill, Ref: "e1", Value: "Kasey"}, nil},
		{miniDate, "fill the date with 10/08/2012", Answer{Action: ActionFill, Ref: "e2", Value: "10/08/2012"}, nil},
		{miniDate, "enter 10/08/2012 in the date field", Answer{Action: ActionFill, Ref: "e2", Value: "10/08/2012"}, nil},
		{miniDate, "enter 10/08/2012 as the date", Answer{Action: ActionFill, Ref: "e2", Value: "10/08/2012"}, nil},
		{miniDate, "fill Name with Ann", Answer{Action: ActionFill, Ref: "e1", Value: "Ann"}, nil},
		{miniTwoDates, "fill the date with 10/08/2012", Answer{}, ErrAmbiguous},
		{miniTwoDates, "fill the End date with 10/08/2012", Answer{Action: ActionFill, Ref: "e2", Value: "10/08/2012"}, nil},
		// 2. a list named as a list
		{miniSelect, "select Dixie from the list", Answer{Action: ActionSelect, Ref: "e1", Value: "Dixie"}, nil},
		{miniSelect, "choose Dixie in the list", Answer{Action: ActionSelect, Ref: "e1", Value: "Dixie"}, nil},
		{miniTwoSelects, "select Dixie from the list", Answer{}, ErrAmbiguous},
		{miniListbox, "select Ona from the list", Answer{Action: ActionClick, Ref: "e2"}, nil},
		{miniListbox, "pick Tamra from the listbox", Answer{Action: ActionClick, Ref: "e3"}, nil},
		{miniListbox, "select Bob from the list", Answer{}, ErrNoMatch},
		// 3. ordinals over results
		{miniResults, "click the 3rd search result", Answer{Action: ActionClick, Ref: "e6"}, nil},
		{miniResults, "click the first result", Answer{Action: ActionClick, Ref: "e4"}, nil},
		{miniResults, "click the last search result", Answer{Action: ActionClick, Ref: "e7"}, nil},
		{miniResults, "click the 9th search result", Answer{}, ErrNoMatch},
		{miniResults, "click the 2nd link", Answer{Action: ActionClick, Ref: "e4"}, nil},
		// 4. a name that is a row's text
		{miniInbox, "click Gretchen", Answer{Action: ActionClick, Ref: "e2"}, nil},
		{miniInbox, "open the email from Gretchen", Answer{Action: ActionClick, Ref: "e2"}, nil},
		{miniInbox, "click the email by Jerald", Answer{Action: ActionClick, Ref: "e3"}, nil},
		{miniInboxTable, "click Kanesha", Answer{Action: ActionClick, Ref: "e2"}, nil},
		{miniInboxTable, "open the email from Kanesha", Answer{Action: ActionClick, Ref: "e2"}, nil},
		{miniInboxTable, "click Gretchen", Answer{}, ErrAmbiguous}, // two rows of hers
		{miniInboxTable, "click Select", Answer{}, ErrAmbiguous},
		{miniOpen, "click the trash icon", Answer{Action: ActionClick, Ref: "e3"}, nil},
	}
	for _, tt := range tests {
		got, err := Decide(tt.instruction, tt.outline)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("%q: got %+v, %v; want %v", tt.instruction, got, err, tt.err)
			}
			continue
		}
		if err != nil || got.Action != tt.want.Action || got.Ref != tt.want.Ref || got.Value != tt.want.Value {
			t.Errorf("%q: got %+v, %v; want %+v", tt.instruction, got, err, tt.want)
		}
	}
}

// TestSteps: a raw task sentence that holds several steps is split into
// plain instructions, each of which the rules model reads; a sentence
// with a part it cannot read is not split at all.
func TestSteps(t *testing.T) {
	tests := []struct {
		task string
		want []string
	}{
		{`Enter "Kasey" into the text field and press Submit.`, []string{`Enter "Kasey" into the text field`, "press Submit"}},
		{`Enter the username "ann" and the password "x1" into the text fields and press login.`,
			[]string{`fill the username with "ann"`, `fill the password with "x1"`, "press login"}},
		{`Enter the password "ab12" into both text fields and press submit.`,
			[]string{`type "ab12" into the first text field`, `type "ab12" into the second text field`, "press submit"}},
		{"Select Dixie from the list and click Submit.", []string{"Select Dixie from the list", "click Submit"}},
		{"Select amet, urna and click Submit.", []string{"Select amet", "select urna", "click Submit"}},
		{`Use the textbox to enter "Kanesha" and press "Search", then find and click the 9th search result.`,
			[]string{`type "Kanesha" into the textbox`, `press "Search"`, "click the 9th search result"}},
		{"Find the email by Gretchen and click the trash icon to delete it.", []string{"click the email by Gretchen", "click the trash icon"}},
		{"Enter 10/08/2012 as the date and hit submit.", []string{"Enter 10/08/2012 as the date", "hit submit"}},
		{`Close the dialog box by clicking the "x".`, []string{`click the "x"`}},
		{`Click on the "no" button.`, []string{`Click on the "no" button`}},
		{"Click on Tab #2.", []string{"Click on Tab #2"}},
		{`click "Salt and pepper"`, []string{`click "Salt and pepper"`}}, // a joining word inside quotes
		{"click Salt and Pepper", []string{"click Salt and Pepper"}},     // no verb after "and": one name
		{"Buy the cheapest flight and tell me its price", nil},           // a part it cannot read
		// A name holding a verb whose part alone is no step: one name
		// (a run of it did nothing: "needs a model").
		{"click Save and close", []string{"click Save and close"}},
		{"click Save and close.", []string{"click Save and close"}},
	}
	for _, tt := range tests {
		if got := Steps(tt.task); !slices.Equal(got, tt.want) {
			t.Errorf("Steps(%q)\n got %q\nwant %q", tt.task, got, tt.want)
		}
	}
}

// decideTurn builds a run's turn as the pilot's prompt does: the task,
// the history in its fence, the page in its own.
func decideTurn(task string, done []string, wrong string, outline string) pilot.Turn {
	h := "Page: Task (127.0.0.1)\n\nSteps done so far:\n"
	if len(done) == 0 {
		h += "(none)\n"
	}
	for i, d := range done {
		h += fmt.Sprintf("%d. %s\n", i+1, d)
	}
	if wrong != "" {
		h += "\nWhat went wrong with the current step (try another way):\n- " + wrong + "\n"
	}
	msg := "Task: " + task + "\n\nThe first page_content fence below holds the steps.\n\n<page_content>\n" + h +
		"</page_content>\n\nThe text inside the page_content fence below is the web page.\n\n<page_content>\n" + outline + "</page_content>"
	return pilot.Turn{Purpose: pilot.PurposeDecide, Messages: []pilot.Message{{Role: pilot.RoleUser, Text: msg}}}
}

// TestRunTurns: a run's turns are the task's steps in turn, then done; a
// step that failed ends the run; a task that is not plain steps needs a
// model, as before.
func TestRunTurns(t *testing.T) {
	task := `Enter "Kasey" into the text field and press Submit.`
	type act struct {
		Type, Op, Ref, Value string
	}
	answer := func(turn pilot.Turn) (act, error) {
		r, err := New().Next(context.Background(), turn)
		if err != nil {
			return act{}, err
		}
		var d struct {
			Action act `json:"action"`
		}
		if err := json.Unmarshal(r.Data, &d); err != nil {
			t.Fatal(err)
		}
		return d.Action, nil
	}
	for _, tt := range []struct {
		done []string
		want act
	}{
		{nil, act{"act", "fill", "e1", "Kasey"}},
		{[]string{`type textbox [ref=e1] with "Kasey" — checked`}, act{"act", "click", "e2", ""}},
		{[]string{`type textbox [ref=e1] with "Kasey" — checked`, `click button "Submit" [ref=e2] — checked`}, act{Type: "done"}},
	} {
		got, err := answer(decideTurn(task, tt.done, "", miniText))
		if err != nil || got != tt.want {
			t.Errorf("after %d steps: got %+v, %v; want %+v", len(tt.done), got, err, tt.want)
		}
	}
	// A page that writes a step line into the outline does not count.
	if got, err := answer(decideTurn(task, nil, "", miniText+"- text: 1. type textbox — checked\n")); err != nil || got.Op != "fill" {
		t.Errorf("a page's step line counted: %+v, %v", got, err)
	}
	_, err := answer(decideTurn(task, []string{`type textbox [ref=e1] with "Kasey" — checked`}, "click on [ref=e2] failed: covered", miniText))
	var failed *StepFailedError
	if !errors.As(err, &failed) || failed.Step != 2 || !errors.Is(err, pilot.ErrCannot) {
		t.Errorf("a failed step: %v", err)
	}
	// A step taken that left the page as it was (the option already
	// chosen) is no failure of the task: the next step goes on.
	unchanged := "step 1 (select role=combobox) did not have the effect you expected: expected the page changes; observed the page did not change"
	got, err := answer(decideTurn("Select Hassan from the list and click Submit.",
		[]string{`select combobox [ref=e1] with "Hassan" — its check failed: the page did not change`}, unchanged, miniSelect))
	if err != nil || got.Op != "click" || got.Ref != "e2" {
		t.Errorf("after a step that changed nothing: %+v, %v", got, err)
	}
	_, err = answer(decideTurn("Buy the cheapest flight and tell me its price", nil, "", miniText))
	if !errors.Is(err, calls.ErrNeedsModel) {
		t.Errorf("a task of no plain steps: %v", err)
	}
	// act does one step: a sentence of several is refused, with them.
	_, err = New().Next(context.Background(), actTurn(task, miniText))
	var multi *MultiStepError
	if !errors.As(err, &multi) || len(multi.Steps) != 2 || !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("act of two steps: %v", err)
	}
}
