package cli

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/rpc"
)

// runCase runs one run function against canned results and checks what it
// printed.
type runCase struct {
	name       string
	results    map[string]any
	errs       map[string]error
	json, tty  bool
	run        func(ctx context.Context, c cmdutil.Common) error
	wantStdout string
	wantStderr string
	wantCalls  []string // methods, in order; nil skips the check
}

func checkRuns(t *testing.T, cases []runCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			fc := &clitest.FakeCaller{Results: tt.results, Errs: tt.errs}
			common, out, errOut := clitest.NewCommon(fc, tt.json, tt.tty)
			if err := tt.run(context.Background(), common); err != nil {
				t.Fatalf("err = %v", err)
			}
			if diff := cmp.Diff(tt.wantStdout, out.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantStderr, errOut.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if tt.wantCalls != nil {
				if diff := cmp.Diff(tt.wantCalls, fc.Methods()); diff != "" {
					t.Errorf("calls (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestPageRuns(t *testing.T) {
	page := calls.PageInfo{URL: "https://shop.test/", Title: "Shop"}
	snap := calls.Snapshot{URL: "https://shop.test/", Title: "Shop", Text: "[page] Shop\n- link \"Home\" [ref=e1]", Refs: 1, Tree: json.RawMessage(`{"role":"page"}`)}
	checkRuns(t, []runCase{
		{
			name:    "open",
			results: map[string]any{calls.MethodOpen: page},
			run: func(ctx context.Context, c cmdutil.Common) error {
				return openRun(ctx, &OpenOptions{Common: c, Request: calls.OpenRequest{URL: "shop.test"}})
			},
			wantStdout: "opened https://shop.test/ \"Shop\"\n",
			wantCalls:  []string{"open"},
		},
		{
			name:    "open shows an HTTP error status",
			results: map[string]any{calls.MethodOpen: calls.PageInfo{URL: "https://shop.test/x", Title: "Not found", Status: 404}},
			run: func(ctx context.Context, c cmdutil.Common) error {
				return openRun(ctx, &OpenOptions{Common: c, Request: calls.OpenRequest{URL: "shop.test/x"}})
			},
			wantStdout: "opened https://shop.test/x \"Not found\" (HTTP 404)\n",
		},
		{
			name:    "open json",
			results: map[string]any{calls.MethodOpen: page},
			json:    true,
			run: func(ctx context.Context, c cmdutil.Common) error {
				return openRun(ctx, &OpenOptions{Common: c})
			},
			wantStdout: `{"ok":true,"data":{"url":"https://shop.test/","title":"Shop"}}` + "\n",
		},
		{
			name:    "back",
			results: map[string]any{calls.MethodBack: page},
			run: func(ctx context.Context, c cmdutil.Common) error {
				return historyRun(ctx, &HistoryOptions{Common: c, Method: calls.MethodBack})
			},
			wantStdout: "went back → https://shop.test/ \"Shop\"\n",
			wantCalls:  []string{"back"},
		},
		{
			name: "reload with an empty answer",
			run: func(ctx context.Context, c cmdutil.Common) error {
				return historyRun(ctx, &HistoryOptions{Common: c, Method: calls.MethodReload})
			},
			wantStdout: "reloaded\n",
		},
		{
			name:    "snapshot prints the outline",
			results: map[string]any{calls.MethodSnapshot: snap},
			run: func(ctx context.Context, c cmdutil.Common) error {
				return snapshotRun(ctx, &SnapshotOptions{Common: c})
			},
			wantStdout: "[page] Shop\n- link \"Home\" [ref=e1]\n",
		},
		{
			name:    "snapshot json carries the tree",
			results: map[string]any{calls.MethodSnapshot: snap},
			json:    true,
			run: func(ctx context.Context, c cmdutil.Common) error {
				return snapshotRun(ctx, &SnapshotOptions{Common: c, Request: calls.SnapshotRequest{Tree: true}})
			},
			wantStdout: `{"ok":true,"data":{"url":"https://shop.test/","title":"Shop","text":"[page] Shop\n- link \"Home\" [ref=e1]","tree":{"role":"page"},"refs":1}}` + "\n",
		},
		{
			name: "wait",
			run: func(ctx context.Context, c cmdutil.Common) error {
				return waitRun(ctx, &WaitOptions{Common: c, Request: calls.WaitRequest{Text: "Cart (1)"}})
			},
			wantStderr: "waited for text \"Cart (1)\"\n",
		},
		{
			name:    "wait json says where the tab is",
			results: map[string]any{calls.MethodWait: page},
			json:    true,
			run: func(ctx context.Context, c cmdutil.Common) error {
				return waitRun(ctx, &WaitOptions{Common: c, Request: calls.WaitRequest{MS: 500}})
			},
			wantStdout: `{"ok":true,"data":{"url":"https://shop.test/","title":"Shop"}}` + "\n",
		},
		{
			name:    "eval prints JSON",
			results: map[string]any{calls.MethodEval: calls.EvalResult{Value: json.RawMessage(`{"a":[1,2]}`)}},
			run: func(ctx context.Context, c cmdutil.Common) error {
				return evalRun(ctx, &EvalOptions{Common: c, Request: calls.EvalRequest{Expression: "x"}})
			},
			wantStdout: "{\"a\":[1,2]}\n",
		},
		{
			name:    "eval string stays quoted",
			results: map[string]any{calls.MethodEval: calls.EvalResult{Value: json.RawMessage(`"Shop"`)}},
			run: func(ctx context.Context, c cmdutil.Common) error {
				return evalRun(ctx, &EvalOptions{Common: c, Request: calls.EvalRequest{Expression: "document.title"}})
			},
			wantStdout: "\"Shop\"\n",
		},
		{
			name: "viewport",
			run: func(ctx context.Context, c cmdutil.Common) error {
				return viewportRun(ctx, &ViewportOptions{Common: c, Request: calls.ViewportRequest{Width: 390, Height: 844}})
			},
			wantStderr: "viewport set to 390×844\n",
		},
		{
			name: "dialog accept",
			run: func(ctx context.Context, c cmdutil.Common) error {
				return dialogRun(ctx, &DialogOptions{Common: c, Request: calls.DialogRequest{Accept: true}})
			},
			wantStderr: "accepted the dialog\n",
		},
	})
}

func TestGetRun(t *testing.T) {
	get := func(r calls.GetRequest) func(context.Context, cmdutil.Common) error {
		return func(ctx context.Context, c cmdutil.Common) error {
			return getRun(ctx, &GetOptions{Common: c, Request: r})
		}
	}
	checkRuns(t, []runCase{
		{
			name:       "title",
			results:    map[string]any{calls.MethodGet: calls.GetResult{Value: "Shop"}},
			run:        get(calls.GetRequest{What: "title"}),
			wantStdout: "Shop\n",
		},
		{
			name:       "count",
			results:    map[string]any{calls.MethodGet: calls.GetResult{Count: 7}},
			run:        get(calls.GetRequest{What: "count", Target: "role=link"}),
			wantStdout: "7\n",
		},
		{
			name:       "attr missing",
			results:    map[string]any{calls.MethodGet: calls.GetResult{Found: false}},
			run:        get(calls.GetRequest{What: "attr", Target: "e1", Name: "href"}),
			wantStderr: "e1 has no attribute \"href\"\n",
		},
		{
			name:       "attr empty",
			results:    map[string]any{calls.MethodGet: calls.GetResult{Found: true}},
			run:        get(calls.GetRequest{What: "attr", Target: "e1", Name: "alt"}),
			wantStdout: "\n",
		},
		{
			name:       "a page's escape sequence on a terminal",
			tty:        true,
			results:    map[string]any{calls.MethodGet: calls.GetResult{Value: "Sh\x1b[2Jop\x1b]52;c;aGk=\x07\u009b\n\tend"}},
			run:        get(calls.GetRequest{What: "text", Target: "e1"}),
			wantStdout: `Sh\x1b[2Jop\x1b]52;c;aGk=\x07\x9b` + "\n\tend\n",
		},
		{
			name:       "text of a field: the note names get value",
			results:    map[string]any{calls.MethodGet: calls.GetResult{Found: true, Note: `the text of a field is not what is typed in it; read that with "waymark get value e1"`}},
			run:        get(calls.GetRequest{What: "text", Target: "e1"}),
			wantStdout: "\n",
			wantStderr: `the text of a field is not what is typed in it; read that with "waymark get value e1"` + "\n",
		},
		{
			name:       "the same bytes to a pipe",
			results:    map[string]any{calls.MethodGet: calls.GetResult{Value: "Sh\x1b[2Jop"}},
			run:        get(calls.GetRequest{What: "text", Target: "e1"}),
			wantStdout: "Sh\x1b[2Jop\n",
		},
		{
			name:       "json",
			results:    map[string]any{calls.MethodGet: calls.GetResult{Value: "/cart", Found: true}},
			json:       true,
			run:        get(calls.GetRequest{What: "attr", Target: "e1", Name: "href"}),
			wantStdout: `{"ok":true,"data":{"value":"/cart","found":true}}` + "\n",
		},
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
	checkRuns(t, []runCase{
		{
			name:       "list tty",
			tty:        true,
			results:    map[string]any{calls.MethodTab: tabs},
			run:        tab(calls.TabRequest{Op: "list"}),
			wantStdout: "TAB     URL                  TITLE\n0       https://a.test/      A\n1    *  https://b.test/long  B side\n",
		},
		{
			name:       "list not a tty",
			results:    map[string]any{calls.MethodTab: tabs},
			run:        tab(calls.TabRequest{Op: "list"}),
			wantStdout: "0\t\thttps://a.test/\tA\n1\t*\thttps://b.test/long\tB side\n",
		},
		{
			name:       "switch",
			results:    map[string]any{calls.MethodTab: tabs},
			run:        tab(calls.TabRequest{Op: "switch", Index: 1}),
			wantStderr: "switched to tab 1: https://b.test/long \"B\\tside\"\n",
		},
		{
			name:       "list json",
			json:       true,
			results:    map[string]any{calls.MethodTab: calls.TabList{Tabs: tabs.Tabs[:1]}},
			run:        tab(calls.TabRequest{Op: "list"}),
			wantStdout: `{"ok":true,"data":{"tabs":[{"index":0,"url":"https://a.test/","title":"A","current":false}]}}` + "\n",
		},
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
	checkRuns(t, []runCase{
		{
			name:    "cookies get",
			results: map[string]any{calls.MethodCookies: cookies},
			run: func(ctx context.Context, c cmdutil.Common) error {
				return cookiesRun(ctx, &CookiesOptions{Common: c, Request: calls.CookieRequest{Op: "get"}})
			},
			wantStdout: "sid\tabc\ta.test\t/\thttponly,secure\n",
		},
		{
			name: "cookies set",
			run: func(ctx context.Context, c cmdutil.Common) error {
				return cookiesRun(ctx, &CookiesOptions{Common: c, Request: calls.CookieRequest{Op: "set", Cookies: []calls.Cookie{{Name: "theme"}}}})
			},
			wantStderr: "set cookie theme\n",
		},
		{
			name:       "storage get all, sorted",
			results:    map[string]any{calls.MethodStorage: items},
			run:        storage(calls.StorageRequest{Area: "local", Op: "get"}),
			wantStdout: "a\t1\nb\t2\n",
		},
		{
			name:       "storage get key",
			results:    map[string]any{calls.MethodStorage: items},
			run:        storage(calls.StorageRequest{Area: "local", Op: "get", Key: "b"}),
			wantStdout: "2\n",
		},
		{
			name:       "storage get missing key",
			results:    map[string]any{calls.MethodStorage: items},
			run:        storage(calls.StorageRequest{Area: "session", Op: "get", Key: "zz"}),
			wantStderr: "no \"zz\" in session storage\n",
		},
	})
}

func TestDaemonRuns(t *testing.T) {
	noDaemon := map[string]error{
		rpc.MethodDaemonStop: cmdutil.ErrNoDaemon, rpc.MethodDaemonStatus: cmdutil.ErrNoDaemon,
		rpc.MethodSessionList: cmdutil.ErrNoDaemon, rpc.MethodSessionClose: cmdutil.ErrNoDaemon,
	}
	status := rpc.DaemonStatus{PID: 42, Version: "v1", Socket: "/run/w.sock", UptimeMS: 61_500, Sessions: 2}
	ctl := func(op string) func(context.Context, cmdutil.Common) error {
		return func(ctx context.Context, c cmdutil.Common) error {
			o := &DaemonCtlOptions{Common: c, Op: op}
			if op == "stop" {
				return daemonStopRun(ctx, o)
			}
			return daemonStatusRun(ctx, o)
		}
	}
	checkRuns(t, []runCase{
		{name: "stop", run: ctl("stop"), wantStderr: "daemon stopped\n", wantCalls: []string{rpc.MethodDaemonStop}},
		{name: "stop with none running", errs: noDaemon, run: ctl("stop"), wantStderr: "no daemon running\n"},
		{name: "stop with none running json", errs: noDaemon, json: true, run: ctl("stop"), wantStdout: `{"ok":true,"data":{"stopped":false}}` + "\n"},
		{
			name: "status", results: map[string]any{rpc.MethodDaemonStatus: status}, run: ctl("status"),
			wantStdout: "pid:      42\nversion:  v1\nsocket:   /run/w.sock\nuptime:   1m2s\nbrowser:  (not started yet)\nsessions: 2\n",
		},
		{name: "status with none running", errs: noDaemon, run: ctl("status"), wantStdout: "no daemon running\n"},
		{name: "status with none running json", errs: noDaemon, json: true, run: ctl("status"), wantStdout: `{"ok":true,"data":{"running":false}}` + "\n"},
		{
			name: "status json", json: true, results: map[string]any{rpc.MethodDaemonStatus: status}, run: ctl("status"),
			wantStdout: `{"ok":true,"data":{"running":true,"pid":42,"version":"v1","socket":"/run/w.sock","uptime_ms":61500,"browser":"","sessions":2}}` + "\n",
		},
		{
			name: "session list", tty: true,
			results: map[string]any{rpc.MethodSessionList: rpc.SessionList{Sessions: []rpc.SessionInfo{{Name: "s1", Tabs: 2, URL: "https://a.test/"}, {Name: "ci", Tabs: 1}}}},
			run: func(ctx context.Context, c cmdutil.Common) error {
				return sessionListRun(ctx, &SessionListOptions{Common: c})
			},
			wantStdout: "SESSION     TABS  URL\ns1       *  2     https://a.test/\nci          1     \n",
		},
		{
			name: "session list leaves a batch's workers out", tty: true,
			results: map[string]any{rpc.MethodSessionList: rpc.SessionList{Sessions: []rpc.SessionInfo{{Name: "s1", Tabs: 2, URL: "https://a.test/"}, {Name: rpc.WorkerSession("daemon-vm", 0, 3), Tabs: 1, Batch: true}}}},
			run: func(ctx context.Context, c cmdutil.Common) error {
				return sessionListRun(ctx, &SessionListOptions{Common: c})
			},
			wantStdout: "SESSION     TABS  URL\ns1       *  2     https://a.test/\n",
			wantStderr: "1 session of batch workers not listed; --all lists them\n",
		},
		{
			name: "session list json leaves them out and counts them", json: true,
			results: map[string]any{rpc.MethodSessionList: rpc.SessionList{Sessions: []rpc.SessionInfo{{Name: rpc.WorkerSession("daemon-vm", 0, 3), Tabs: 1, Batch: true}}}},
			run: func(ctx context.Context, c cmdutil.Common) error {
				return sessionListRun(ctx, &SessionListOptions{Common: c})
			},
			wantStdout: `{"ok":true,"data":{"sessions":[],"hidden":1}}` + "\n",
		},
		{
			name: "session list --all marks them", json: true,
			results: map[string]any{rpc.MethodSessionList: rpc.SessionList{Sessions: []rpc.SessionInfo{{Name: rpc.WorkerSession("daemon-vm", 0, 3), Tabs: 1, Batch: true}}}},
			run: func(ctx context.Context, c cmdutil.Common) error {
				return sessionListRun(ctx, &SessionListOptions{Common: c, All: true})
			},
			wantStdout: `{"ok":true,"data":{"sessions":[{"name":"batch+daemon-vm-0-3","tabs":1,"url":"","batch":true}]}}` + "\n",
		},
		{
			name: "session list with none running", errs: noDaemon, json: true,
			run: func(ctx context.Context, c cmdutil.Common) error {
				return sessionListRun(ctx, &SessionListOptions{Common: c})
			},
			wantStdout: `{"ok":true,"data":{"sessions":[]}}` + "\n",
		},
		{
			name: "close",
			run: func(ctx context.Context, c cmdutil.Common) error {
				return closeRun(ctx, &CloseOptions{Common: c})
			},
			wantStderr: "closed session \"s1\"\n",
			wantCalls:  []string{rpc.MethodSessionClose},
		},
		{
			name: "close all",
			run: func(ctx context.Context, c cmdutil.Common) error {
				return closeRun(ctx, &CloseOptions{Common: c, All: true})
			},
			wantStderr: "closed all sessions\n",
			wantCalls:  []string{rpc.MethodSessionCloseAll},
		},
		{
			name: "close with none running", errs: noDaemon,
			run: func(ctx context.Context, c cmdutil.Common) error {
				return closeRun(ctx, &CloseOptions{Common: c})
			},
			wantStderr: "no daemon running; nothing to close\n",
		},
	})
}
