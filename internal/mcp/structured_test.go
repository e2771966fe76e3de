package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// noData are the tools that answer with no data, and why.
var noData = map[string]string{
	"screenshot": "an image",
}

// dataCalls are a working call of every tool, for TestEveryToolAnswersData:
// a tool added without a case here fails it.
var dataCalls = map[string]map[string]any{
	"navigate":    {"url": "https://shop.test/login"},
	"back":        {},
	"forward":     {},
	"reload":      {},
	"snapshot":    {},
	"click":       {"target": "e3"},
	"fill":        {"target": "e1", "value": "ann@example.com"},
	"type":        {"target": "e1", "value": "x"},
	"press":       {"key": "Enter"},
	"select":      {"target": "e4", "values": []string{"UK"}},
	"check":       {"target": "e5"},
	"uncheck":     {"target": "e5"},
	"hover":       {"target": "e3"},
	"scroll":      {"direction": "down"},
	"upload":      {"target": "e6", "files": []string{"/tmp/a.txt"}},
	"drag":        {"source": "e1", "to": "e2"},
	"wait":        {"text": "Welcome"},
	"screenshot":  {},
	"tabs":        {"op": "list"},
	"dialog":      {"accept": true},
	"eval":        {"expression": "1+1"},
	"close":       {},
	"console":     {},
	"network":     {},
	"capture":     {"action": "start"},
	"form":        {},
	"form_fill":   {"answers": map[string]string{"email": "ann@example.com"}},
	"sitemap":     {"origin": "https://shop.test/"},
	"api_call":    {"recipe": `{"format":"waymark.api/1","site":"https://shop.example","page":"https://shop.example/","request":{"method":"GET","url":"https://shop.example/api/items","headers":[]},"rows":"/items","fields":[{"name":"name","path":"/title"}]}`},
	"sheet_read":  {"range": "A1:B2"},
	"sheet_dump":  {},
	"sheet_write": {"cell": "B2", "value": "12"},
	"sheet_fill":  {"cells": map[string]string{"B2": "12"}},
	"doc_read":    {},
	"doc_find":    {"text": "Ann"},
	"doc_insert":  {"text": "Hello", "end": true},
	"page_tool":   {"name": "search", "args": map[string]any{"q": "mug"}},
	"act":         {"instruction": "fill Email with ann@example.com"},
	"observe":     {"question": "how do I sign in?"},
	"extract":     {"instruction": "the heading", "schema": map[string]any{"type": "object", "properties": map[string]any{"heading": map[string]any{"type": "string"}}}},
	"run":         {"task": "sign in", "record": true},
	"replay":      {"routine": testRoutine},
}

// dataCaller answers every call as a page with some of everything would.
func dataCaller() *fakeCaller {
	page := calls.PageInfo{URL: "https://shop.test/login", Title: "Sign in", Status: 200}
	out := calls.Outcome{URL: page.URL, Title: page.Title, Navigated: true, NewTabs: []calls.TabInfo{{Index: 1, URL: "https://shop.test/help"}},
		Downloads: []calls.Download{{Name: "a.pdf", State: calls.DownloadCompleted}}, Chatter: []string{"POST /collect (a beacon)"}}
	return &fakeCaller{reply: func(method string, params any) (any, error) {
		switch method {
		case calls.MethodOpen, calls.MethodBack, calls.MethodForward, calls.MethodReload, calls.MethodWait:
			return page, nil
		case calls.MethodSnapshot:
			return calls.Snapshot{URL: page.URL, Title: page.Title, Text: "[page] https://shop.test/login \"Sign in\" [tools: search]\n" + signInPage}, nil
		case calls.MethodAct, calls.MethodDialog:
			return out, nil
		case calls.MethodLocate:
			return calls.Evidence{Ref: "e1", Chosen: "label=Email"}, nil
		case calls.MethodTab:
			return calls.TabList{Tabs: []calls.TabInfo{{Index: 0, URL: page.URL, Title: page.Title, Current: true}}}, nil
		case calls.MethodEval:
			return calls.EvalResult{Value: json.RawMessage(`2`)}, nil
		case calls.MethodConsole:
			return calls.ConsoleLog{Messages: []calls.ConsoleMessage{{Level: "error", Source: "javascript", Text: "boom", URL: page.URL, Line: 3}}, Errors: 1}, nil
		case calls.MethodNetwork:
			return calls.NetworkLog{Requests: []calls.Request{{Method: "GET", URL: page.URL, Type: "document", Status: 200, DurationMS: 12}}}, nil
		case calls.MethodForm:
			return calls.Form{URL: page.URL, Fields: []calls.FormField{{Key: "email", Ref: "e1", Kind: "text", Required: true, Options: []string{"a"}}}}, nil
		case calls.MethodFormFill:
			return calls.FormFillResult{URL: page.URL, Fields: []calls.FilledField{{Key: "email", After: "ann@example.com", Answered: true, ReadBack: true}}}, nil
		case calls.MethodSheetRead, calls.MethodSheetDump:
			return calls.SheetGrid{URL: page.URL, App: "Jspreadsheet (sheet)", Range: "A1:B2", Grid: *cells("sku\tname", "A1\tMug")}, nil
		case calls.MethodSheetWrite:
			return calls.SheetWriteResult{URL: page.URL, SheetCell: calls.SheetCell{Cell: "B2", After: "12", ReadBack: true}}, nil
		case calls.MethodSheetFill:
			return calls.SheetFillResult{URL: page.URL, Cells: []calls.SheetCell{{Cell: "B2", After: "12", ReadBack: true}}}, nil
		case calls.MethodDocRead:
			return calls.Doc{URL: page.URL, Editor: "quill", Text: "Hello Ann", Lines: 1}, nil
		case calls.MethodDocFind:
			return calls.DocFound{Editor: "quill", Matches: []calls.DocMatch{{Line: 1, Paragraph: 1, Column: 7, Context: "Hello Ann"}}}, nil
		case calls.MethodDocInsert:
			return calls.DocInserted{Where: "at the end", Line: 2, Lines: 2}, nil
		case calls.MethodPageTool:
			return calls.PageToolResult{URL: page.URL, Output: json.RawMessage(`{"hits":["Mug"]}`)}, nil
		case calls.MethodAPICall:
			return calls.APICallResult{Rows: []map[string]any{{"sku": "A1"}}, Pages: 1, Requests: 1, Ended: "last page"}, nil
		}
		return nil, nil
	}}
}

