package apps

import (
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	table := With([]App{{Name: "Our grid", Kind: KindSheet, Hosts: []string{"grid.corp.example"}, NameBox: "#ref"}})
	for _, c := range []struct {
		url     string
		markers map[string]bool
		want    string
	}{
		{"https://docs.google.com/spreadsheets/d/abc/edit#gid=0", nil, "Google Sheets (sheet, unverified)"},
		{"https://docs.google.com/document/d/abc/edit", nil, "Google Docs (doc, unverified)"},
		{"https://docs.google.com/forms/d/abc", nil, ""},
		{"https://contoso.sharepoint.com/:x:/r/sites/x/book.xlsx", map[string]bool{"#m_excelWebRenderer_ewaCtl_NameBox, #FormulaBar-NameBox-input, [aria-label='Name Box']": true}, "Excel for the web (sheet, unverified)"},
		{"https://contoso.sharepoint.com/sites/x", nil, ""},
		{"https://airtable.com/appX/tblY", nil, "Airtable (sheet, unverified)"},
		{"https://www.google.com/maps/place/Eiffel+Tower/@48.85,2.29,17z", nil, "Google Maps (map, unverified)"},
		{"https://www.google.com/maps", nil, "Google Maps (map, unverified)"},
		{"https://www.google.com/search?q=maps", nil, ""},
		{"https://www.notion.so/page-1", nil, "Notion (doc, unverified)"},
		{"https://acme.atlassian.net/wiki/spaces/X/pages/1", nil, "Confluence (doc, unverified)"},
		{"http://127.0.0.1:8080/", map[string]bool{".jss_worksheet": true}, "Jspreadsheet CE (sheet)"},
		{"http://127.0.0.1:8080/", map[string]bool{".ProseMirror": true}, "ProseMirror (doc)"},
		{"http://127.0.0.1:8080/", nil, ""},
		{"https://grid.corp.example:8443/x", nil, "Our grid (sheet, from the config)"},
		{"about:blank", nil, ""},
	} {
		a := Pick(Candidates(table, c.url), func(s string) bool { return c.markers[s] })
		got := ""
		if a != nil {
			got = a.Label()
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.url, got, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		app App
		ok  bool
	}{
		{App{Name: "x", Kind: KindSheet, Hosts: []string{"h"}, NameBox: "#n"}, true},
		{App{Name: "x", Kind: KindDoc, Marker: ".ed"}, true},
		{App{Name: "x", Kind: KindMap, Marker: ".map", Canvas: "canvas"}, true},
		{App{Name: "", Kind: KindSheet, Hosts: []string{"h"}, NameBox: "#n"}, false},
		{App{Name: "x", Kind: "table", Hosts: []string{"h"}}, false},
		{App{Name: "x", Kind: KindSheet}, false},
		{App{Name: "x", Kind: KindSheet, Hosts: []string{"h"}}, false},
		{App{Name: "x", Kind: KindSheet, Hosts: []string{"h"}, Cell: "td[data-x]"}, false},
	} {
		if err := c.app.Check(); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.app, err)
		}
	}
	for _, a := range Known() {
		if err := a.Check(); err != nil {
			t.Errorf("built-in %s: %v", a.Name, err)
		}
	}
}

func TestLabelKind(t *testing.T) {
	for _, a := range []App{
		{Name: "Jspreadsheet (CE)", Kind: KindSheet, Tested: true},
		{Name: "Google Docs", Kind: KindDoc, Unverified: true},
		{Name: "Our grid", Kind: KindSheet, User: true},
		{Name: "Google Maps", Kind: KindMap, Unverified: true},
	} {
		if got := LabelKind(a.Label()); got != a.Kind {
			t.Errorf("LabelKind(%q) = %q; want %q", a.Label(), got, a.Kind)
		}
	}
	for _, l := range []string{"", "Something (else)", "no parens"} {
		if got := LabelKind(l); got != "" {
			t.Errorf("LabelKind(%q) = %q; want none", l, got)
		}
	}
}

func TestUse(t *testing.T) {
	for _, a := range Known() {
		use := a.Use()
		if (a.Kind == KindMap) != (use != "") {
			t.Errorf("%s: Use() = %q", a.Name, use)
		}
		if a.Kind == KindMap && (!strings.Contains(use, "click-at X Y") || !strings.Contains(use, "drag --by")) {
			t.Errorf("%s: Use() = %q, want click-at and drag --by named", a.Name, use)
		}
	}
}
