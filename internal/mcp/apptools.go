package mcp

import (
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools an application brings. Every tool's schema is read by the model on
// every turn, and the list has a budget (size_test.go), so the tools for
// spreadsheets (and documents) are not on the list until they can serve:
// the first look that names such an application (the outline's "[app:
// … (sheet)]") adds them, and the SDK tells the client the list changed.
// Options.Apps adds them all from the start, for a client that does not
// follow list changes.

// sheetApp and docApp are how a look names a spreadsheet and a document
// editor: its App field holds "NAME (sheet…)" or "NAME (doc…)".
const (
	sheetApp = "(sheet"
	docApp   = "(doc"
)

// appTools registers a kind's tools, by the word a look's App holds.
var appTools = map[string]func(t *tools, s *sdk.Server){
	sheetApp: (*tools).registerSheets,
	docApp:   (*tools).registerDocs, // document.go
}

// appSeen adds the tools of the application a look named, once.
func (t *tools) appSeen(app string) {
	if app == "" || t.srv == nil {
		return
	}
	for kind, register := range appTools {
		if !strings.Contains(app, kind) {
			continue
		}
		if _, done := t.apps.LoadOrStore(kind, true); !done {
			register(t, t.srv)
		}
	}
}
