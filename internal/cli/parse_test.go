package cli

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

// parseCase is one command line and what runF should get from it: want is
// compared with pick(opts).
type parseCase struct {
	name      string
	args      []string
	want      any
	wantUsage bool
}

func checkParse[T any](t *testing.T, build func(*cmdutil.Factory, func(context.Context, *T) error) *cobra.Command, pick func(*T) any, cases []parseCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := clitest.ParseCmd(t, build, tt.args)
			if tt.wantUsage {
				var ue *cmdutil.UsageError
				if !errors.As(err, &ue) {
					t.Fatalf("err = %v, want a UsageError", err)
				}
				if got != nil {
					t.Errorf("runF was called: %+v", pick(got))
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if got == nil {
				t.Fatal("runF was not called")
			}
			if diff := cmp.Diff(tt.want, pick(got)); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOpenParse(t *testing.T) {
	checkParse(t, NewCmdOpen, func(o *OpenOptions) any { return o.Request }, []parseCase{
		{name: "url", args: []string{"example.com"}, want: calls.OpenRequest{URL: "example.com"}},
		{name: "timeout", args: []string{"https://a.test", "--timeout", "1m"}, want: calls.OpenRequest{URL: "https://a.test", TimeoutMS: 60000}},
		{name: "no url", wantUsage: true},
		{name: "two urls", args: []string{"a", "b"}, wantUsage: true},
	})
}

func TestHistoryParse(t *testing.T) {
	for _, c := range []struct {
		build  func(*cmdutil.Factory, func(context.Context, *HistoryOptions) error) *cobra.Command
		method string
	}{{NewCmdBack, calls.MethodBack}, {NewCmdForward, calls.MethodForward}, {NewCmdReload, calls.MethodReload}} {
		checkParse(t, c.build, func(o *HistoryOptions) any { return o.Method }, []parseCase{
			{name: c.method, want: c.method},
			{name: c.method + " extra", args: []string{"x"}, wantUsage: true},
		})
	}
}

func TestSnapshotParse(t *testing.T) {
	checkParse(t, NewCmdSnapshot, func(o *SnapshotOptions) any { return o.Request }, []parseCase{
		{name: "plain", want: calls.SnapshotRequest{}},
		{name: "all flags", args: []string{"-i", "-c", "--scope", "@e40", "--depth", "3", "--full"},
			want: calls.SnapshotRequest{Interactive: true, Compact: true, Scope: "@e40", Depth: 3, Full: true}},
		{name: "negative depth", args: []string{"--depth", "-1"}, wantUsage: true},
		{name: "argument", args: []string{"e1"}, wantUsage: true},
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
	checkParse(t, NewCmdWait, func(o *WaitOptions) any { return o.Request }, []parseCase{
		{name: "text", args: []string{"--text", "Cart (1)"}, want: calls.WaitRequest{Text: "Cart (1)"}},
		{name: "gone", args: []string{"--gone", "Loading"}, want: calls.WaitRequest{Gone: "Loading"}},
		{name: "selector", args: []string{"--selector", "#done", "--timeout", "5s"}, want: calls.WaitRequest{Selector: "#done", TimeoutMS: 5000}},
		{name: "url", args: []string{"--url", "**/checkout"}, want: calls.WaitRequest{URL: "**/checkout"}},
		{name: "load", args: []string{"--load"}, want: calls.WaitRequest{Load: true}},
		{name: "ms", args: []string{"500"}, want: calls.WaitRequest{MS: 500}},
		{name: "duration", args: []string{"2s"}, want: calls.WaitRequest{MS: 2000}},
		{name: "nothing", wantUsage: true},
		{name: "two conditions", args: []string{"--text", "a", "--load"}, wantUsage: true},
		{name: "time and condition", args: []string{"500", "--text", "a"}, wantUsage: true},
		{name: "bad time", args: []string{"soon"}, wantUsage: true},
	})
}

func TestGetParse(t *testing.T) {
	checkParse(t, NewCmdGet, func(o *GetOptions) any { return o.Request }, []parseCase{
		{name: "title", args: []string{"title"}, want: calls.GetRequest{What: "title"}},
		{name: "url", args: []string{"url"}, want: calls.GetRequest{What: "url"}},
		{name: "text", args: []string{"text", "@e12"}, want: calls.GetRequest{What: "text", Target: "@e12"}},
		{name: "value", args: []string{"value", "e5"}, want: calls.GetRequest{What: "value", Target: "e5"}},
		{name: "attr", args: []string{"attr", "e12", "href"}, want: calls.GetRequest{What: "attr", Target: "e12", Name: "href"}},
		{name: "html", args: []string{"html", "e1"}, want: calls.GetRequest{What: "html", Target: "e1"}},
		{name: "count", args: []string{"count", "role=link"}, want: calls.GetRequest{What: "count", Target: "role=link"}},
		{name: "title extra", args: []string{"title", "x"}, wantUsage: true},
		{name: "text missing", args: []string{"text"}, wantUsage: true},
		{name: "attr missing name", args: []string{"attr", "e1"}, wantUsage: true},
		{name: "nothing", wantUsage: true},
		{name: "unknown", args: []string{"colour", "e1"}, wantUsage: true},
	})
}

func TestEvalParse(t *testing.T) {
	checkParse(t, NewCmdEval, func(o *EvalOptions) any { return o.Request }, []parseCase{
		{name: "expr", args: []string{"document.title"}, want: calls.EvalRequest{Expression: "document.title"}},
		{name: "main world", args: []string{"1+1", "--main-world"}, want: calls.EvalRequest{Expression: "1+1", MainWorld: true}},
		{name: "empty", args: []string{" "}, wantUsage: true},
		{name: "none", wantUsage: true},
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
	checkParse(t, NewCmdScreenshot, func(o *ScreenshotOptions) any { return shot{o.Request, o.Path} }, []parseCase{
		{name: "default", want: shot{}},
		{name: "path full", args: []string{"page.png", "--full"}, want: shot{calls.ScreenshotRequest{Full: true}, "page.png"}},
		{name: "ref", args: []string{"--ref", "@e12"}, want: shot{calls.ScreenshotRequest{Target: "@e12"}, ""}},
		{name: "masks", args: []string{"--mask", "@e4", "--mask", "label=API key"}, want: shot{calls.ScreenshotRequest{Mask: []string{"@e4", "label=API key"}}, ""}},
		{name: "two paths", args: []string{"a", "b"}, wantUsage: true},
	})
	checkParse(t, NewCmdPDF, func(o *PDFOptions) any { return o.Path }, []parseCase{
		{name: "path", args: []string{"a.pdf"}, want: "a.pdf"},
		{name: "none", wantUsage: true},
	})
}

func TestTabParse(t *testing.T) {
	checkParse(t, NewCmdTab, func(o *TabOptions) any { return o.Request }, []parseCase{
		{name: "bare lists", want: calls.TabRequest{Op: "list"}},
		{name: "list", args: []string{"list"}, want: calls.TabRequest{Op: "list"}},
		{name: "new", args: []string{"new"}, want: calls.TabRequest{Op: "new"}},
		{name: "new url", args: []string{"new", "https://a.test"}, want: calls.TabRequest{Op: "new", URL: "https://a.test"}},
		{name: "switch", args: []string{"switch", "2"}, want: calls.TabRequest{Op: "switch", Index: 2}},
		{name: "switch 0", args: []string{"switch", "0"}, want: calls.TabRequest{Op: "switch", Index: 0}},
		{name: "close current", args: []string{"close"}, want: calls.TabRequest{Op: "close", Index: -1}},
		{name: "close n", args: []string{"close", "1"}, want: calls.TabRequest{Op: "close", Index: 1}},
		{name: "switch none", args: []string{"switch"}, wantUsage: true},
		{name: "switch word", args: []string{"switch", "two"}, wantUsage: true},
		{name: "close negative", args: []string{"close", "-1"}, wantUsage: true},
		{name: "unknown", args: []string{"swich", "1"}, wantUsage: true},
	})
}

func TestCookiesParse(t *testing.T) {
	checkParse(t, NewCmdCookies, func(o *CookiesOptions) any { return o.Request }, []parseCase{
		{name: "bare gets", want: calls.CookieRequest{Op: "get"}},
		{name: "get", args: []string{"get"}, want: calls.CookieRequest{Op: "get"}},
		{name: "clear", args: []string{"clear"}, want: calls.CookieRequest{Op: "clear"}},
		{name: "set", args: []string{"set", "theme", "dark"},
			want: calls.CookieRequest{Op: "set", Cookies: []calls.Cookie{{Name: "theme", Value: "dark"}}}},
		{name: "set all flags", args: []string{"set", "sid", "x", "--url", "https://a.test", "--path", "/", "--http-only", "--secure", "--same-site", "lax", "--expires", "1700000000"},
			want: calls.CookieRequest{Op: "set", Cookies: []calls.Cookie{{Name: "sid", Value: "x", URL: "https://a.test", Path: "/", HTTPOnly: true, Secure: true, SameSite: "Lax", Expires: 1700000000}}}},
		{name: "set domain", args: []string{"set", "a", "b", "--domain", ".a.test"},
			want: calls.CookieRequest{Op: "set", Cookies: []calls.Cookie{{Name: "a", Value: "b", Domain: ".a.test"}}}},
		{name: "set url and domain", args: []string{"set", "a", "b", "--url", "https://a.test", "--domain", "a.test"}, wantUsage: true},
		{name: "set bad same-site", args: []string{"set", "a", "b", "--same-site", "sometimes"}, wantUsage: true},
		{name: "set no value", args: []string{"set", "a"}, wantUsage: true},
		{name: "unknown", args: []string{"delete"}, wantUsage: true},
	})
}

func TestStorageParse(t *testing.T) {
	checkParse(t, NewCmdStorage, func(o *StorageOptions) any { return o.Request }, []parseCase{
		{name: "local get all", args: []string{"local", "get"}, want: calls.StorageRequest{Area: "local", Op: "get"}},
		{name: "session get key", args: []string{"session", "get", "step"}, want: calls.StorageRequest{Area: "session", Op: "get", Key: "step"}},
		{name: "local set", args: []string{"local", "set", "k", "v"}, want: calls.StorageRequest{Area: "local", Op: "set", Key: "k", Value: "v"}},
		{name: "session clear", args: []string{"session", "clear"}, want: calls.StorageRequest{Area: "session", Op: "clear"}},
		{name: "no area", wantUsage: true},
		{name: "bad area", args: []string{"global", "get"}, wantUsage: true},
		{name: "no op", args: []string{"local"}, wantUsage: true},
		{name: "set no value", args: []string{"local", "set", "k"}, wantUsage: true},
	})
}

func TestStateParse(t *testing.T) {
	type st struct{ Op, Path string }
	checkParse(t, NewCmdState, func(o *StateOptions) any { return st{o.Op, o.Path} }, []parseCase{
		{name: "save", args: []string{"save", "auth.json"}, want: st{"save", "auth.json"}},
		{name: "load", args: []string{"load", "auth.json"}, want: st{"load", "auth.json"}},
		{name: "save no file", args: []string{"save"}, wantUsage: true},
		{name: "no op", wantUsage: true},
	})
}

func TestPageParse(t *testing.T) {
	checkParse(t, NewCmdViewport, func(o *ViewportOptions) any { return o.Request }, []parseCase{
		{name: "size", args: []string{"390", "844"}, want: calls.ViewportRequest{Width: 390, Height: 844}},
		{name: "zero", args: []string{"0", "844"}, wantUsage: true},
		{name: "word", args: []string{"wide", "844"}, wantUsage: true},
		{name: "one", args: []string{"390"}, wantUsage: true},
	})
	checkParse(t, NewCmdDialog, func(o *DialogOptions) any { return o.Request }, []parseCase{
		{name: "accept", args: []string{"accept"}, want: calls.DialogRequest{Accept: true}},
		{name: "accept text", args: []string{"accept", "my answer"}, want: calls.DialogRequest{Accept: true, Text: "my answer"}},
		{name: "dismiss", args: []string{"dismiss"}, want: calls.DialogRequest{}},
		{name: "dismiss text", args: []string{"dismiss", "x"}, wantUsage: true},
		{name: "none", wantUsage: true},
	})
}

func TestSessionAndDaemonParse(t *testing.T) {
	checkParse(t, NewCmdSession, func(o *SessionListOptions) any { return o.Session }, []parseCase{
		{name: "list", args: []string{"list"}, want: "s1"},
		{name: "none", wantUsage: true},
	})
	checkParse(t, NewCmdClose, func(o *CloseOptions) any { return o.All }, []parseCase{
		{name: "one", want: false},
		{name: "all", args: []string{"--all"}, want: true},
		{name: "argument", args: []string{"s2"}, wantUsage: true},
	})
	checkParse(t, NewCmdDaemonStop, func(o *DaemonCtlOptions) any { return o.Op }, []parseCase{
		{name: "stop", want: "stop"},
		{name: "extra", args: []string{"now"}, wantUsage: true},
	})
	checkParse(t, NewCmdDaemonStatus, func(o *DaemonCtlOptions) any { return o.Op }, []parseCase{{name: "status", want: "status"}})
	checkParse(t, NewCmdDaemonRestart, func(o *DaemonCtlOptions) any { return o.Op }, []parseCase{
		{name: "restart", want: "restart"},
		{name: "extra", args: []string{"now"}, wantUsage: true},
	})

	f, _, _, _ := clitest.NewFactory(&clitest.FakeCaller{})
	f.Globals = cmdutil.GlobalOptions{Socket: "/run/w.sock", ExecutablePath: "/usr/bin/chromium", Headed: true, CDP: "9222"}
	got, err := clitest.ParseWith(f, NewCmdDaemon, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(f.Globals, got.Globals); diff != "" {
		t.Errorf("daemon options (-want +got):\n%s", diff)
	}
	if _, err := clitest.ParseWith(f, NewCmdDaemon, []string{"stpo"}); err == nil {
		t.Error("daemon stpo: no error")
	}
}

func TestDemoParse(t *testing.T) {
	checkParse(t, NewCmdDemoServe, func(o *DemoServeOptions) any { return o.Addr }, []parseCase{
		{name: "default", want: "127.0.0.1:8080"},
		{name: "addr", args: []string{"--addr", "127.0.0.1:0"}, want: "127.0.0.1:0"},
		{name: "argument", args: []string{"x"}, wantUsage: true},
	})
	type demo struct {
		Session string
		Ready   time.Duration
	}
	checkParse(t, NewCmdDemo, func(o *DemoOptions) any { return demo{o.Session, o.ReadyTimeout} }, []parseCase{
		// s1 is the factory's session: an explicit one is kept.
		{name: "bare", want: demo{"s1", 10 * time.Second}},
		{name: "unknown", args: []string{"srve"}, wantUsage: true},
	})
}
