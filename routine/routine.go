// Package routine is the file format of a task done once and replayed with
// no model: plain JSON, versioned ("format": "waymark.routine/1"), holding
// declared variables (never their values) and steps whose elements carry a
// locator derived from the live page, its evidence and a fingerprint.
//
// API maturity: the format is versioned and older versions keep loading;
// the Go API is new and not yet stable.
package routine

import (
	"encoding/json"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/sheet"
	"github.com/waymark-dev/waymark/siteapi"
)

// Format is the version string of the current format.
const Format = "waymark.routine/1"

// Routine is one recorded task.
type Routine struct {
	Format    string     `json:"format"`
	Name      string     `json:"name"`
	Version   int        `json:"version"` // bumped by every heal that is kept
	Task      string     `json:"task,omitempty"`
	Variables []Variable `json:"variables,omitempty"`
	Steps     []Step     `json:"steps"`
	History   []Change   `json:"history,omitempty"`
	Pending   bool       `json:"pending,omitempty"` // a healed version written beside the old one, waiting for review
}

// Variable is a declared input. Its value comes at replay time (--var,
// --secret); a routine never holds it.
type Variable struct {
	Name        string `json:"name"`
	Secret      bool   `json:"secret,omitempty"`
	Description string `json:"description,omitempty"`
	List        bool   `json:"list,omitempty"` // a list of rows, for each
}

// Step kinds.
const (
	KindGoto    = "goto"
	KindAct     = "act"
	KindVerify  = "verify"
	KindExtract = "extract"
	KindIf      = "if"
	KindEach    = "each"
	KindForm    = "form"
	KindAPI     = "api"
)

// Step is one step. Kind says which fields are used.
type Step struct {
	ID          string `json:"id,omitempty"`
	Kind        string `json:"kind"`
	Instruction string `json:"instruction,omitempty"` // the words the step came from (act, extract), for heals and for people

	// goto
	URL    string  `json:"url,omitempty"`
	Landed *Landed `json:"landed,omitempty"`

	// act: an element operation
	Op     string   `json:"op,omitempty"` // click, dblclick, fill, type, select, check, uncheck, press, hover, scroll, upload
	Target *Target  `json:"target,omitempty"`
	Value  *Value   `json:"value,omitempty"`  // fill, type, select, upload
	Key    string   `json:"key,omitempty"`    // press
	Values []*Value `json:"values,omitempty"` // select with several options

	// act scroll: Direction is up, down, left, right or into-view; empty
	// means into-view with a target and down without (what replays did
	// before the field). Pixels is how far; zero means the driver's
	// default. A direction other than into-view scrolls the target itself
	// when there is one, else the page.
	Direction string `json:"direction,omitempty"`
	Pixels    int    `json:"pixels,omitempty"`
	// act click, dblclick: Button is left (or empty), right or middle.
	// Count is how many clicks a click makes (zero means 1); a dblclick
	// is always two.
	Button string `json:"button,omitempty"`
	Count  int    `json:"count,omitempty"`
	// Approved is set on a submit a person pressed while recording by
	// hand: a replay presses it without asking while the page matches
	// (see [Approved]).
	Approved *Approved `json:"approved,omitempty"`
	// Dismisses is set on a click that closed a popup which had stopped
	// or covered the step before it ([MarkDismissal]): a replay skips it
	// when the popup is not open, and closes the popup with it when the
	// popup meets another step, then takes that step again.
	Dismisses *Dismissal `json:"dismisses,omitempty"`

	// verify, if
	Check *Check `json:"check,omitempty"`

	// extract
	Schema json.RawMessage `json:"schema,omitempty"`
	Into   string          `json:"into,omitempty"` // the name later steps (each) read the data by
	// Recipe (extract, each) reads the list from the page with no model
	// (package recipe). An extract step with one replays with no model;
	// an each with one reads its rows from the page by it each time round
	// instead of going over a variable or an extract.
	Recipe *recipe.Recipe `json:"recipe,omitempty"`
	// Grid (extract) reads the list from the spreadsheet the page shows
	// by a grid recipe (waymark.grid/1, package sheet): the table found by
	// its header row, with no model.
	Grid *sheet.Recipe `json:"grid,omitempty"`
	// List (extract with a recipe) reads the list over pages, as it was
	// read when recorded.
	List *ListRead `json:"list,omitempty"`

	// form: the answers by field key (or label), each a literal, a
	// variable or a template; a replay fills them with no model and
	// never submits (calls.FormFillRequest).
	Answers map[string]*Value `json:"answers,omitempty"`

	// sheet_read: Range ("A1:C20") read into Into; sheet_write: Cell and
	// Value; sheet_fill: Cells, each value by cell (sheet.go).
	Range string            `json:"range,omitempty"`
	Cell  string            `json:"cell,omitempty"`
	Cells map[string]*Value `json:"cells,omitempty"`
	// doc_insert, doc_read: the editor and the place (doc.go); an insert
	// types Value there, a read keeps the text under Into.
	Doc *DocStep `json:"doc,omitempty"`
	// api: API is the site API recipe (package siteapi, waymark.api/1)
	// the step reads its list by, into Into (list.pages bounds the pages).
	// Fallback are the browser steps it stands for (a goto and an
	// extract): a replay runs them only when the API has changed, then
	// learns the API again from what they read (a heal of kind api).
	API      *siteapi.Recipe `json:"api,omitempty"`
	Fallback []Step          `json:"fallback,omitempty"`

	// if
	Then []Step `json:"then,omitempty"`
	Else []Step `json:"else,omitempty"`

	// each: Over names a list variable or an earlier extract's Into (or,
	// with a Recipe, is empty); values inside use %row.field%.
	Over string `json:"over,omitempty"`
	Do   []Step `json:"do,omitempty"`

	// Verdict is what the recorder observed when the step was demonstrated
	// (the agent loop's verifier); informative at replay.
	Verdict *Verdict `json:"verdict,omitempty"`
}

