package targets

import (
	"fmt"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// maxRowKey bounds a row's key: a first cell or a heading, not a
// paragraph.
const maxRowKey = 80

// RowOf returns the identity of the repeated structure n sits in, when
// controls like n (its role and name) repeat on the page: the nearest
// ancestor whose parent holds two or more siblings of its role and tag
// that each hold such a control (a table row, a list item, a card), or,
// where the page lays its cards flat, the heading each control sits under.
// nil when n's kind and name are unique on the page, or nothing tells the
// repeats apart.
func RowOf(root, n *outline.Node) *calls.Row {
	same := alikeControls(root, n)
	if len(same) < 2 {
		return nil
	}
	path := PathTo(root, n)
	for i := len(path) - 2; i > 0; i-- {
		p, parent := path[i], path[i-1]
		if p.Role == "iframe" {
			break // rows do not span frames
		}
		index, rows := -1, 0
		for _, sib := range parent.Children {
			if sib.Role != p.Role || sib.Tag != p.Tag || !holdsAny(sib, same) {
				continue
			}
			if sib == p {
				index = rows
			}
			rows++
		}
		if rows < 2 {
			continue
		}
		key := rowKey(p, n)
		if key == "" {
			return nil
		}
		return &calls.Row{Key: key, Index: index, Place: placeIn(p, n), Role: p.Role, Tag: p.Tag}
	}
	// Flat cards: each control under its own heading.
	key := headingBefore(root, n)
	if key == "" {
		return nil
	}
	index := -1
	for i, m := range same {
		if m == n {
			index = i
		} else if headingBefore(root, m) == key {
			return nil // two under one heading: the heading is not a key
		}
	}
	return &calls.Row{Key: clip(key, maxRowKey), Index: index}
}

// alikeControls are the elements of the tree of n's role and name, n
// among them, in document order.
func alikeControls(root, n *outline.Node) []*outline.Node {
	var out []*outline.Node
	name := norm(n.Name)
	root.Walk(func(x *outline.Node, _ int) bool {
		if element(x) && x.Role == n.Role && norm(x.Name) == name {
			out = append(out, x)
		}
		return true
	})
	return out
}

func holdsAny(p *outline.Node, ns []*outline.Node) bool {
	found := false
	p.Walk(func(x *outline.Node, _ int) bool {
		for _, n := range ns {
			found = found || x == n
		}
		return !found
	})
	return found
}

// rowKey is what names a row, as a person reads it: the first cell,
// heading, text or link of the row that is neither the control nor holds
// it, and is not named like it.
func rowKey(row, n *outline.Node) string {
	holders := map[*outline.Node]bool{}
	for _, p := range PathTo(row, n) {
		holders[p] = true
	}
	own := norm(n.Name)
	key := ""
	row.Walk(func(x *outline.Node, _ int) bool {
		if key != "" || x == n {
			return false
		}
		if holders[x] {
			return true
		}
		if name := norm(x.Name); name != "" && name != own {
			key = clip(name, maxRowKey)
			return false
		}
		return true
	})
	if key == "" && row.Name != "" && norm(row.Name) != own {
		key = clip(norm(row.Name), maxRowKey)
	}
	return key
}

// placeIn is n's position among the elements of its role in the row.
func placeIn(row, n *outline.Node) int {
	place, done := 0, false
	row.Walk(func(x *outline.Node, _ int) bool {
		if done || x == n {
			done = true
			return false
		}
		if element(x) && x.Role == n.Role {
			place++
		}
		return true
	})
	return place
}

// keyOf is the key of the row that holds n, for a row of the recorded
// shape: the nearest ancestor of the row's role and tag, or for flat cards
// the heading n sits under. The second result is the row ("" key: none).
func keyOf(root, n *outline.Node, shape *calls.Row) (string, *outline.Node) {
	if shape.Role == "" && shape.Tag == "" {
		return headingBefore(root, n), nil
	}
	path := PathTo(root, n)
	for i := len(path) - 2; i > 0; i-- {
		if p := path[i]; p.Role == shape.Role && p.Tag == shape.Tag {
			return rowKey(p, n), p
		}
	}
	return "", nil
}

// byRow finds a control recorded in a row: the row by its key first,
// then the control in it. A row that is gone is missing: the next row's
// control is never taken. ok is false when the fingerprint has no row.
func byRow(root *outline.Node, fp calls.Fingerprint) (Result, bool) {
	if fp.Row == nil || fp.Row.Key == "" {
		return Result{}, false
	}
	type inRow struct {
		n     *outline.Node
		row   *outline.Node // nil: a card laid flat under its heading
		place int
	}
	var there []inRow
	root.Walk(func(x *outline.Node, _ int) bool {
		if !element(x) || x.Role != fp.Role {
			return true
		}
		key, row := keyOf(root, x, fp.Row)
		if key != fp.Row.Key {
			return true
		}
		place := fp.Row.Place
		if row != nil {
			place = placeIn(row, x)
		}
		there = append(there, inRow{x, row, place})
		return true
	})
	if len(there) == 0 {
		return Result{Status: calls.Missing, Reason: fmt.Sprintf("the row %q is not on the page", fp.Row.Key)}, true
	}
	var fits []scored
	var atPlace *scored
	// oneRow: every control that fits is in one and the same row. Two
	// rows with the key (a row or a card duplicated), or two fits under
	// one heading of flat cards, are equal candidates: no place in the
	// row picks between them.
	oneRow := true
	var fitRow *outline.Node
	for _, r := range there {
		c := Compare(fp, Fingerprint(root, r.n))
		if c.Conflict == "" {
			if len(fits) > 0 && (r.row == nil || r.row != fitRow) {
				oneRow = false
			}
			fits = append(fits, scored{r.n, c})
			fitRow = r.row
		}
		if r.place == fp.Row.Place && atPlace == nil {
			atPlace = &scored{r.n, c}
		}
	}
	switch {
	case len(fits) == 1:
		return Result{Status: calls.Found, Node: fits[0].n, Comparison: fits[0].c, Reason: fmt.Sprintf("found in the row %q", fp.Row.Key)}, true
	case len(fits) > 1:
		if atPlace != nil && atPlace.c.Conflict == "" && oneRow {
			return Result{Status: calls.Found, Node: atPlace.n, Comparison: atPlace.c, Reason: fmt.Sprintf("found at its place in the row %q", fp.Row.Key)}, true
		}
		var others []*outline.Node
		for _, f := range fits[1:] {
			others = append(others, f.n)
		}
		return Result{Status: calls.Ambiguous, Node: fits[0].n, Comparison: fits[0].c, Others: others,
			Reason: fmt.Sprintf("%d elements fit in the row %q", len(fits), fp.Row.Key)}, true
	case atPlace != nil:
		return Result{Status: calls.Replaced, Node: atPlace.n, Comparison: atPlace.c,
			Reason: fmt.Sprintf("a different control stands in its place in the row %q: %s", fp.Row.Key, atPlace.c.Conflict)}, true
	}
	return Result{Status: calls.Missing, Reason: fmt.Sprintf("the row %q has no control like it", fp.Row.Key)}, true
}
