package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/sessions"
)

// cliWords are what only a command line can type: a flag, a usage line,
// a command.
var cliWords = regexp.MustCompile("(^|[\\s(,'\"])--[a-z]|usage: waymark|`waymark |\\bwaymark (drag|scroll|click|open|wait|doc)\\b")

// saysCLI reports whether an answer says words of the command line.
// python's --directory (serving a folder, advice for the person) is
// another program's.
func saysCLI(s string) bool {
	return cliWords.MatchString(strings.ReplaceAll(s, "python3 -m http.server --directory", ""))
}

// TestToolErrorsNameNoFlag: the driver's refusals that named the CLI's
// flags and usage lines (drag's and scroll's usage, doc
// insert's --after/--replace/--end, --editor, a path opened as
// `waymark --allow-files open`) reach an MCP client in its tools' words.
// (A button other than left, right or middle is refused by the click
// tool's schema before the driver sees it.)
func TestToolErrorsNameNoFlag(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/doc" {
			fmt.Fprint(w, `<div contenteditable="true" id="ed"><p>Dear Ann,</p><p>Thanks.</p></div>`)
			return
		}
		fmt.Fprint(w, `<button>Go</button>`)
	}))
	defer site.Close()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	cs := connect(t, Options{Caller: m, Session: "mcp-hintflags", Apps: true})
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
	if got, isErr := call("navigate", map[string]any{"url": site.URL + "/"}); isErr {
		t.Fatalf("navigate: %s", got)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		want string // the argument the answer names
	}{
		{"drag", map[string]any{"source": "role=button[name=Go]"}, "the argument by"},
		{"scroll", map[string]any{"direction": "into-view"}, "into view"},
		{"navigate", map[string]any{"url": "/tmp/page.html"}, "the navigate tool with url file:///tmp/page.html"},
		{"doc_read", nil, "the argument editor"},
	} {
		got, isErr := call(c.tool, c.args)
		if !isErr || !strings.Contains(got, c.want) || saysCLI(got) {
			t.Errorf("%s %v: error %v, want %q and no words of the command line:\n%s", c.tool, c.args, isErr, c.want, got)
		}
	}
	if got, isErr := call("navigate", map[string]any{"url": site.URL + "/doc"}); isErr {
		t.Fatalf("navigate: %s", got)
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"text": "x"}, "the argument after, the argument replace or the argument end"},
		{map[string]any{"text": strings.Repeat("x", 300), "replace": "Thanks."}, "the argument after or the argument end"},
	} {
		got, isErr := call("doc_insert", c.args)
		if !isErr || !strings.Contains(got, c.want) || saysCLI(got) {
			t.Errorf("doc_insert %v: error %v, want %q and no words of the command line:\n%s", c.args, isErr, c.want, got)
		}
	}
}
