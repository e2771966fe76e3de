package recipe

import (
	"context"
	_ "embed"
	"fmt"
)

//go:embed place.js
var placeJS string

// Control names a control a person pressed, as its evidence does: its
// tag, name and text, and the key of the row it is in (calls.Row.Key:
// the row's first cell, heading or name), which tells apart the rows that
// each hold a control like it.
type Control struct {
	Tag  string `json:"tag"`
	Name string `json:"name,omitempty"`
	Text string `json:"text,omitempty"`
	Key  string `json:"key,omitempty"`
}

// Placed is where a control sits in a list read by a recipe.
type Placed struct {
	// Row is the row it is in, from 0; -1 when it is in none.
	Row int
	// Place is its path of tags from its row ("td:nth-of-type(3) >
	// button:nth-of-type(2)"; ":scope" is the row itself): the same place
	// in another row is the same control of that row.
	Place string
	// Several is true when more than one element of the row fits c; Place
	// is then the first.
	Several bool
	// Ambiguous is true when several rows hold a control like c and its
	// key tells none apart (Row is -1).
	Ambiguous bool
}

type placeReply struct {
	Error   string `json:"error"`
	Missing string `json:"missing"`
	Row     *int   `json:"row"`
	Place   string `json:"place"`
	Count   int    `json:"count"`
	Amb     int    `json:"ambiguous"`
	CSS     string `json:"css"`
	Tag     string `json:"tag"`
	Name    string `json:"name"`
}

// PlaceOf finds the row of r's list that holds the control c, and the
// control's place in it; Row is -1 when the list is not on the page or
// no row holds c.
func PlaceOf(ctx context.Context, ev Evaler, r *Recipe, c Control) (*Placed, error) {
	var rep placeReply
	if err := run(ctx, ev, placeJS, map[string]any{"recipe": r, "op": "of", "tag": c.Tag, "name": c.Name, "text": c.Text, "key": c.Key}, &rep); err != nil {
		return nil, fmt.Errorf("find the control in the list's rows: %w", err)
	}
	switch {
	case rep.Error != "":
		return nil, fmt.Errorf("find the control in the list's rows: %s", rep.Error)
	case rep.Amb > 0:
		return &Placed{Row: -1, Ambiguous: true}, nil
	case rep.Missing != "" || rep.Row == nil: // no list on the page, or not in it
		return &Placed{Row: -1}, nil
	}
	return &Placed{Row: *rep.Row, Place: rep.Place, Several: rep.Count > 1}, nil
}

// At is the element at place in row (from 0) of r's list: a CSS selector
// from the document's root that names it alone, with its tag and name.
// Missing says why there is none (fewer rows, nothing at the place, the
// list gone); a control in a row is found by its place only.
type At struct {
	CSS, Tag, Name string
	Missing        string
}

// ControlAt finds the element at place in row of r's list.
func ControlAt(ctx context.Context, ev Evaler, r *Recipe, row int, place string) (*At, error) {
	var rep placeReply
	if err := run(ctx, ev, placeJS, map[string]any{"recipe": r, "op": "at", "row": row, "place": place}, &rep); err != nil {
		return nil, fmt.Errorf("find row %d's control: %w", row+1, err)
	}
	if rep.Error != "" {
		return nil, fmt.Errorf("find row %d's control: %s", row+1, rep.Error)
	}
	return &At{CSS: rep.CSS, Tag: rep.Tag, Name: rep.Name, Missing: rep.Missing}, nil
}