// TestEveryToolAnswersData: every tool on the full list (each opt-in group
// on, the application and page tools offered) has an outputSchema, unless
// noData says why not, and a call of it answers with text and with
// structuredContent that validates against that schema.
func TestEveryToolAnswersData(t *testing.T) {
	t.Chdir(t.TempDir()) // sitemap, api_call and replay read files in the working folder only
	if err := os.WriteFile(filepath.Join(".", "sign-in.json"), []byte(testRoutine), 0o644); err != nil {
		t.Fatal(err)
	}
	c := dataCaller()
	m := scripted.New( // in the order of the list: act, extract, observe, run
		scripted.Data(pilot.PurposeAct, `{"action":"fill","ref":"e1","value":"ann@example.com"}`),
		scripted.Data(pilot.PurposeExtract, `{"heading":"Sign in"}`),
		scripted.Data(pilot.PurposeObserve, `{"candidates":[{"ref":"e3","description":"the sign-in button","action":"signs in"}]}`),
		scripted.Data(pilot.PurposeDecide, `{"thought":"signed in","action":{"type":"done","expect":{"text_appears":"Welcome, Ann"}}}`),
	)
	newPilot := func(_ context.Context, session string) (*pilot.Pilot, error) {
		return pilot.New(calls.Remote{Caller: c, Session: session}, m, nil), nil
	}
	replayer := func(context.Context, string, *routine.Routine, replay.Options) (*replay.Result, error) {
		return &replay.Result{Status: replay.StatusOK, Steps: []replay.StepResult{{Path: "steps[0]", Kind: "goto", Status: "ok"}}}, nil
	}
	cs := connect(t, Options{Caller: c, AllowEval: true, AllowCapture: true, SiteTools: true, Apps: true,
		Extra: []func(*sdk.Server){PilotTools(newPilot, replayer, PilotOptions{})}})
	callTool(t, cs, "snapshot", nil) // a page with tools: page_tool is offered
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tool := range res.Tools {
		seen[tool.Name] = true
		t.Run(tool.Name, func(t *testing.T) {
			args, ok := dataCalls[tool.Name]
			if !ok {
				t.Fatalf("no call of %s in dataCalls: add one (and an outputSchema to the tool)", tool.Name)
			}
			if _, ok := noData[tool.Name]; ok {
				if tool.OutputSchema != nil {
					t.Errorf("%s has an outputSchema: take it out of noData", tool.Name)
				}
				return
			}
			if tool.OutputSchema == nil {
				t.Fatalf("%s has no outputSchema", tool.Name)
			}
			schema := resolveOutput(t, tool.OutputSchema)
			text, isErr, res := callTool(t, cs, tool.Name, args)
			if isErr {
				t.Fatalf("%s failed: %s", tool.Name, text)
			}
			if strings.TrimSpace(text) == "" {
				t.Errorf("%s answered no text", tool.Name)
			}
			if res.StructuredContent == nil {
				t.Fatalf("%s answered no structuredContent:\n%s", tool.Name, text)
			}
			b, _ := json.Marshal(res.StructuredContent)
			var data any
			if err := json.Unmarshal(b, &data); err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(data); err != nil {
				t.Errorf("%s: structuredContent does not fit its outputSchema: %v\n%s", tool.Name, err, b)
			}
		})
	}
	for name := range dataCalls {
		if !seen[name] {
			t.Errorf("%s is in dataCalls but not on the full tool list", name)
		}
	}
}

// resolveOutput is a tool's outputSchema as the client received it,
// ready to validate with.
func resolveOutput(t *testing.T, s any) *jsonschema.Resolved {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Type != "object" {
		t.Errorf("outputSchema type %q, want object", schema.Type)
	}
	r, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
