package mcp

import (
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// What clients read about each tool besides its name and description, in
// one table so that a tool added elsewhere is one line here: its
// annotations (a client may run read-only tools without asking, and asks
// before destructive ones), the description and values of each input
// field, and notes on its structured output. [add] applies them, and
// a test fails for a tool or a field this file does not cover.
//
// Every tool acts on web pages, an open world: openWorldHint is true for
// all. A tool is destructive when it may press what sends, pays, deletes
// or confirms (it asks the person first, see approve.go), or closes what
// the user had open.

type toolNote struct {
	title       string
	readOnly    bool // changes nothing on the page or in the session
	destructive bool // may submit, pay, delete or close
	idempotent  bool // the same call again changes nothing more
}

// The tables are built at first use: nothing is allocated at init (every
// command is a process of its own).
var toolNotes = sync.OnceValue(func() map[string]toolNote {
	return map[string]toolNote{
		"navigate":    {title: "Open a URL", idempotent: true},
		"back":        {title: "Go back"},
		"forward":     {title: "Go forward"},
		"reload":      {title: "Reload the page", idempotent: true},
		"snapshot":    {title: "Look at the page", readOnly: true},
		"click":       {title: "Click", destructive: true},
		"fill":        {title: "Fill a field", idempotent: true},
		"type":        {title: "Type text", destructive: true},
		"press":       {title: "Press a key", destructive: true},
		"select":      {title: "Choose options", idempotent: true},
		"check":       {title: "Check", idempotent: true},
		"uncheck":     {title: "Uncheck", idempotent: true},
		"hover":       {title: "Hover", idempotent: true},
		"scroll":      {title: "Scroll"},
		"upload":      {title: "Upload files", idempotent: true},
		"drag":        {title: "Drag and drop"},
		"wait":        {title: "Wait for the page", readOnly: true},
		"screenshot":  {title: "Screenshot", readOnly: true},
		"tabs":        {title: "Tabs", destructive: true},
		"dialog":      {title: "Answer a dialog", destructive: true},
		"eval":        {title: "Run JavaScript", destructive: true},
		"close":       {title: "Close the session", destructive: true},
		"console":     {title: "Console messages", readOnly: true},
		"network":     {title: "Network requests", readOnly: true},
		"capture":     {title: "Capture network"}, // writes a file, changes no page
		"act":         {title: "Do a step in words", destructive: true},
		"observe":     {title: "Find elements in words", readOnly: true},
		"extract":     {title: "Read data as JSON", readOnly: true},
		"run":         {title: "Do a task", destructive: true},
		"replay":      {title: "Replay a routine", destructive: true},
		"form":        {title: "Read the form", readOnly: true},
		"form_fill":   {title: "Fill the form", idempotent: true}, // never submits: the page's own sends are stopped
		"sheet_read":  {title: "Read spreadsheet cells", readOnly: true},
		"sheet_dump":  {title: "Read the whole spreadsheet", readOnly: true},
		"sheet_write": {title: "Write one spreadsheet cell", idempotent: true},
		"sheet_fill":  {title: "Write spreadsheet cells", destructive: true}, // the person approves (approve.go)
		"sitemap":     {title: "List a site's pages", readOnly: true, idempotent: true},
		"page_tool":   {title: "Call a page's tool", destructive: true}, // one that may act is put to the person first
		"doc_read":    {title: "Read the document", readOnly: true},
		"doc_find":    {title: "Find words in the document", readOnly: true},
		"doc_insert":  {title: "Type into the document"},                         // types text; never submits
		"api_call":    {title: "Read a list from a site API", destructive: true}, // reads; a request that is not a read is put to the person first (approve.go)
	}
})

// targetDoc is the target grammar, for every target field.
const targetDoc = `ref (e12) or locator: role=button[name="Pay"], text=, label=, placeholder=, testid=, css=`

// fieldDocs describe input fields that carry no description of their own
// (a jsonschema tag), by "tool.field", or by "field" for every tool.
var fieldDocs = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"target":              targetDoc,
		"navigate.url":        "absolute URL, or a host and path",
		"fill.value":          "the new value",
		"type.value":          "text typed after what is there",
		"drag.source":         "what to drag: ref or locator",
		"drag.to":             "drop on: ref or locator",
		"wait.timeout_ms":     "give up after; default: the server's",
		"dialog.accept":       "true: OK/accept; false: cancel",
		"eval.expression":     "JavaScript; its JSON value is returned",
		"observe.question":    "what to find, in words",
		"extract.instruction": "what to read, in words",
		"extract.schema":      "JSON Schema of the answer",
		"extract.list":        "for a list: recipe (as an earlier extract returned it: reads with no model), pages, scroll, key, limit, until, until_field, seen",
		"act.instruction":     "one step, e.g. fill Email with %email%",
		"act.vars":            "values of %name% in the instruction",
		"run.task":            "the task, in words",
		"run.inputs":          "values of %name% in the task",
		"run.max_steps":       "stop after this many steps",
		"replay.routine":      "the routine (waymark.routine/1): its JSON object, that JSON as text, or a file path",
		"replay.vars":         "values of the routine's variables, by name",
		"click.button":        "default left",
		"scroll.direction":    "into-view needs a target",
		"tabs.op":             "what to do",
		"capture.action":      "stop writes file",
		"capture.file":        "capture path",
		"capture.har":         "HAR 1.2 path",
		"editor":              "the editor: ref or locator; default: the focused or largest",
		"doc_read.html":       "the clipboard's HTML, not its text",
		"doc_find.text":       "the words, any case",
		"doc_insert.text":     "typed as is; a line break starts a paragraph",
		"doc_insert.after":    "type right after these words (once in the document)",
		"doc_insert.replace":  "type over this whole line (at most 200 characters)",
		"doc_insert.end":      "type on a new line at the end",
	}
})

