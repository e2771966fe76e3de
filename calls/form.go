package calls

import (
	"context"
	"fmt"
	"strings"
)

// Forms as ledgers (issue 17): a page's forms read once as a list of
// fields, filled from answers with every write read back, never
// submitted.

// Method names of the form calls.
const (
	MethodForm       = "form"
	MethodFormFill   = "form_fill"
	MethodFormReview = "form_review"
)

// The kinds of a form field.
const (
	FieldText      = "text"
	FieldTextarea  = "textarea"
	FieldSelect    = "select"
	FieldCombobox  = "combobox"
	FieldTypeahead = "typeahead"
	FieldRadio     = "radio"
	FieldCheckbox  = "checkbox"
	FieldDate      = "date"
	FieldFile      = "file"
	FieldRichtext  = "richtext"
	FieldSlider    = "slider"
)

// FormRequest asks for the fields of the current page's forms.
type FormRequest struct{}

// Form is the page's forms as fields, in document order, frames after the
// page that holds them.
type Form struct {
	URL    string      `json:"url"`
	Title  string      `json:"title"`
	Fields []FormField `json:"fields"`
	// Errors name the frames that could not be read: their fields are
	// unknown, never taken as none.
	Errors []FrameError `json:"errors,omitempty"`
	// ATS is the applicant tracking system the form is ("Greenhouse"),
	// when the page is one waymark knows (package apps).
	ATS string `json:"ats,omitempty"`
	// Questions are the questions of the form's published definition (an
	// ATS's) that no field on the page matched yet: a later step, or a
	// field the page draws late.
	Questions []FormQuestion `json:"questions,omitempty"`
	// Notes say what the read took from elsewhere, or could not.
	Notes []string `json:"notes,omitempty"`
}

// FormQuestion is one question of a form's published definition.
type FormQuestion struct {
	Label    string   `json:"label"`
	Kind     string   `json:"kind"` // as the definition names it: "multi_value_single_select"
	Required bool     `json:"required,omitempty"`
	Options  []string `json:"options,omitempty"`
}

