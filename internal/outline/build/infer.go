package build

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/waymark-dev/waymark/internal/outline"
)

// This file infers a name for an element with a ref that the page leaves
// unnamed: what a person reads beside it. The result goes to Node.Inferred,
// never to Name, so that a reader, a model and the locators can tell it from
// the page's own name.

// maxInferred bounds an inferred name: a longer text beside a field is a
// paragraph, not its label.
const maxInferred = 60

// climbLimit is how many ancestors nearText climbs to find the text before a
// field (a cell, a wrapper, the block under a heading).
const climbLimit = 4

// fieldRoles are the roles that take a typed or chosen value: their label is
// the text before them, on their line or above.
var fieldRoles = setOf("textbox", "searchbox", "combobox", "spinbutton", "slider", "listbox")

// stopClimb are the containers whose text before them belongs to more than
// one field.
var stopClimb = setOf("FORM", "BODY", "HTML", "FIELDSET", "DIALOG", "TABLE", "UL", "OL", "MAIN", "NAV", "HEADER", "FOOTER")

// inferName returns what a person would call element i (built as n), which
// has a ref and no name: for a field the text before it (on its line, in
// the cell before, or a heading above a lone field); for a checkbox or
// radio the text after it, then before; then its placeholder, its title,
// and, for what is not a field, the <title> of an SVG in it and a
// well-known icon class.
func (b *builder) inferName(x *doc, i int32, n *outline.Node) string {
	switch {
	case fieldRoles[n.Role] || n.Type != "":
		if s := b.nearText(x, i, n.Box, false); s != "" {
			return s
		}
	case checkable[n.Role]:
		if s := b.nearText(x, i, n.Box, true); s != "" {
			return s
		}
		if s := b.nearText(x, i, n.Box, false); s != "" {
			return s
		}
	}
	for _, a := range []string{"placeholder", "title"} {
		if v, ok := x.attr(i, a); ok {
			if s := clean(v); s != "" {
				return s
			}
		}
	}
	if fieldRoles[n.Role] {
		return "" // an icon's class says what a button does, not what a field holds
	}
	if s := b.svgTitle(x, i, 0); s != "" {
		return s
	}
	return iconName(x, i, 0)
}

// nearText returns the text just before element i (or just after, with
// after): the nearest sibling with text, climbing to the ancestors while
// they hold no other control. The text must stand where a label stands: on
// the field's line, to its left (right, with after), or just above it.
func (b *builder) nearText(x *doc, i int32, box outline.Rect, after bool) string {
	if box.Empty() {
		return ""
	}
	p := i
	for range climbLimit {
		for s := sibling(x, p, after); s >= 0; s = sibling(x, s, after) {
			var txt string
			var tb outline.Rect
			switch x.nodeType(s) {
			case textNode:
				if x.layout[s] < 0 || x.style(s, styleVisibility) != "visible" {
					continue
				}
				txt = clean(x.layoutText(s))
				tb, _ = x.box(s)
			case elementNode:
				if x.layout[s] < 0 || skipTags[x.name(s)] {
					continue
				}
				if v, _ := x.attr(s, "aria-hidden"); v == "true" {
					continue
				}
				tb, _ = x.box(s)
				if !beside(tb, box, after) {
					return ""
				}
				if hasControl(x, s, -1) {
					return "" // the text before another control is its label
				}
				txt = clean(b.contentText(x, s, false))
			default:
				continue
			}
			if txt == "" {
				continue
			}
			if !beside(tb, box, after) {
				return ""
			}
			return txt
		}
		parent := x.d.Nodes.ParentIndex[p]
		if parent < 0 || x.nodeType(int32(parent)) != elementNode || stopClimb[x.name(int32(parent))] {
			return ""
		}
		if hasControl(x, int32(parent), i) {
			return ""
		}
		p = int32(parent)
	}
	return ""
}

// sibling returns the sibling before node i (after it, with after), -1 for
// none.
func sibling(x *doc, i int32, after bool) int32 {
	if after {
		return x.next[i]
	}
	p := x.d.Nodes.ParentIndex[i]
	if p < 0 {
		return -1
	}
	prev := int32(-1)
	for c := x.first[p]; c >= 0 && c != i; c = x.next[c] {
		prev = c
	}
	return prev
}

// beside reports whether text box t stands where the label of a field with
// box f stands: on its line and before it (after it, with after), or above
// it and close.
func beside(t, f outline.Rect, after bool) bool {
	if t.Empty() {
		return false
	}
	const slack = 4
	sameLine := t.Y < f.Y+f.H && f.Y < t.Y+t.H
	if after {
		return sameLine && t.X >= f.X+f.W-slack && t.X-(f.X+f.W) < 300
	}
	if sameLine && t.X+t.W <= f.X+slack {
		return f.X-(t.X+t.W) < 400
	}
	above := t.Y+t.H <= f.Y+slack && f.Y-(t.Y+t.H) < 60
	overlapX := t.X < f.X+f.W && f.X < t.X+t.W
	return above && overlapX
}

