package page

import (
	"context"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

func TestCookiesParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdCookies, func(o *CookiesOptions) any { return o.Request }, []clitest.ParseCase{
		{Name: "bare gets", Want: calls.CookieRequest{Op: "get"}},
		{Name: "get", Args: []string{"get"}, Want: calls.CookieRequest{Op: "get"}},
		{Name: "clear", Args: []string{"clear"}, Want: calls.CookieRequest{Op: "clear"}},
		{Name: "set", Args: []string{"set", "theme", "dark"},
			Want: calls.CookieRequest{Op: "set", Cookies: []calls.Cookie{{Name: "theme", Value: "dark"}}}},
		{Name: "set all flags", Args: []string{"set", "sid", "x", "--url", "https://a.test", "--path", "/", "--http-only", "--secure", "--same-site", "lax", "--expires", "1700000000"},
			Want: calls.CookieRequest{Op: "set", Cookies: []calls.Cookie{{Name: "sid", Value: "x", URL: "https://a.test", Path: "/", HTTPOnly: true, Secure: true, SameSite: "Lax", Expires: 1700000000}}}},
		{Name: "set domain", Args: []string{"set", "a", "b", "--domain", ".a.test"},
			Want: calls.CookieRequest{Op: "set", Cookies: []calls.Cookie{{Name: "a", Value: "b", Domain: ".a.test"}}}},
		{Name: "set url and domain", Args: []string{"set", "a", "b", "--url", "https://a.test", "--domain", "a.test"}, WantUsage: true},
		{Name: "set bad same-site", Args: []string{"set", "a", "b", "--same-site", "sometimes"}, WantUsage: true},
		{Name: "set no value", Args: []string{"set", "a"}, WantUsage: true},
		{Name: "unknown", Args: []string{"delete"}, WantUsage: true},
	})
}

func TestStorageParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdStorage, func(o *StorageOptions) any { return o.Request }, []clitest.ParseCase{
		{Name: "local get all", Args: []string{"local", "get"}, Want: calls.StorageRequest{Area: "local", Op: "get"}},
		{Name: "session get key", Args: []string{"session", "get", "step"}, Want: calls.StorageRequest{Area: "session", Op: "get", Key: "step"}},
		{Name: "local set", Args: []string{"local", "set", "k", "v"}, Want: calls.StorageRequest{Area: "local", Op: "set", Key: "k", Value: "v"}},
		{Name: "session clear", Args: []string{"session", "clear"}, Want: calls.StorageRequest{Area: "session", Op: "clear"}},
		{Name: "no area", WantUsage: true},
		{Name: "bad area", Args: []string{"global", "get"}, WantUsage: true},
		{Name: "no op", Args: []string{"local"}, WantUsage: true},
		{Name: "set no value", Args: []string{"local", "set", "k"}, WantUsage: true},
	})
}

func TestStateParse(t *testing.T) {
	type st struct{ Op, Path string }
	clitest.CheckParse(t, NewCmdState, func(o *StateOptions) any { return st{o.Op, o.Path} }, []clitest.ParseCase{
		{Name: "save", Args: []string{"save", "auth.json"}, Want: st{"save", "auth.json"}},
		{Name: "load", Args: []string{"load", "auth.json"}, Want: st{"load", "auth.json"}},
		{Name: "save no file", Args: []string{"save"}, WantUsage: true},
		{Name: "no op", WantUsage: true},
	})
}

func TestPageParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdViewport, func(o *ViewportOptions) any { return o.Request }, []clitest.ParseCase{
		{Name: "size", Args: []string{"390", "844"}, Want: calls.ViewportRequest{Width: 390, Height: 844}},
		{Name: "zero", Args: []string{"0", "844"}, WantUsage: true},
		{Name: "word", Args: []string{"wide", "844"}, WantUsage: true},
		{Name: "one", Args: []string{"390"}, WantUsage: true},
	})
	clitest.CheckParse(t, NewCmdDialog, func(o *DialogOptions) any { return o.Request }, []clitest.ParseCase{
		{Name: "accept", Args: []string{"accept"}, Want: calls.DialogRequest{Accept: true}},
		{Name: "accept text", Args: []string{"accept", "my answer"}, Want: calls.DialogRequest{Accept: true, Text: "my answer"}},
		// Accepting a confirm presses what it asks: the gate of a plain
		// element command.
		{Name: "accept ask", Args: []string{"accept", "--ask-submit"}, Want: calls.DialogRequest{Accept: true, Submits: "ask"}},
		{Name: "accept allow", Args: []string{"accept", "--allow-submit"}, Want: calls.DialogRequest{Accept: true}},
		{Name: "dismiss", Args: []string{"dismiss"}, Want: calls.DialogRequest{}},
		{Name: "dismiss text", Args: []string{"dismiss", "x"}, WantUsage: true},
		{Name: "none", WantUsage: true},
	})
}

