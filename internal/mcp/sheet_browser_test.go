package mcp

import (
	"context"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/internal/apptest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// TestBrowserSheetTools works the real spreadsheet through an MCP client:
// the sheet tools appear once a look finds it, read is exact, and a fill
// is written only when the person accepts.
func TestBrowserSheetTools(t *testing.T) {
	srv := apptest.Sheet(t, apptest.SheetOptions{Data: [][]string{{"Item", "Qty"}, {"lamp", "3"}, {"desk", "tab\there"}}})
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	p := &person{answer: "decline"}
	cs := connectClient(t, Options{Caller: m, Session: "mcp-sheet"}, p.options(), "")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	call := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String(), res.IsError
	}
	tools := func() map[string]*sdk.Tool {
		out := map[string]*sdk.Tool{}
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			out[tool.Name] = tool
		}
		return out
	}
	if _, ok := tools()["sheet_read"]; ok {
		t.Fatal("the sheet tools are listed before any sheet was seen")
	}
	call("navigate", map[string]any{"url": srv.URL + "/"})
	call("wait", map[string]any{"selector": ".jss_worksheet td[data-x='0'][data-y='0']"})
	got, _ := call("snapshot", nil)
	if !strings.Contains(strings.SplitN(got, "\n", 2)[0], "[app: Jspreadsheet CE (sheet)]") {
		t.Fatalf("snapshot's first line:\n%s", got)
	}
	list := tools()
	if r, f := list["sheet_read"], list["sheet_fill"]; r == nil || f == nil || !r.Annotations.ReadOnlyHint || !*f.Annotations.DestructiveHint {
		t.Fatalf("sheet tools after the look: %v %v", r, f)
	}
	got, isErr := call("sheet_read", map[string]any{"range": "A1:B3"})
	if isErr || !strings.Contains(got, "<page_content>\nItem\tQty\nlamp\t3\ndesk\t\"tab\\there\"\n</page_content>") {
		t.Fatalf("sheet_read:\n%s", got)
	}
	got, isErr = call("sheet_fill", map[string]any{"cells": map[string]any{"B2": "4", "B3": "5"}})
	if !isErr || len(p.asked) != 1 || !strings.Contains(p.asked[0], `B2: "3" → "4"`) {
		t.Fatalf("declined fill: %v %q\n%s", isErr, p.asked, got)
	}
	if got, _ := call("sheet_read", map[string]any{"range": "B2"}); !strings.HasSuffix(got, "\n3\n</page_content>") {
		t.Fatalf("a declined fill wrote:\n%s", got)
	}
	p.answer = "accept"
	got, isErr = call("sheet_fill", map[string]any{"cells": map[string]any{"B2": "4", "B3": "5"}})
	if isErr || !strings.Contains(got, `B2: "3" → "4" (read back)`) || !strings.Contains(got, `B3: "tab\there" → "5" (read back)`) {
		t.Fatalf("accepted fill: %v\n%s", isErr, got)
	}
}
