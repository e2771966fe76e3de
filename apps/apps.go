// Package apps knows the web applications the outline cannot show —
// spreadsheets and document editors drawn on a canvas or in a structure
// the accessibility tree does not explain — and how a hand works each:
// where its name box, grid, cells and editor are.
//
// An application is known by its URL (a host glob) and, where the URL
// cannot tell (an open-source editor served anywhere), by the page's
// structure: a marker selector that must match. [Known] is the built-in
// table; a user adds their own with [[apps]] in the configuration
// (internal/config), matched before the built-in ones.
//
// The adapters of Google's and Microsoft's applications are written from
// their documented structure, not checked against the live sites (which a
// test here cannot reach): they are marked [App.Unverified], and the
// outline and `waymark doctor --apps` say so.
package apps

import (
	"fmt"
	"strings"

	"github.com/waymark-dev/waymark/calls"
)

// Kinds of application.
const (
	KindSheet = "sheet"
	KindDoc   = "doc"
	// KindMap is a map drawn on a canvas: searched in its search box,
	// pressed with click-at, panned with a drag by an offset.
	KindMap = "map"
	// KindATS is an applicant tracking system's job application form:
	// its fields are the form ledger's (driver/form*.go); knowing it lets
	// the ledger read the form's published definition (driver/ats.go).
	KindATS = "ats"
)

// App is one application: how it is known and how a hand works it.
type App struct {
	// Name is how the outline names it: "Google Sheets".
	Name string `json:"name" toml:"name"`
	// Kind is KindSheet or KindDoc.
	Kind string `json:"kind" toml:"kind"`
	// Hosts are globs of the page's host ("docs.google.com",
	// "*.sharepoint.com"); empty means any host, known by Marker alone.
	Hosts []string `json:"hosts,omitempty" toml:"hosts"`
	// Paths are globs of the URL's path ("/spreadsheets/*"); empty means
	// any path.
	Paths []string `json:"paths,omitempty" toml:"paths"`
	// Marker is a CSS selector that matches on the application's pages;
	// empty means the URL is enough. An app with no Hosts needs one.
	Marker string `json:"marker,omitempty" toml:"marker"`
	// NameBox is the field where a reference is typed to go to it ("B2",
	// "A1:C20" then Enter); empty when the app has none, and a range is
	// then selected with the pointer on Cell.
	NameBox string `json:"name_box,omitempty" toml:"name_box"`
	// Grid is the element that holds the cells and takes the keys of a
	// selection (Control+A, Control+C).
	Grid string `json:"grid,omitempty" toml:"grid"`
	// Cell is a CSS selector of one cell with {row} and {col}, zero-based
	// ('td[data-x="{col}"][data-y="{row}"]'), for apps without a name
	// box: the first cell is clicked, the last shift-clicked.
	Cell string `json:"cell,omitempty" toml:"cell"`
	// Tab is the open sheet's tab (sheets of several tabs): its text
	// names the sheet in a fill's approval, so an approval given for one
	// tab is not used on another whose cells hold the same values.
	Tab string `json:"tab,omitempty" toml:"tab"`
	// Editor is the document editor's editable element (docs), or the
	// cell editor that opens while a cell is typed into (sheets).
	Editor string `json:"editor,omitempty" toml:"editor"`
	// Search is a map's search box (maps).
	Search string `json:"search,omitempty" toml:"search"`
	// Canvas is the surface the map is drawn on (maps): pressed at a
	// point with click-at, panned with a drag by an offset.
	Canvas string `json:"canvas,omitempty" toml:"canvas"`
	// CopiesMarkup says the app puts each cell's markup, not its text, on
	// the clipboard's plain text ("a&lt;b" for a<b), so it is decoded.
	CopiesMarkup bool `json:"copies_markup,omitempty" toml:"copies_markup"`
	// Unverified says the adapter was written from the app's documented
	// structure and never checked against the live site.
	Unverified bool `json:"unverified,omitempty" toml:"-"`
	// Tested says the tests work the real app (an open-source one served
	// from npm on loopback).
	Tested bool `json:"tested,omitempty" toml:"-"`
	// User says it came from the configuration.
	User bool `json:"user,omitempty" toml:"-"`
	// Unreadable, for a sheet waymark knows but cannot read, says why (a
	// canvas grid with no name box, no cells in the page and no key that
	// selects all): the sheet commands, and extract on its page, say it
	// with what to do instead rather than "not a spreadsheet".
	Unreadable string `json:"unreadable,omitempty" toml:"-"`
}

// CanvasHint is what to do with a spreadsheet waymark cannot read: one
// drawn on a canvas, known ([App.Unreadable]) or not.
const CanvasHint = "export the sheet from the application (CSV, or its download) and read the file; if the application has a name box or its cells in the page, describe it under [[apps]] in waymark.toml (name_box, or cell with {row} and {col})"