// maxScan bounds the nodes hasControl visits: a sibling that large is not a
// label anyway.
const maxScan = 500

// hasControl reports whether element i is or holds a form control, a button
// or a link other than self.
func hasControl(x *doc, i, self int32) bool {
	seen := 0
	var walk func(c int32) bool
	walk = func(c int32) bool {
		if seen++; seen > maxScan {
			return true
		}
		if c != self && x.nodeType(c) == elementNode {
			switch x.name(c) {
			case "INPUT":
				if typ, _ := x.attr(c, "type"); !strings.EqualFold(typ, "hidden") {
					return true
				}
			case "SELECT", "TEXTAREA", "BUTTON":
				return true
			case "A":
				// A link's text is its own name, not a field's label.
				if _, ok := x.attr(c, "href"); ok {
					return true
				}
			}
		}
		for k := x.first[c]; k >= 0; k = x.next[k] {
			if walk(k) {
				return true
			}
		}
		return false
	}
	return walk(i)
}

// clean makes a label of text beside a field: collapsed, without the colon
// or required-star after it; "" when it says nothing or is too long for a
// label.
func clean(s string) string {
	s = strings.TrimRightFunc(collapse(s), func(r rune) bool {
		return r == ':' || r == '*' || r == '：' || unicode.IsSpace(r)
	})
	if utf8.RuneCountInString(s) > maxInferred || !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return ""
	}
	return s
}

// maxIconDepth is how deep into an element svgTitle and iconName look.
const maxIconDepth = 3

// svgTitle returns the <title> of an <svg> in element i, even one hidden
// from assistive technology: it still says what the icon shows.
func (b *builder) svgTitle(x *doc, i int32, depth int) string {
	if depth > maxIconDepth {
		return ""
	}
	for c := x.first[i]; c >= 0; c = x.next[c] {
		if x.nodeType(c) != elementNode {
			continue
		}
		if x.name(c) == "svg" {
			for k := x.first[c]; k >= 0; k = x.next[k] {
				if x.name(k) == "title" {
					if s := clean(b.contentText(x, k, true)); s != "" {
						return s
					}
				}
			}
		}
		if s := b.svgTitle(x, c, depth+1); s != "" {
			return s
		}
	}
	return ""
}

// iconWords maps the words of well-known icon classes (and sprite ids) to
// the name a person gives the icon.
var iconWords = map[string]string{
	"close": "close", "x": "close", "times": "close", "xmark": "close", "dismiss": "close", "cross": "close",
	"search": "search", "magnifier": "search", "magnifying": "search",
	"star": "star", "favorite": "star", "favourite": "star",
	"trash": "delete", "delete": "delete", "bin": "delete", "garbage": "delete",
	"edit": "edit", "pencil": "edit",
	"menu": "menu", "hamburger": "menu", "burger": "menu", "bars": "menu",
	"cart": "cart", "basket": "cart",
	"share": "share",
	"prev":  "previous", "previous": "previous", "next": "next",
}

// iconRank orders the names when a class holds several: what the control
// does comes before what it is about ("search-close" closes the search).
var iconRank = map[string]int{
	"close": 1, "delete": 2, "edit": 3, "previous": 4, "next": 4, "share": 5, "search": 6, "star": 7, "cart": 8, "menu": 9,
}

// arrowWords make "left" and "right" in the same class mean previous and
// next (icon-chevron-left).
var arrowWords = setOf("chevron", "arrow", "caret", "angle")

// iconName returns the name of a well-known icon that element i is or holds,
// read from class names (fa-times, icon-close, bi-trash) and the ids of SVG
// sprites (<use href="#icon-star">).
func iconName(x *doc, i int32, depth int) string {
	if depth > maxIconDepth {
		return ""
	}
	if x.nodeType(i) == elementNode {
		attrs := []string{"class"}
		if x.name(i) == "use" {
			attrs = []string{"href", "xlink:href"}
		}
		for _, a := range attrs {
			v, _ := x.attr(i, a)
			if s := iconOf(v); s != "" {
				return s
			}
		}
	}
	for c := x.first[i]; c >= 0; c = x.next[c] {
		if s := iconName(x, c, depth+1); s != "" {
			return s
		}
	}
	return ""
}

// iconOf returns the icon a class list (or sprite id) names, the one that
// ranks first when it names several.
func iconOf(v string) string {
	best := ""
	arrow, left, right := false, false, false
	for w := range strings.FieldsFuncSeq(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch {
		case arrowWords[w]:
			arrow = true
		case w == "left":
			left = true
		case w == "right":
			right = true
		}
		if s, ok := iconWords[w]; ok && (best == "" || iconRank[s] < iconRank[best]) {
			best = s
		}
	}
	if best == "" && arrow && left != right {
		best = "next"
		if left {
			best = "previous"
		}
	}
	return best
}
