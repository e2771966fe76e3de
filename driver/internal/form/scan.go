package form

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/elem"
	"github.com/waymark-dev/waymark/secret"
)

// Forms as ledgers (issue 17). A read runs one script per frame, in
// waymark's isolated world (js/form.js), that lists the frame's fields as
// a person sees them — custom widgets and open shadow roots included —
// and hands back their nodes, which become refs. The core reads every
// frame (out-of-process ones through their own targets); a frame that
// cannot be read is named in the result's errors, never taken as empty.

//go:embed js/form.js
var jsForm string

// frameReadTimeout bounds the read of one frame: a frame whose page is
// busy (a script that does not end) is named in the errors, and the rest
// is read.
const frameReadTimeout = 2 * time.Second

// field is one field of a read: what the caller sees and what a fill
// needs to act on it.
type field struct {
	calls.FormField
	el     elem.Element   // the field (for a radio group, its first option)
	input  elem.Element   // a drop zone's file input, if it has one
	opts   []elem.Element // a radio group's options, in the order of Options
	secret bool           // its value is never shown
	typ    string
	// readonly says it takes no typing: a date is picked on its calendar.
	readonly bool
	section  string // slug of the repeated section's title, for adders
	name     string // its name attribute, which a published definition names it by
}

// adder is a button that adds a copy of a repeated section.
type adder struct {
	section string // the section's key prefix: "experience"
	words   string // what it says: "Add another vessel"
	submits bool   // it would send its form: never pressed
	hidden  bool   // the page hid it: it allows no more copies
	el      elem.Element
}

// Scan is one read of the tab's forms.
type Scan struct {
	url, title string
	shown      string // url as outputs show it (the core's rule)
	fields     []*field
	adders     []adder
	errors     []calls.FrameError
}

// scanRow is a field as js/form.js reports it.
type scanRow struct {
	Key          string            `json:"key"`
	Label        string            `json:"label"`
	Kind         string            `json:"kind"`
	Node         int               `json:"node"`
	Input        int               `json:"input"`
	OptNodes     []int             `json:"opt_nodes"`
	Options      []string          `json:"options"`
	Required     bool              `json:"required"`
	Value        string            `json:"value"`
	Format       string            `json:"format"`
	Error        string            `json:"error"`
	Section      string            `json:"section"`
	Disabled     bool              `json:"disabled"`
	Marked       bool              `json:"marked"`
	Words        string            `json:"words"`
	Type         string            `json:"type"`
	Autocomplete string            `json:"autocomplete"`
	Readonly     bool              `json:"readonly"`
	Tag          string            `json:"tag"`
	Attrs        map[string]string `json:"attrs"`
}

// scanHead is what js/form.js returns of a frame, beside its nodes.
type scanHead struct {
	URL    string    `json:"url"`
	Title  string    `json:"title"`
	Fields []scanRow `json:"fields"`
	Adders []struct {
		Section string `json:"section"`
		Node    int    `json:"node"`
		Words   string `json:"words"`
		Submits bool   `json:"submits"`
		Hidden  bool   `json:"hidden"`
	} `json:"adders"`
}

// Read reads the fields of every frame of the tab.
func Read(ctx context.Context, v View) (*Scan, error) {
	names, _ := json.Marshal(v.IdentityAttrs())
	reads, errs := v.ReadFrames(ctx, jsForm+".scan("+string(names)+")", frameReadTimeout)
	sc := &Scan{errors: errs}
	seen := map[string]int{}
	for i, r := range reads {
		var fields []*field
		var adders []adder
		var url, title string
		err := r.Err
		if err == nil {
			fields, adders, url, title, err = frameFields(v, r)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			where := r.URL
			if where == "" {
				where = r.Frame
			}
			if i == 0 {
				return nil, err // the page itself: nothing to read
			}
			sc.errors = append(sc.errors, calls.FrameError{Frame: where, Error: err.Error()})
			continue
		}
		if i == 0 {
			sc.url, sc.title, sc.shown = url, title, v.ShownURL(url)
		}
		for _, f := range fields {
			if i > 0 {
				f.Frame = url
			}
			// Keys are unique across frames too: a second "email" is "email_2".
			if n := seen[f.Key]; n > 0 {
				seen[f.Key] = n + 1
				f.Key = fmt.Sprintf("%s_%d", f.Key, n+1)
			} else {
				seen[f.Key] = 1
			}
			sc.fields = append(sc.fields, f)
		}
		sc.adders = append(sc.adders, adders...)
	}
	maskFields(v, sc.fields)
	return sc, nil
}

