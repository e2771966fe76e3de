package nav

import (
	"context"
	"testing"

	"github.com/spf13/cobra"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
)

func TestOpenParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdOpen, func(o *OpenOptions) any { return o.Request }, []clitest.ParseCase{
		{Name: "url", Args: []string{"example.com"}, Want: calls.OpenRequest{URL: "example.com"}},
		{Name: "timeout", Args: []string{"https://a.test", "--timeout", "1m"}, Want: calls.OpenRequest{URL: "https://a.test", TimeoutMS: 60000}},
		{Name: "no url", WantUsage: true},
		{Name: "two urls", Args: []string{"a", "b"}, WantUsage: true},
	})
}

func TestHistoryParse(t *testing.T) {
	for _, c := range []struct {
		build  func(*cmdutil.Factory, func(context.Context, *HistoryOptions) error) *cobra.Command
		method string
	}{{NewCmdBack, calls.MethodBack}, {NewCmdForward, calls.MethodForward}, {NewCmdReload, calls.MethodReload}} {
		clitest.CheckParse(t, c.build, func(o *HistoryOptions) any { return o.Method }, []clitest.ParseCase{
			{Name: c.method, Want: c.method},
			{Name: c.method + " extra", Args: []string{"x"}, WantUsage: true},
		})
	}
}

func TestTabParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdTab, func(o *TabOptions) any { return o.Request }, []clitest.ParseCase{
		{Name: "bare lists", Want: calls.TabRequest{Op: "list"}},
		{Name: "list", Args: []string{"list"}, Want: calls.TabRequest{Op: "list"}},
		{Name: "new", Args: []string{"new"}, Want: calls.TabRequest{Op: "new"}},
		{Name: "new url", Args: []string{"new", "https://a.test"}, Want: calls.TabRequest{Op: "new", URL: "https://a.test"}},
		{Name: "switch", Args: []string{"switch", "2"}, Want: calls.TabRequest{Op: "switch", Index: 2}},
		{Name: "switch 0", Args: []string{"switch", "0"}, Want: calls.TabRequest{Op: "switch", Index: 0}},
		{Name: "close current", Args: []string{"close"}, Want: calls.TabRequest{Op: "close", Index: -1}},
		{Name: "close n", Args: []string{"close", "1"}, Want: calls.TabRequest{Op: "close", Index: 1}},
		{Name: "switch none", Args: []string{"switch"}, WantUsage: true},
		{Name: "switch word", Args: []string{"switch", "two"}, WantUsage: true},
		{Name: "close negative", Args: []string{"close", "-1"}, WantUsage: true},
		{Name: "unknown", Args: []string{"swich", "1"}, WantUsage: true},
	})
}

func TestTabRun(t *testing.T) {
	tabs := calls.TabList{Tabs: []calls.TabInfo{
		{Index: 0, URL: "https://a.test/", Title: "A", Current: false},
		{Index: 1, URL: "https://b.test/long", Title: "B\tside", Current: true},
	}}
	tab := func(r calls.TabRequest) func(context.Context, cmdutil.Common) error {
		return func(ctx context.Context, c cmdutil.Common) error {
			return tabRun(ctx, &TabOptions{Common: c, Request: r})
		}
	}
	clitest.CheckRuns(t, []clitest.RunCase{
		{
			Name:       "list tty",
			TTY:        true,
			Results:    map[string]any{calls.MethodTab: tabs},
			Run:        tab(calls.TabRequest{Op: "list"}),
			WantStdout: "TAB     URL                  TITLE\n0       https://a.test/      A\n1    *  https://b.test/long  B side\n",
		},
		{
			Name:       "list not a tty",
			Results:    map[string]any{calls.MethodTab: tabs},
			Run:        tab(calls.TabRequest{Op: "list"}),
			WantStdout: "0\t\thttps://a.test/\tA\n1\t*\thttps://b.test/long\tB side\n",
		},
		{
			Name:       "switch",
			Results:    map[string]any{calls.MethodTab: tabs},
			Run:        tab(calls.TabRequest{Op: "switch", Index: 1}),
			WantStderr: "switched to tab 1: https://b.test/long \"B\\tside\"\n",
		},
		{
			Name:       "list json",
			JSON:       true,
			Results:    map[string]any{calls.MethodTab: calls.TabList{Tabs: tabs.Tabs[:1]}},
			Run:        tab(calls.TabRequest{Op: "list"}),
			WantStdout: `{"ok":true,"data":{"tabs":[{"index":0,"url":"https://a.test/","title":"A","current":false}]}}` + "\n",
		},
	})
}

// The navigation commands print where the tab landed (split from the flat package's TestPageRuns).
func TestPageRuns(t *testing.T) {
	page := calls.PageInfo{URL: "https://shop.test/", Title: "Shop"}
	clitest.CheckRuns(t, []clitest.RunCase{
		{
			Name:    "open",
			Results: map[string]any{calls.MethodOpen: page},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return openRun(ctx, &OpenOptions{Common: c, Request: calls.OpenRequest{URL: "shop.test"}})
			},
			WantStdout: "opened https://shop.test/ \"Shop\"\n",
			WantCalls:  []string{"open"},
		},
		{
			Name:    "open shows an HTTP error status",
			Results: map[string]any{calls.MethodOpen: calls.PageInfo{URL: "https://shop.test/x", Title: "Not found", Status: 404}},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return openRun(ctx, &OpenOptions{Common: c, Request: calls.OpenRequest{URL: "shop.test/x"}})
			},
			WantStdout: "opened https://shop.test/x \"Not found\" (HTTP 404)\n",
		},
		{
			Name:    "open json",
			Results: map[string]any{calls.MethodOpen: page},
			JSON:    true,
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return openRun(ctx, &OpenOptions{Common: c})
			},
			WantStdout: `{"ok":true,"data":{"url":"https://shop.test/","title":"Shop"}}` + "\n",
		},
		{
			Name:    "back",
			Results: map[string]any{calls.MethodBack: page},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return historyRun(ctx, &HistoryOptions{Common: c, Method: calls.MethodBack})
			},
			WantStdout: "went back → https://shop.test/ \"Shop\"\n",
			WantCalls:  []string{"back"},
		},
		{
			Name: "reload with an empty answer",
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return historyRun(ctx, &HistoryOptions{Common: c, Method: calls.MethodReload})
			},
			WantStdout: "reloaded\n",
		},
	})
}