// fieldEnums are the values a field takes.
var fieldEnums = sync.OnceValue(func() map[string][]any {
	return map[string][]any{
		"click.button":     {"left", "right", "middle"},
		"scroll.direction": {"up", "down", "left", "right", "into-view"},
		"tabs.op":          {"list", "new", "switch", "close"},
		"capture.action":   {"start", "stop"},
	}
})

// fieldTypes type fields the Go type leaves open.
var fieldTypes = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"replay.routine": {"object", "string"},
	}
})

// outputDocs describe fields of a tool's structuredContent, by tool and
// field, where the name alone leaves a client guessing; the schema itself
// is inferred from the Go type the tool answers with (result.go).
var outputDocs = sync.OnceValue(func() map[string]map[string]string {
	return map[string]map[string]string{
		"extract": {
			"data":   "the answer, in the schema asked for",
			"recipe": "give it back as list.recipe to read with no model",
			"grid":   "a sheet's grid recipe: give it back as list.recipe",
		},
	}
})

// annotate sets what the tables say of tool, whose input schema is in.
func annotate(tool *sdk.Tool, in *jsonschema.Schema) {
	n, ok := toolNotes()[tool.Name]
	if ok {
		open := true
		tool.Annotations = &sdk.ToolAnnotations{Title: n.title, ReadOnlyHint: n.readOnly, DestructiveHint: &n.destructive, IdempotentHint: n.idempotent, OpenWorldHint: &open}
	}
	for name, p := range in.Properties {
		key := tool.Name + "." + name
		if p.Description == "" {
			if d, ok := fieldDocs()[key]; ok {
				p.Description = d
			} else {
				p.Description = fieldDocs()[name]
			}
		}
		if e, ok := fieldEnums()[key]; ok {
			p.Enum = e
		}
		if ts, ok := fieldTypes()[key]; ok {
			p.Type, p.Types = "", ts
		}
	}
}
