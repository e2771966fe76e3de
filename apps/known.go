package apps

// The built-in table. Google's and Microsoft's selectors come from the
// structure their pages are documented and widely scripted with (the name
// box's id, the grid's container), not from a check against the live
// sites, which the tests cannot reach: they are Unverified until one
// passes. The open-source apps are checked by the tests against the real
// packages served on loopback (testdata/apps).

// Known returns the built-in apps, most specific first (a fresh slice the
// caller may change).
func Known() []App {
	return append([]App{
		{Name: "Google Sheets", Kind: KindSheet, Hosts: []string{"docs.google.com"}, Paths: []string{"/spreadsheets/*"},
			NameBox: "#t-name-box", Grid: "#waffle-grid-container", Editor: ".cell-input", Tab: ".docs-sheet-active-tab .docs-sheet-tab-name", Unverified: true},
		{Name: "Google Docs", Kind: KindDoc, Hosts: []string{"docs.google.com"}, Paths: []string{"/document/*"},
			Editor: ".kix-appview-editor", Unverified: true},
		{Name: "Excel for the web", Kind: KindSheet,
			Hosts:   []string{"excel.cloud.microsoft", "excel.office.com", "*.officeapps.live.com", "*.sharepoint.com", "onedrive.live.com"},
			Marker:  "#m_excelWebRenderer_ewaCtl_NameBox, #FormulaBar-NameBox-input, [aria-label='Name Box']",
			NameBox: "#FormulaBar-NameBox-input, #m_excelWebRenderer_ewaCtl_NameBox, [aria-label='Name Box']",
			Grid:    "#m_excelWebRenderer_ewaCtl_sheetContentDiv, [role='grid']", Unverified: true},
		{Name: "Google Maps", Kind: KindMap, Hosts: []string{"www.google.com", "google.com", "maps.google.com"}, Paths: []string{"/maps", "/maps/*"},
			Search: "#searchboxinput", Canvas: "#scene canvas, canvas.widget-scene-canvas", Unverified: true},
		{Name: "Airtable", Kind: KindSheet, Hosts: []string{"airtable.com", "*.airtable.com"},
			Grid: ".gridView, [data-testid='grid-view']", Cell: "[data-rowindex='{row}'] [data-columnindex='{col}']", Unverified: true},
		{Name: "Notion", Kind: KindDoc, Hosts: []string{"notion.so", "*.notion.so", "*.notion.site"},
			Editor: ".notion-page-content", Unverified: true},
		{Name: "Confluence", Kind: KindDoc, Hosts: []string{"*.atlassian.net"}, Paths: []string{"/wiki/*"},
			Editor: "#ak-editor-textarea, .ProseMirror", Unverified: true},
		// Open-source apps, anywhere: known by their structure.
		// Each worksheet (tab) is a table of its own: the cells are the
		// open one's, not a hidden tab's.
		{Name: "Jspreadsheet CE", Kind: KindSheet, Marker: ".jss_worksheet",
			Grid: ".jss_worksheet", Cell: `.jss_worksheet:not(.jtabs-content > :not(.jtabs-selected) *) td[data-x="{col}"][data-y="{row}"]`,
			Tab: ".jtabs-headers > .jtabs-selected", Editor: ".jss_worksheet td.editor input, .jss_worksheet td.editor textarea, .jss_worksheet td.editor div[contenteditable]",
			CopiesMarkup: true, Tested: true},
		// A canvas grid: known so that the sheet commands say why they
		// cannot read it (no name box, no cell in the page, and no key
		// that selects all: a range can only be selected by pointing at
		// pixels whose columns waymark cannot know).
		{Name: "x-data-spreadsheet", Kind: KindSheet, Marker: ".x-spreadsheet canvas.x-spreadsheet-table",
			Unreadable: "its cells are drawn on a canvas, not written in the page, and it has no name box to go to a range and no key that selects all, so waymark cannot select a range to copy with the app's own Control+C (its copy is of the range the pointer selected)",
			Tested:     true},
		// The editors' doc adapters are s-doc's (issue 19 part 4): known
		// here by their structure, marked Tested once their tests work them.
		{Name: "Quill", Kind: KindDoc, Marker: ".ql-editor", Editor: ".ql-editor"},
		{Name: "TipTap", Kind: KindDoc, Marker: ".tiptap.ProseMirror", Editor: ".tiptap.ProseMirror"},
		{Name: "ProseMirror", Kind: KindDoc, Marker: ".ProseMirror", Editor: ".ProseMirror"},
		{Name: "EasyMDE", Kind: KindDoc, Marker: ".EasyMDEContainer", Editor: ".EasyMDEContainer .CodeMirror"},
		{Name: "CodeMirror", Kind: KindDoc, Marker: ".cm-editor, .CodeMirror", Editor: ".cm-content, .CodeMirror"},
	}, atsApps()...)
}

// With is the table a session uses: the user's apps first (they may name
// a host the built-in table also knows), then the built-in ones.
func With(user []App) []App {
	out := make([]App, 0, len(user)+16)
	for _, a := range user {
		a.User = true
		out = append(out, a)
	}
	return append(out, Known()...)
}