func TestCookiesAndStorageRun(t *testing.T) {
	cookies := calls.CookieList{Cookies: []calls.Cookie{{Name: "sid", Value: "abc", Domain: "a.test", Path: "/", HTTPOnly: true, Secure: true}}}
	items := calls.StorageItems{Items: map[string]string{"b": "2", "a": "1"}}
	storage := func(r calls.StorageRequest) func(context.Context, cmdutil.Common) error {
		return func(ctx context.Context, c cmdutil.Common) error {
			return storageRun(ctx, &StorageOptions{Common: c, Request: r})
		}
	}
	clitest.CheckRuns(t, []clitest.RunCase{
		{
			Name:    "cookies get",
			Results: map[string]any{calls.MethodCookies: cookies},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return cookiesRun(ctx, &CookiesOptions{Common: c, Request: calls.CookieRequest{Op: "get"}})
			},
			WantStdout: "sid\tabc\ta.test\t/\thttponly,secure\n",
		},
		{
			Name: "cookies set",
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return cookiesRun(ctx, &CookiesOptions{Common: c, Request: calls.CookieRequest{Op: "set", Cookies: []calls.Cookie{{Name: "theme"}}}})
			},
			WantStderr: "set cookie theme\n",
		},
		{
			Name:       "storage get all, sorted",
			Results:    map[string]any{calls.MethodStorage: items},
			Run:        storage(calls.StorageRequest{Area: "local", Op: "get"}),
			WantStdout: "a\t1\nb\t2\n",
		},
		{
			Name:       "storage get key",
			Results:    map[string]any{calls.MethodStorage: items},
			Run:        storage(calls.StorageRequest{Area: "local", Op: "get", Key: "b"}),
			WantStdout: "2\n",
		},
		{
			Name:       "storage get missing key",
			Results:    map[string]any{calls.MethodStorage: items},
			Run:        storage(calls.StorageRequest{Area: "session", Op: "get", Key: "zz"}),
			WantStderr: "no \"zz\" in session storage\n",
		},
	})
}

// The page-state commands say what they set (split from the flat package's TestPageRuns).
func TestPageStateRuns(t *testing.T) {
	clitest.CheckRuns(t, []clitest.RunCase{
		{
			Name: "viewport",
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return viewportRun(ctx, &ViewportOptions{Common: c, Request: calls.ViewportRequest{Width: 390, Height: 844}})
			},
			WantStderr: "viewport set to 390×844\n",
		},
		{
			Name: "dialog accept",
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return dialogRun(ctx, &DialogOptions{Common: c, Request: calls.DialogRequest{Accept: true}})
			},
			WantStderr: "accepted the dialog\n",
		},
	})
}

// dialog accept --secret answers a prompt with a value read from the
// environment and names it, so the session registers it before it is
// typed; TEXT and --secret together are a usage error.
func TestDialogAcceptSecret(t *testing.T) {
	f, _, _, _ := clitest.NewFactory(&clitest.FakeCaller{})
	f.Getenv = func(name string) string {
		if name == "VAULT_PIN" {
			return "4821-blue"
		}
		return ""
	}
	got, err := clitest.ParseWith(f, NewCmdDialog, []string{"accept", "--secret", "pin=env:VAULT_PIN"})
	if err != nil {
		t.Fatal(err)
	}
	if want := (calls.DialogRequest{Accept: true, Text: "4821-blue", Secret: "pin"}); got.Request != want {
		t.Errorf("request %+v, want %+v", got.Request, want)
	}
	if _, err := clitest.ParseWith(f, NewCmdDialog, []string{"accept", "1234", "--secret", "pin=env:VAULT_PIN"}); err == nil {
		t.Error("TEXT and --secret together: no error")
	}
}
