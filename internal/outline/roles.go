package outline

// This file holds the role tables Render reads; the builder's tables are in
// package build.

// structural are the roles of containers that Compact may flatten when they
// have no name and one child, and that Interactive drops as ancestors.
var structural = setOf("generic", "group", "list", "listitem", "rowgroup", "paragraph", "none")

// landmarkish are the containers that Interactive keeps as ancestors of refs,
// for orientation.
var landmarkish = setOf(
	"navigation", "main", "banner", "contentinfo", "complementary", "region",
	"form", "search", "dialog", "alertdialog", "iframe", "menu", "menubar",
	"tablist", "toolbar", "tree", "grid", "table", "listbox", "radiogroup",
)

// live are the regions where a page answers what was done (role status or
// alert: "Added 2 × Trail Mug to your cart.", "Wrong password"), which
// Interactive keeps with their words: a look after an action must carry
// the page's answer, not only its controls.
var live = setOf("status", "alert")

func setOf(s ...string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, v := range s {
		m[v] = true
	}
	return m
}