// frameFields turns one frame's rows into fields with refs.
func frameFields(v View, r elem.FrameRead) ([]*field, []adder, string, string, error) {
	var head scanHead
	if err := json.Unmarshal([]byte(r.JSON), &head); err != nil {
		return nil, nil, "", "", fmt.Errorf("the frame's read: %w", err)
	}
	elOf := func(i int, what string) (elem.Element, bool) {
		if i < 0 || i >= len(r.Nodes) || r.Nodes[i] == nil {
			return nil, false
		}
		return r.Nodes[i].Named(what), true
	}
	var fields []*field
	for _, row := range head.Fields {
		el, ok := elOf(row.Node, row.Key)
		if !ok {
			continue // it went away while read
		}
		ff := &field{typ: row.Type, readonly: row.Readonly, name: row.Attrs["name"]}
		ff.FormField = calls.FormField{
			Key: row.Key, Label: row.Label, Kind: row.Kind, Format: row.Format, Required: row.Required, Value: row.Value,
			Options: row.Options, Error: row.Error, Section: row.Section, Disabled: row.Disabled,
		}
		// A ref first shown here is known by its tag and identity
		// attributes, so that acting on it later refuses a node the page
		// reused for another control (invariant 4).
		ff.Ref, ff.el = v.Ref(el, row.Kind, row.Label, row.Tag, row.Attrs)
		if in, ok := elOf(row.Input, row.Key); ok {
			ff.input = in
		}
		for _, o := range row.OptNodes {
			if oe, ok := elOf(o, row.Key); ok {
				ff.opts = append(ff.opts, oe)
			}
		}
		if i := strings.Index(row.Key, "["); i > 0 {
			ff.section = row.Key[:i]
		}
		// Its value is never shown: a secret, or a card's details (the
		// name on it, its expiry); nothing else is masked.
		sf := secret.Field{Words: row.Words, Type: row.Type, Autocomplete: row.Autocomplete}
		ff.secret = row.Marked || sf.Secret() || sf.CardDetail()
		fields = append(fields, ff)
	}
	var adders []adder
	for _, a := range head.Adders {
		if el, ok := elOf(a.Node, a.Section); ok {
			adders = append(adders, adder{section: a.Section, words: a.Words, submits: a.Submits, hidden: a.Hidden, el: el})
		}
	}
	return fields, adders, head.URL, head.Title, nil
}

// maskFields hides the values no output may show: secrets (by the field's
// words, or marked when a secret was typed) and card numbers anywhere.
func maskFields(v View, fields []*field) {
	for _, f := range fields {
		if v.Marked(f.el) || f.input != nil && v.Marked(f.input) {
			f.secret = true
		}
	}
	for _, f := range fields {
		f.Value = shownValue(f, f.Value)
		f.Error = secret.Redact(f.Error)
	}
}

// shownValue is a field's value as outputs show it.
func shownValue(f *field, v string) string {
	if v == "" {
		return ""
	}
	if f.secret {
		return secret.Masked
	}
	return secret.Redact(v)
}

// Form is the scan as the caller sees it.
func (sc *Scan) Form() *calls.Form {
	out := &calls.Form{URL: sc.shown, Title: sc.title, Fields: make([]calls.FormField, 0, len(sc.fields)), Errors: sc.errors}
	for _, f := range sc.fields {
		out.Fields = append(out.Fields, f.FormField)
	}
	return out
}

// ATSFields are the scan's fields as a published definition names them,
// and the URLs that name the job: the page's, then each frame's that
// holds a field (boards.greenhouse.io/embed/job_app?for=…&token=…).
func (sc *Scan) ATSFields() ([]Field, []string) {
	where := []string{sc.url}
	fields := make([]Field, len(sc.fields))
	for i, f := range sc.fields {
		fields[i] = Field{Name: f.name, Label: f.Label, Key: f.Key}
		if f.Frame != "" && !contains(where, f.Frame) {
			where = append(where, f.Frame)
		}
	}
	return fields, where
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