// Label is the app as the outline's first line names it:
// "Google Sheets (sheet, unverified)".
func (a *App) Label() string {
	kind := a.Kind
	if kind == KindATS {
		kind = "applicant tracking"
	}
	s := a.Name + " (" + kind
	if a.Unverified {
		s += ", unverified"
	}
	if a.User {
		s += ", from the config"
	}
	return s + ")"
}

// MapUse is how a drawn map is worked, in the command line's words. The
// outline is one text for every reader; a front with other words for it
// (the MCP server's click tool with at, its drag tool with by) says them
// in its place, as it does the outline's "snapshot --full".
const MapUse = "press on it with click-at X Y, pan it with drag --by DX,DY"

// Use says, for the outline's first line, how the app is worked where
// the outline alone does not show it ("" when it does).
func (a *App) Use() string {
	if a.Kind != KindMap {
		return ""
	}
	s := "the map is drawn: " + MapUse
	if a.Search != "" {
		s += "; search in its search box"
	}
	return s
}

// LabelKind is the kind a [App.Label] names ("Google Sheets (sheet,
// unverified)" → KindSheet), or "" when label is none: the reverse of
// Label, for those that see an app only as a snapshot's App.
func LabelKind(label string) string {
	i := strings.LastIndex(label, " (")
	if i < 0 || !strings.HasSuffix(label, ")") {
		return ""
	}
	kind, _, _ := strings.Cut(label[i+2:len(label)-1], ",")
	if kind != KindSheet && kind != KindDoc && kind != KindMap {
		return ""
	}
	return kind
}

// CellSelector is the Cell selector for one cell, zero-based.
func (a *App) CellSelector(row, col int) string {
	r := strings.NewReplacer("{row}", fmt.Sprint(row), "{col}", fmt.Sprint(col))
	return r.Replace(a.Cell)
}

// Check says what is wrong with a user's app, or nil.
func (a *App) Check() error {
	switch {
	case strings.TrimSpace(a.Name) == "":
		return fmt.Errorf("an app needs a name")
	case a.Kind != KindSheet && a.Kind != KindDoc && a.Kind != KindMap && a.Kind != KindATS:
		return fmt.Errorf("app %q: kind is %q; want %q, %q, %q or %q", a.Name, a.Kind, KindSheet, KindDoc, KindMap, KindATS)
	case len(a.Hosts) == 0 && a.Marker == "":
		return fmt.Errorf("app %q: give hosts (globs of the page's host) or a marker (a CSS selector its pages have), or both", a.Name)
	case a.Kind == KindSheet && a.Unreadable == "" && a.NameBox == "" && a.Cell == "" && a.Grid == "":
		return fmt.Errorf("app %q: a sheet needs a name_box, or a cell selector with {row} and {col}", a.Name)
	case a.Cell != "" && (!strings.Contains(a.Cell, "{row}") || !strings.Contains(a.Cell, "{col}")):
		return fmt.Errorf("app %q: cell %q needs {row} and {col} (zero-based) where the cell's numbers go", a.Name, a.Cell)
	}
	return nil
}

// Candidates are the apps of list that the URL allows, in order: those
// whose hosts and paths match (any, for an app with none). Which of them
// the page is, is then told by their markers ([Pick]).
func Candidates(list []App, rawURL string) []App {
	host, path := hostPath(rawURL)
	if host == "" {
		return nil
	}
	var out []App
	for _, a := range list {
		if !anyGlob(a.Hosts, host) || !anyGlob(a.Paths, path) {
			continue
		}
		out = append(out, a)
	}
	return out
}

// Pick is the first candidate whose marker the page has (has reports
// whether a selector matches); an app with no marker is known by its URL
// alone. Nil when none fits.
func Pick(cands []App, has func(selector string) bool) *App {
	for i := range cands {
		a := &cands[i]
		if a.Marker == "" || has(a.Marker) {
			return a
		}
	}
	return nil
}

// anyGlob reports whether s matches one of globs; no globs match all.
func anyGlob(globs []string, s string) bool {
	if len(globs) == 0 {
		return true
	}
	for _, g := range globs {
		if calls.MatchURL(strings.ToLower(g), s) {
			return true
		}
	}
	return false
}

// hostPath splits a URL into its lower-case host and its path; "" for a
// URL that is not http(s).
func hostPath(raw string) (host, path string) {
	rest, ok := strings.CutPrefix(raw, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(raw, "http://"); !ok {
			return "", ""
		}
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		return hostOnly(rest), "/"
	}
	path = rest[end:]
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = path[:i]
	}
	if path == "" {
		path = "/"
	}
	return hostOnly(rest[:end]), path
}

// hostOnly drops the user info and the port.
func hostOnly(hp string) string {
	if i := strings.LastIndex(hp, "@"); i >= 0 {
		hp = hp[i+1:]
	}
	if strings.HasPrefix(hp, "[") {
		if i := strings.Index(hp, "]"); i >= 0 {
			return strings.ToLower(hp[:i+1])
		}
	}
	if i := strings.LastIndex(hp, ":"); i >= 0 {
		hp = hp[:i]
	}
	return strings.ToLower(hp)
}
