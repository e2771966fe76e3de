package build

import (
	"strconv"
	"strings"
)

// explicitRole returns the first token of the role attribute that is a
// known role, normalised ("image" → "img", "presentation" → "none"), or "".
func (b *builder) explicitRole(x *doc, i int32) string {
	v, ok := x.attr(i, "role")
	if !ok {
		return ""
	}
	for tok := range strings.FieldsSeq(v) {
		tok = strings.ToLower(tok)
		if !ariaRoles[tok] {
			continue
		}
		switch tok {
		case "image":
			return "img"
		case "presentation":
			return "none"
		}
		return tok
	}
	return ""
}

// role returns the role of element i: the explicit role if any, else its
// implicit role (HTML-AAM).
func (b *builder) role(x *doc, i int32, tag string, st state) string {
	if r := b.explicitRole(x, i); r != "" {
		if r == "none" && focusable(x, i) {
			// Presentational role conflict: a focusable element keeps its role.
		} else {
			return r
		}
	}
	switch tag {
	case "A":
		if _, ok := x.attr(i, "href"); ok {
			return "link"
		}
	case "INPUT":
		typ, _ := x.attr(i, "type")
		typ = strings.ToLower(strings.TrimSpace(typ))
		if _, ok := x.attr(i, "list"); ok && (typ == "" || typ == "text" || typ == "search" || typ == "email" || typ == "tel" || typ == "url") {
			return "combobox"
		}
		if r, ok := inputRoles[typ]; ok {
			return r
		}
		return "textbox"
	case "SELECT":
		_, multi := x.attr(i, "multiple")
		size, _ := x.attr(i, "size")
		if n, err := strconv.Atoi(strings.TrimSpace(size)); multi || err == nil && n > 1 {
			return "listbox"
		}
		return "combobox"
	case "IMG":
		if alt, ok := x.attr(i, "alt"); ok && alt == "" && !hasName(x, i) {
			if _, titled := x.attr(i, "title"); !titled {
				return "none"
			}
		}
		return "img"
	case "HEADER":
		if st.section {
			return "generic"
		}
		return "banner"
	case "FOOTER":
		if st.section {
			return "generic"
		}
		return "contentinfo"
	case "SECTION":
		if hasName(x, i) {
			return "region"
		}
		if _, ok := x.attr(i, "title"); ok {
			return "region"
		}
	case "FORM":
		return "form"
	case "TD":
		return "cell"
	case "TH":
		if s, _ := x.attr(i, "scope"); strings.EqualFold(s, "row") || strings.EqualFold(s, "rowgroup") {
			return "rowheader"
		}
		return "columnheader"
	}
	if ce, ok := x.attr(i, "contenteditable"); ok && ce != "false" && !st.editable {
		return "textbox"
	}
	if r, ok := tagRoles[tag]; ok {
		return r
	}
	return "generic"
}

// focusable reports whether element i is in the tab order or natively
// focusable.
func focusable(x *doc, i int32) bool {
	if v, ok := x.attr(i, "tabindex"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		return err == nil && n >= 0
	}
	switch x.name(i) {
	case "BUTTON", "INPUT", "SELECT", "TEXTAREA":
		return true
	case "A":
		_, ok := x.attr(i, "href")
		return ok
	}
	return false
}
