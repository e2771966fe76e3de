package look

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

func TestSnapshotParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdSnapshot, func(o *SnapshotOptions) any { return o.Request }, []clitest.ParseCase{
		{Name: "plain", Want: calls.SnapshotRequest{}},
		{Name: "all flags", Args: []string{"-i", "-c", "--scope", "@e40", "--depth", "3", "--full"},
			Want: calls.SnapshotRequest{Interactive: true, Compact: true, Scope: "@e40", Depth: 3, Full: true}},
		{Name: "negative depth", Args: []string{"--depth", "-1"}, WantUsage: true},
		{Name: "argument", Args: []string{"e1"}, WantUsage: true},
	})

	// --json asks for the tree as well.
	f, _, _, _ := clitest.NewFactory(&clitest.FakeCaller{})
	f.JSON = true
	got, err := clitest.ParseWith(f, NewCmdSnapshot, []string{"-i"})
	if err != nil {
		t.Fatal(err)
	}
	if want := (calls.SnapshotRequest{Interactive: true, Tree: true}); got.Request != want {
		t.Errorf("with --json: %+v, want %+v", got.Request, want)
	}
}

func TestWaitParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdWait, func(o *WaitOptions) any { return o.Request }, []clitest.ParseCase{
		{Name: "text", Args: []string{"--text", "Cart (1)"}, Want: calls.WaitRequest{Text: "Cart (1)"}},
		{Name: "gone", Args: []string{"--gone", "Loading"}, Want: calls.WaitRequest{Gone: "Loading"}},
		{Name: "selector", Args: []string{"--selector", "#done", "--timeout", "5s"}, Want: calls.WaitRequest{Selector: "#done", TimeoutMS: 5000}},
		{Name: "url", Args: []string{"--url", "**/checkout"}, Want: calls.WaitRequest{URL: "**/checkout"}},
		{Name: "load", Args: []string{"--load"}, Want: calls.WaitRequest{Load: true}},
		{Name: "ms", Args: []string{"500"}, Want: calls.WaitRequest{MS: 500}},
		{Name: "duration", Args: []string{"2s"}, Want: calls.WaitRequest{MS: 2000}},
		{Name: "nothing", WantUsage: true},
		{Name: "two conditions", Args: []string{"--text", "a", "--load"}, WantUsage: true},
		{Name: "time and condition", Args: []string{"500", "--text", "a"}, WantUsage: true},
		{Name: "bad time", Args: []string{"soon"}, WantUsage: true},
	})
}

func TestGetParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdGet, func(o *GetOptions) any { return o.Request }, []clitest.ParseCase{
		{Name: "title", Args: []string{"title"}, Want: calls.GetRequest{What: "title"}},
		{Name: "url", Args: []string{"url"}, Want: calls.GetRequest{What: "url"}},
		{Name: "text", Args: []string{"text", "@e12"}, Want: calls.GetRequest{What: "text", Target: "@e12"}},
		{Name: "value", Args: []string{"value", "e5"}, Want: calls.GetRequest{What: "value", Target: "e5"}},
		{Name: "attr", Args: []string{"attr", "e12", "href"}, Want: calls.GetRequest{What: "attr", Target: "e12", Name: "href"}},
		{Name: "html", Args: []string{"html", "e1"}, Want: calls.GetRequest{What: "html", Target: "e1"}},
		{Name: "count", Args: []string{"count", "role=link"}, Want: calls.GetRequest{What: "count", Target: "role=link"}},
		{Name: "title extra", Args: []string{"title", "x"}, WantUsage: true},
		{Name: "text missing", Args: []string{"text"}, WantUsage: true},
		{Name: "attr missing name", Args: []string{"attr", "e1"}, WantUsage: true},
		{Name: "nothing", WantUsage: true},
		{Name: "unknown", Args: []string{"colour", "e1"}, WantUsage: true},
	})
}

func TestEvalParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdEval, func(o *EvalOptions) any { return o.Request }, []clitest.ParseCase{
		{Name: "expr", Args: []string{"document.title"}, Want: calls.EvalRequest{Expression: "document.title"}},
		{Name: "main world", Args: []string{"1+1", "--main-world"}, Want: calls.EvalRequest{Expression: "1+1", MainWorld: true}},
		{Name: "empty", Args: []string{" "}, WantUsage: true},
		{Name: "none", WantUsage: true},
	})

	f, in, _, _ := clitest.NewFactory(&clitest.FakeCaller{})
	in.WriteString("[...document.links]\n  .length")
	got, err := clitest.ParseWith(f, NewCmdEval, []string{"-"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "[...document.links]\n  .length"; got.Request.Expression != want {
		t.Errorf("from stdin: %q, want %q", got.Request.Expression, want)
	}
}

func TestCaptureParse(t *testing.T) {
	type shot struct {
		Req  calls.ScreenshotRequest
		Path string
	}
	clitest.CheckParse(t, NewCmdScreenshot, func(o *ScreenshotOptions) any { return shot{o.Request, o.Path} }, []clitest.ParseCase{
		{Name: "default", Want: shot{}},
		{Name: "path full", Args: []string{"page.png", "--full"}, Want: shot{calls.ScreenshotRequest{Full: true}, "page.png"}},
		{Name: "ref", Args: []string{"--ref", "@e12"}, Want: shot{calls.ScreenshotRequest{Target: "@e12"}, ""}},
		{Name: "masks", Args: []string{"--mask", "@e4", "--mask", "label=API key"}, Want: shot{calls.ScreenshotRequest{Mask: []string{"@e4", "label=API key"}}, ""}},
		{Name: "two paths", Args: []string{"a", "b"}, WantUsage: true},
	})
	clitest.CheckParse(t, NewCmdPDF, func(o *PDFOptions) any { return o.Path }, []clitest.ParseCase{
		{Name: "path", Args: []string{"a.pdf"}, Want: "a.pdf"},
		{Name: "none", WantUsage: true},
	})
}

func TestGetRun(t *testing.T) {
	get := func(r calls.GetRequest) func(context.Context, cmdutil.Common) error {
		return func(ctx context.Context, c cmdutil.Common) error {
			return getRun(ctx, &GetOptions{Common: c, Request: r})
		}
	}
	clitest.CheckRuns(t, []clitest.RunCase{
		{
			Name:       "title",
			Results:    map[string]any{calls.MethodGet: calls.GetResult{Value: "Shop"}},
			Run:        get(calls.GetRequest{What: "title"}),
			WantStdout: "Shop\n",
		},
		{
			Name:       "count",
			Results:    map[string]any{calls.MethodGet: calls.GetResult{Count: 7}},
			Run:        get(calls.GetRequest{What: "count", Target: "role=link"}),
			WantStdout: "7\n",
		},
		{
			Name:       "attr missing",
			Results:    map[string]any{calls.MethodGet: calls.GetResult{Found: false}},
			Run:        get(calls.GetRequest{What: "attr", Target: "e1", Name: "href"}),
			WantStderr: "e1 has no attribute \"href\"\n",
		},
		{
			Name:       "attr empty",
			Results:    map[string]any{calls.MethodGet: calls.GetResult{Found: true}},
			Run:        get(calls.GetRequest{What: "attr", Target: "e1", Name: "alt"}),
			WantStdout: "\n",
		},
		{
			Name:       "a page's escape sequence on a terminal",
			TTY:        true,
			Results:    map[string]any{calls.MethodGet: calls.GetResult{Value: "Sh\x1b[2Jop\x1b]52;c;aGk=\x07\u009b\n\tend"}},
			Run:        get(calls.GetRequest{What: "text", Target: "e1"}),
			WantStdout: `Sh\x1b[2Jop\x1b]52;c;aGk=\x07\x9b` + "\n\tend\n",
		},
		{
			Name:       "text of a field: the note names get value",
			Results:    map[string]any{calls.MethodGet: calls.GetResult{Found: true, Note: `the text of a field is not what is typed in it; read that with "waymark get value e1"`}},
			Run:        get(calls.GetRequest{What: "text", Target: "e1"}),
			WantStdout: "\n",
			WantStderr: `the text of a field is not what is typed in it; read that with "waymark get value e1"` + "\n",
		},
		{
			Name:       "the same bytes to a pipe",
			Results:    map[string]any{calls.MethodGet: calls.GetResult{Value: "Sh\x1b[2Jop"}},
			Run:        get(calls.GetRequest{What: "text", Target: "e1"}),
			WantStdout: "Sh\x1b[2Jop\n",
		},
		{
			Name:       "json",
			Results:    map[string]any{calls.MethodGet: calls.GetResult{Value: "/cart", Found: true}},
			JSON:       true,
			Run:        get(calls.GetRequest{What: "attr", Target: "e1", Name: "href"}),
			WantStdout: `{"ok":true,"data":{"value":"/cart","found":true}}` + "\n",
		},
	})
}

// The look commands print what they read (split from the flat package's TestPageRuns).
func TestLookRuns(t *testing.T) {
	page := calls.PageInfo{URL: "https://shop.test/", Title: "Shop"}
	snap := calls.Snapshot{URL: "https://shop.test/", Title: "Shop", Text: "[page] Shop\n- link \"Home\" [ref=e1]", Refs: 1, Tree: json.RawMessage(`{"role":"page"}`)}
	clitest.CheckRuns(t, []clitest.RunCase{
		{
			Name:    "snapshot prints the outline",
			Results: map[string]any{calls.MethodSnapshot: snap},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return snapshotRun(ctx, &SnapshotOptions{Common: c})
			},
			WantStdout: "[page] Shop\n- link \"Home\" [ref=e1]\n",
		},
		{
			Name:    "snapshot json carries the tree",
			Results: map[string]any{calls.MethodSnapshot: snap},
			JSON:    true,
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return snapshotRun(ctx, &SnapshotOptions{Common: c, Request: calls.SnapshotRequest{Tree: true}})
			},
			WantStdout: `{"ok":true,"data":{"url":"https://shop.test/","title":"Shop","text":"[page] Shop\n- link \"Home\" [ref=e1]","tree":{"role":"page"},"refs":1}}` + "\n",
		},
		{
			Name: "wait",
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return waitRun(ctx, &WaitOptions{Common: c, Request: calls.WaitRequest{Text: "Cart (1)"}})
			},
			WantStderr: "waited for text \"Cart (1)\"\n",
		},
		{
			Name:    "wait json says where the tab is",
			Results: map[string]any{calls.MethodWait: page},
			JSON:    true,
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return waitRun(ctx, &WaitOptions{Common: c, Request: calls.WaitRequest{MS: 500}})
			},
			WantStdout: `{"ok":true,"data":{"url":"https://shop.test/","title":"Shop"}}` + "\n",
		},
		{
			Name:    "eval prints JSON",
			Results: map[string]any{calls.MethodEval: calls.EvalResult{Value: json.RawMessage(`{"a":[1,2]}`)}},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return evalRun(ctx, &EvalOptions{Common: c, Request: calls.EvalRequest{Expression: "x"}})
			},
			WantStdout: "{\"a\":[1,2]}\n",
		},
		{
			Name:    "eval string stays quoted",
			Results: map[string]any{calls.MethodEval: calls.EvalResult{Value: json.RawMessage(`"Shop"`)}},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return evalRun(ctx, &EvalOptions{Common: c, Request: calls.EvalRequest{Expression: "document.title"}})
			},
			WantStdout: "\"Shop\"\n",
		},
	})
}

// A word wait cannot read as a time is answered with the flag that waits
// for it: text=Cart is the locator's way of writing --text Cart, and
// css=#done --selector's; anything else names every condition flag (the
// error named only times, so `wait text=Nope` read as a bad duration).
func TestWaitTimeErrorNamesTheFlag(t *testing.T) {
	for arg, want := range map[string]string{
		"text=Cart (1)": `--text 'Cart (1)'`,
		`text="Done"`:   `--text 'Done'`,
		"css=#done":     `--selector '#done'`,
		"soon":          "--text, --gone, --selector, --url or --load",
	} {
		_, err := parseWaitTime(arg)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("wait %q: %v, want it to name %s", arg, err, want)
		}
	}
}
