package calls

// Calls of the targets package: the evidence that an element is the one
// meant, and finding a recorded element again on the page now.

const (
	MethodLocate = "locate"
	MethodFind   = "find"
)

// Locator kinds, in the order they are preferred.
const (
	KindRole        = "role"
	KindText        = "text"
	KindLabel       = "label"
	KindPlaceholder = "placeholder"
	KindTestID      = "testid"
	KindCSS         = "css"
)

// LocateRequest asks for the evidence of one element: a ref or a locator.
type LocateRequest struct {
	Target string `json:"target"`
}

// Candidate is one locator that reaches the element, with how many
// elements it matches on the page now.
type Candidate struct {
	Kind    string `json:"kind"`
	Value   string `json:"value"` // the whole locator, as `waymark click` takes it
	Matches int    `json:"matches"`
}

// Evidence is why a locator names the element: every candidate with its
// match count, the one chosen (the first, in order of preference, that
// matches exactly one element), the frame chain, and the fingerprint.
type Evidence struct {
	Ref         string      `json:"ref,omitempty"`
	Chosen      string      `json:"chosen"` // empty when no locator is unique
	Candidates  []Candidate `json:"candidates"`
	Frame       []string    `json:"frame,omitempty"` // from the top: locators of the iframes and shadow hosts it sits in
	Fingerprint Fingerprint `json:"fingerprint"`
}

// Fingerprint is what an element was, so that it can be found again on a
// changed page.
type Fingerprint struct {
	Tag         string   `json:"tag"`
	Role        string   `json:"role"`
	Name        string   `json:"name,omitempty"`
	Inferred    string   `json:"inferred,omitempty"` // evidence only: the text a person reads beside an unnamed element
	TestID      string   `json:"testid,omitempty"`
	Label       string   `json:"label,omitempty"`
	Placeholder string   `json:"placeholder,omitempty"`
	Type        string   `json:"type,omitempty"`
	Text        string   `json:"text,omitempty"`
	ID          string   `json:"id,omitempty"`
	Ancestors   []string `json:"ancestors,omitempty"` // nearest last: landmarks, headings, form, list, row it sits in
	Index       int      `json:"index"`               // position among siblings of the same role
	Frame       string   `json:"frame,omitempty"`     // the frame's URL without query, or "" for the top
	// Row is the repeated structure (table row, list item, card) the
	// element sits in, when controls like it repeat; nil otherwise.
	Row *Row `json:"row,omitempty"`
}

// Row is the identity of a row of a repeated structure, so that a replay
// finds the same row (by its key) before the control in it, and a row
// that is gone is missing, never the next row's control.
type Row struct {
	Key   string `json:"key"`            // the row's key text: its first cell, heading or name (normalised)
	Index int    `json:"index"`          // 0-based position among its rows when recorded
	Place int    `json:"place"`          // the control's place among the row's elements of its role
	Role  string `json:"role,omitempty"` // the row's role and tag; empty when the rows are flat on the
	Tag   string `json:"tag,omitempty"`  // page and each is the stretch under a heading (cards)
}

// Resolution statuses.
const (
	Found     = "found"     // the locator matched one element and the fingerprint agrees
	Moved     = "moved"     // found by the fingerprint; Locator is its new locator
	Ambiguous = "ambiguous" // several elements are equally good: nothing may be pressed
	Replaced  = "replaced"  // a different control stands in its place: nothing may be pressed
	Missing   = "missing"   // nothing like it is on the page
)

// FindRequest finds a recorded element on the page now.
type FindRequest struct {
	Locator     string      `json:"locator"`
	Fingerprint Fingerprint `json:"fingerprint"`
	// Positional takes the element at the same place in the same kind of
	// row (for loops over a list's rows): Row is the 0-based row.
	Positional bool `json:"positional,omitempty"`
	Row        int  `json:"row,omitempty"`
}

// Resolution is where a recorded element is now.
type Resolution struct {
	Status     string   `json:"status"`
	Ref        string   `json:"ref,omitempty"`     // found, moved: the element's ref now
	Locator    string   `json:"locator,omitempty"` // moved: its new locator
	Score      float64  `json:"score,omitempty"`   // similarity to the fingerprint, 0–1
	Matched    []string `json:"matched,omitempty"` // what agreed (role, name, testid, …)
	Differs    []string `json:"differs,omitempty"` // what disagreed
	Candidates []string `json:"candidates,omitempty"`
	Reason     string   `json:"reason,omitempty"` // for people: why this status
}
