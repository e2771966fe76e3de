package routine

import (
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// Document steps (issue 19): a document editor read, or text typed into
// it at one place, with no model (calls.DocReadRequest,
// calls.DocInsertRequest).
const (
	// KindDocInsert types Value into the document at the place Doc says.
	KindDocInsert = "doc_insert"
	// KindDocRead reads the document into the replay's data, under Into
	// (or the step's name): {"text": …, "lines": …}.
	KindDocRead = "doc_read"
)

// DocStep is where a document step works: the editor (a locator; empty:
// the focused or largest one) and, for an insert, one place: right after
// words, over a whole line, or at the end.
type DocStep struct {
	Editor  string `json:"editor,omitempty"`
	After   string `json:"after,omitempty"`
	Replace string `json:"replace,omitempty"`
	End     bool   `json:"end,omitempty"`
}

// doc checks a step's document fields.
func (c *checker) doc(s *Step, here string, eachDepth int) error {
	isDoc := s.Kind == KindDocInsert || s.Kind == KindDocRead
	if !isDoc {
		if s.Doc != nil {
			return &LoadError{Where: here + ".doc", Msg: fmt.Sprintf("doc is for doc_insert and doc_read steps; this is a %s step", s.Kind)}
		}
		return nil
	}
	d := s.Doc
	if d == nil {
		d = &DocStep{}
	}
	for _, f := range []struct{ v, name string }{{d.Editor, "editor"}, {d.After, "after"}, {d.Replace, "replace"}} {
		if err := c.text(f.v, here+".doc."+f.name, eachDepth); err != nil {
			return err
		}
	}
	places := 0
	for _, set := range []bool{d.After != "", d.Replace != "", d.End} {
		if set {
			places++
		}
	}
	if s.Kind == KindDocRead {
		if places > 0 || s.Value != nil {
			return &LoadError{Where: here + ".doc", Msg: "a doc_read step reads the whole document: it takes no place and no value",
				Hint: `remove "after", "replace", "end" and "value", or make the step "kind": "doc_insert"`}
		}
		return nil
	}
	switch {
	case places != 1:
		return &LoadError{Where: here + ".doc", Msg: "a doc_insert step types at one place: give exactly one of after, replace or end",
			Hint: `"doc": {"after": "Dear Ann,"}`}
	case s.Value == nil:
		return &LoadError{Where: here + ".value", Msg: "a doc_insert step needs the value it types", Hint: `"value": {"literal": "…"} or {"slot": NAME}`}
	case len([]rune(strings.TrimSpace(d.Replace))) > calls.MaxDocReplace:
		return &LoadError{Where: here + ".doc.replace", Msg: fmt.Sprintf("a replaced line is at most %d characters", calls.MaxDocReplace)}
	}
	return nil
}