// FormField is one field as a person sees it.
type FormField struct {
	// Key names the field for answers, the same on every read of the
	// page: from its label (else its name), with its section's name when
	// two sections hold the same label, and a copy number for a section
	// the page repeats: "email", "experience[2].company".
	Key   string `json:"key"`
	Ref   string `json:"ref"`   // to act on it with the other calls
	Label string `json:"label"` // as a person reads it
	Kind  string `json:"kind"`  // FieldText, FieldSelect, …
	// Format is how a date field takes its value when it is not a
	// browser date input ("DD/MM/YYYY"), or "" for none.
	Format   string `json:"format,omitempty"`
	Required bool   `json:"required,omitempty"`
	// Value is what the field holds now: an option's words for a select
	// or radio, "true" or "false" for a checkbox, file names for a file
	// field. A secret or a card number shows as hidden.
	Value   string   `json:"value"`
	Options []string `json:"options,omitempty"`
	// Error is what the page says is wrong with the field: its error
	// text, or its validity message when it is marked invalid.
	Error string `json:"error,omitempty"`
	// Frame is the URL of the frame the field is in, when not the page's.
	Frame string `json:"frame,omitempty"`
	// Section is the name of the part of the form that holds the field.
	Section  string `json:"section,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
}

// FrameError is a frame the read could not see into.
type FrameError struct {
	Frame string `json:"frame"` // its URL, or its id when the URL is unknown
	Error string `json:"error"`
}

// FormFillRequest fills fields from answers, by key or by label. It
// never presses Enter or a submit control, and stops the page's own
// attempts to send while it fills.
type FormFillRequest struct {
	// Answers are the values by key or label: words of an option, a
	// date, "true" or "false" for a checkbox, a file path for a file
	// field.
	Answers map[string]string `json:"answers"`
	// Secrets are answers that are secrets, by key or label: they are
	// typed like Answers but marked in the session and never appear in
	// the result (nor in any later look).
	Secrets map[string]string `json:"secrets,omitempty"`
	// Rounds bounds how many times fields an answer revealed are looked
	// for; zero means 3.
	Rounds int  `json:"rounds,omitempty"`
	Hand   bool `json:"hand,omitempty"` // type at a person's pace
	// Dir is the folder a file field's relative answer is read from,
	// named by the caller because only the driver knows which answers
	// are files (the CLI sends the answers file's folder, or its working
	// folder for stdin); a whole path. Empty: a driver in
	// the caller's own process reads it from that process's folder, and
	// the daemon, whose folder is no caller's, refuses the fill
	// (driver.Options.RemoteCallers).
	Dir string `json:"dir,omitempty"`
	// Dirs are, by answer key (of Answers or Secrets), folders that
	// answer's relative file path is read from instead of Dir: a replay
	// reads the paths a routine writes from the routine file's folder,
	// and the values of its variables from Dir (package replay, Options).
	Dirs map[string]string `json:"dirs,omitempty"`
}

// FormFillResult says what a fill did to every field.
type FormFillResult struct {
	URL    string        `json:"url"`
	Fields []FilledField `json:"fields"`
	// Unmatched are the answers no field took: never put in a near one.
	Unmatched []string `json:"unmatched,omitempty"`
	// Stopped are the page's own attempts to send that were stopped
	// while filling ("POST http://…/apply (a form submission)").
	Stopped []string `json:"stopped,omitempty"`
	// Chatter are the page's sends let go while filling because they
	// commit nothing (a beacon, a GraphQL query), as Outcome.Chatter.
	Chatter []string `json:"chatter,omitempty"`
	// NeedsPerson are what a person must still see to: required fields
	// left empty, errors the page shows, answers it refused.
	NeedsPerson []string     `json:"needs_person,omitempty"`
	Errors      []FrameError `json:"errors,omitempty"`
	Rounds      int          `json:"rounds"`
}

// Unplaced is the error of a fill some answers found no field for
// (Unmatched), or nil: a not_found that names them. The fields that were
// filled stay filled, and the result says what each holds; a front
// reports the result and exits (or answers) with this error, so a caller
// that reads only the status does not take a partial fill for a whole one.
func (r *FormFillResult) Unplaced() error {
	if r == nil || len(r.Unmatched) == 0 {
		return nil
	}
	noun := "answer"
	if len(r.Unmatched) > 1 {
		noun = "answers"
	}
	return &Error{Kind: ErrNoMatch,
		Msg:  fmt.Sprintf("%d %s found no field: %s; the fields that were filled stay filled", len(r.Unmatched), noun, strings.Join(r.Unmatched, ", ")),
		Hint: "use the keys or labels " + Cmd("form") + " lists, or leave them to a person"}
}

// FilledField is one field of a fill: what it held before, what it holds
// after, and whether the answer was read back.
type FilledField struct {
	Key    string `json:"key"`
	Label  string `json:"label"`
	Kind   string `json:"kind"`
	Ref    string `json:"ref"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Answered says an answer was meant for the field; ReadBack that the
	// field holds it after.
	Answered bool   `json:"answered,omitempty"`
	ReadBack bool   `json:"read_back,omitempty"`
	Tries    int    `json:"tries,omitempty"`
	Error    string `json:"error,omitempty"` // the page's error, or why the write failed
}

// FormReviewRequest asks for every page of a multi-step form the session
// went through.
type FormReviewRequest struct{}

// FormReview is the pages of a multi-step form in the order they were
// seen, each with its fields as last read or filled.
type FormReview struct {
	Pages []FormPage `json:"pages"`
}

// FormPage is one page of a multi-step form.
type FormPage struct {
	URL    string      `json:"url"`
	Title  string      `json:"title"`
	Fields []FormField `json:"fields"`
}

// Form reads the current page's forms as fields.
func (r Remote) Form(ctx context.Context, req FormRequest) (*Form, error) {
	return remote[Form](ctx, r, MethodForm, req)
}

// FillForm fills fields from answers, reads every write back and never
// submits.
func (r Remote) FillForm(ctx context.Context, req FormFillRequest) (*FormFillResult, error) {
	return remote[FormFillResult](ctx, r, MethodFormFill, req)
}

// FormReview returns every page of a multi-step form the session went
// through, with its values.
func (r Remote) FormReview(ctx context.Context, req FormReviewRequest) (*FormReview, error) {
	return remote[FormReview](ctx, r, MethodFormReview, req)
}
