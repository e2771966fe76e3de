package build

// This file holds the role tables: which roles exist, which take their name
// from their content, which get a ref, and the implicit roles of HTML
// elements that need no context (the others are in implicitRole).

// ariaRoles are the roles an explicit role attribute may name (WAI-ARIA 1.2,
// without the abstract roles). The first token of the attribute that is in
// this set wins.
var ariaRoles = setOf(
	"alert", "alertdialog", "application", "article", "banner", "blockquote",
	"button", "caption", "cell", "checkbox", "code", "columnheader", "combobox",
	"complementary", "contentinfo", "definition", "deletion", "dialog",
	"directory", "document", "emphasis", "feed", "figure", "form", "generic",
	"grid", "gridcell", "group", "heading", "img", "image", "insertion", "link",
	"list", "listbox", "listitem", "log", "main", "mark", "marquee", "math",
	"menu", "menubar", "menuitem", "menuitemcheckbox", "menuitemradio", "meter",
	"navigation", "none", "note", "option", "paragraph", "presentation",
	"progressbar", "radio", "radiogroup", "region", "row", "rowgroup",
	"rowheader", "scrollbar", "search", "searchbox", "separator", "slider",
	"spinbutton", "status", "strong", "subscript", "superscript", "switch",
	"tab", "table", "tablist", "tabpanel", "term", "textbox", "time", "timer",
	"toolbar", "tooltip", "tree", "treegrid", "treeitem",
)

// nameFromContent are the roles whose name comes from their content when
// nothing else names them (accname 1.2, "name from: contents").
var nameFromContent = setOf(
	"button", "cell", "checkbox", "columnheader", "gridcell", "heading", "link",
	"menuitem", "menuitemcheckbox", "menuitemradio", "option", "radio",
	"rowheader", "switch", "tab", "tooltip", "treeitem",
)

// actionable are the roles that get a ref: what an agent can click, type
// into or choose.
var actionable = setOf(
	"link", "button", "textbox", "searchbox", "combobox", "listbox", "option",
	"checkbox", "radio", "switch", "slider", "spinbutton", "tab", "menuitem",
	"menuitemcheckbox", "menuitemradio", "treeitem", "iframe",
)

// checkable are the roles that carry a checked state.
var checkable = setOf("checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio")

// leafish are the roles whose children Outline drops when none of them has a
// ref: their name already says what their content says.
var leafish = setOf(
	"button", "link", "heading", "tab", "menuitem", "menuitemcheckbox",
	"menuitemradio", "option", "checkbox", "radio", "switch", "treeitem", "img",
	"textbox", "searchbox", "combobox", "slider", "spinbutton", "progressbar", "meter",
)

// tagRoles are the implicit roles of elements whose role does not depend on
// attributes or ancestors.
var tagRoles = map[string]string{
	"ADDRESS": "group", "ARTICLE": "article", "ASIDE": "complementary",
	"BLOCKQUOTE": "blockquote", "BUTTON": "button", "CAPTION": "caption",
	"CODE": "generic", "DATALIST": "listbox", "DD": "definition",
	"DEL": "generic", "DETAILS": "group", "DFN": "term", "DIALOG": "dialog",
	"DL": "list", "DT": "term", "EM": "generic", "FIELDSET": "group",
	"FIGURE": "figure", "H1": "heading", "H2": "heading", "H3": "heading",
	"H4": "heading", "H5": "heading", "H6": "heading", "HR": "separator",
	"IFRAME": "iframe", "INS": "generic", "LI": "listitem", "MAIN": "main",
	"MATH": "math", "MENU": "list", "METER": "meter", "NAV": "navigation",
	"OL": "list", "OPTGROUP": "group", "OPTION": "option", "OUTPUT": "status",
	"P": "paragraph", "PROGRESS": "progressbar", "SEARCH": "search",
	"STRONG": "generic", "SUMMARY": "button", "TABLE": "table", "TBODY": "rowgroup",
	"TEXTAREA": "textbox", "TFOOT": "rowgroup", "THEAD": "rowgroup",
	"TR": "row", "UL": "list", "FRAME": "iframe",
}

// inputRoles are the roles of <input> by type; an unknown type is text.
var inputRoles = map[string]string{
	"button": "button", "checkbox": "checkbox", "color": "button",
	"email": "textbox", "file": "button", "image": "button",
	"number": "spinbutton", "password": "textbox", "radio": "radio",
	"range": "slider", "reset": "button", "search": "searchbox",
	"submit": "button", "tel": "textbox", "text": "textbox", "url": "textbox",
	"date": "textbox", "datetime-local": "textbox", "month": "textbox",
	"time": "textbox", "week": "textbox",
}

// typedInputs are the <input> types whose value has a form of its own: the
// outline says the type ([type=date]) so that a reader knows what to write.
// number and range are not among them: their roles (spinbutton, slider)
// already say it.
var typedInputs = setOf("date", "time", "datetime-local", "month", "week", "color", "file")

// skipTags are never rendered, and neither is their content.
var skipTags = setOf(
	"HEAD", "SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "TITLE", "META", "LINK",
	"BASE", "AREA", "MAP", "PARAM", "SOURCE", "TRACK",
)

// sectioning are the ancestors that make <header> and <footer> generic.
var sectioning = setOf("ARTICLE", "ASIDE", "MAIN", "NAV", "SECTION")

// keptAttrs are the attributes Node.Attrs carries.
var keptAttrs = setOf(
	"id", "name", "type", "placeholder", "href", "data-testid", "data-test",
	"data-test-id", "data-qa", "data-cy", "title", "alt", "class", "src",
	"aria-label",
)

func setOf(s ...string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, v := range s {
		m[v] = true
	}
	return m
}