// ListRead is how an extract step reads a list over pages: the next-page
// control followed (or the page scrolled) up to Pages pages, rows merged
// by Key, stopped at Limit rows or at the first row older than Until (a
// date as written: "2026-11-01", "3 days ago", counted from the replay).
type ListRead struct {
	Pages      int    `json:"pages,omitempty"`
	Scroll     bool   `json:"scroll,omitempty"`
	Key        string `json:"key,omitempty"`
	Limit      int    `json:"limit,omitempty"`
	Until      string `json:"until,omitempty"`
	UntilField string `json:"until_field,omitempty"`
}

// Landed is where a goto arrived when it was recorded ([LandedAt]); a
// replay compares where it lands with [Arrived].
type Landed struct {
	Path   string `json:"path"`            // the path, escaped as in the address bar
	Query  string `json:"query,omitempty"` // the goto's own query parameters the page kept, encoded (q=lamp); tracking ones left out
	Title  string `json:"title,omitempty"`
	SignIn bool   `json:"sign_in,omitempty"`
	Status int    `json:"status,omitempty"`
}

// Target is an element: the locator chosen from the live page, the
// evidence for it, and the fingerprint to find it again.
type Target struct {
	Locator     string            `json:"locator"`
	Candidates  []calls.Candidate `json:"candidates,omitempty"`
	Frame       []string          `json:"frame,omitempty"`
	Fingerprint calls.Fingerprint `json:"fingerprint"`
	Positional  bool              `json:"positional,omitempty"` // inside each: the same place in the current row
	// Place, inside an each with a recipe, is where the element is within
	// its row (recipe.Place): a replay presses the element at that place
	// in each row, found by no other means and never healed.
	Place string `json:"place,omitempty"`
}

// Value is what a step types or chooses: a literal (never a secret), a
// reference to a variable, or a template with %name% and %row.field%.
type Value struct {
	Literal  string `json:"literal,omitempty"`
	From     string `json:"from,omitempty"` // "input" or "secret"
	Slot     string `json:"slot,omitempty"`
	Template string `json:"template,omitempty"`
}

// Check is an observable fact about the page.
type Check struct {
	Text    string  `json:"text,omitempty"`    // this text is shown
	Absent  bool    `json:"absent,omitempty"`  // … or is not shown (with Text or Element)
	Element *Target `json:"element,omitempty"` // this element is on the page
	URL     string  `json:"url,omitempty"`     // the URL matches this glob
}

// Verdict is a verifier's judgement of a step when it was recorded.
type Verdict struct {
	OK       bool   `json:"ok"`
	Expected string `json:"expected,omitempty"`
	Observed string `json:"observed,omitempty"`
}

// Change is one entry of a routine's history.
type Change struct {
	Version int       `json:"version"`
	At      time.Time `json:"at"`
	Note    string    `json:"note"`
	Step    string    `json:"step,omitempty"` // the step a heal changed
	Before  string    `json:"before,omitempty"`
	After   string    `json:"after,omitempty"`
}
