package session

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/waymark-dev/waymark/internal/cli/clitest"
	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/rpc"
)

func TestSessionAndDaemonParse(t *testing.T) {
	clitest.CheckParse(t, NewCmdSession, func(o *SessionListOptions) any { return o.Session }, []clitest.ParseCase{
		{Name: "list", Args: []string{"list"}, Want: "s1"},
		{Name: "none", WantUsage: true},
	})
	clitest.CheckParse(t, NewCmdClose, func(o *CloseOptions) any { return o.All }, []clitest.ParseCase{
		{Name: "one", Want: false},
		{Name: "all", Args: []string{"--all"}, Want: true},
		{Name: "argument", Args: []string{"s2"}, WantUsage: true},
	})
	clitest.CheckParse(t, NewCmdDaemonStop, func(o *DaemonCtlOptions) any { return o.Op }, []clitest.ParseCase{
		{Name: "stop", Want: "stop"},
		{Name: "extra", Args: []string{"now"}, WantUsage: true},
	})
	clitest.CheckParse(t, NewCmdDaemonStatus, func(o *DaemonCtlOptions) any { return o.Op }, []clitest.ParseCase{{Name: "status", Want: "status"}})
	clitest.CheckParse(t, NewCmdDaemonRestart, func(o *DaemonCtlOptions) any { return o.Op }, []clitest.ParseCase{
		{Name: "restart", Want: "restart"},
		{Name: "extra", Args: []string{"now"}, WantUsage: true},
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
	clitest.CheckRuns(t, []clitest.RunCase{
		{Name: "stop", Run: ctl("stop"), WantStderr: "daemon stopped\n", WantCalls: []string{rpc.MethodDaemonStop}},
		{Name: "stop with none running", Errs: noDaemon, Run: ctl("stop"), WantStderr: "no daemon running\n"},
		{Name: "stop with none running json", Errs: noDaemon, JSON: true, Run: ctl("stop"), WantStdout: `{"ok":true,"data":{"stopped":false}}` + "\n"},
		{
			Name: "status", Results: map[string]any{rpc.MethodDaemonStatus: status}, Run: ctl("status"),
			WantStdout: "pid:      42\nversion:  v1\nsocket:   /run/w.sock\nuptime:   1m2s\nbrowser:  (not started yet)\nsessions: 2\n",
		},
		{Name: "status with none running", Errs: noDaemon, Run: ctl("status"), WantStdout: "no daemon running\n"},
		{Name: "status with none running json", Errs: noDaemon, JSON: true, Run: ctl("status"), WantStdout: `{"ok":true,"data":{"running":false}}` + "\n"},
		{
			Name: "status json", JSON: true, Results: map[string]any{rpc.MethodDaemonStatus: status}, Run: ctl("status"),
			WantStdout: `{"ok":true,"data":{"running":true,"pid":42,"version":"v1","socket":"/run/w.sock","uptime_ms":61500,"browser":"","sessions":2}}` + "\n",
		},
		{
			Name: "session list", TTY: true,
			Results: map[string]any{rpc.MethodSessionList: rpc.SessionList{Sessions: []rpc.SessionInfo{{Name: "s1", Tabs: 2, URL: "https://a.test/"}, {Name: "ci", Tabs: 1}}}},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return sessionListRun(ctx, &SessionListOptions{Common: c})
			},
			WantStdout: "SESSION     TABS  URL\ns1       *  2     https://a.test/\nci          1     \n",
		},
		{
			Name: "session list leaves a batch's workers out", TTY: true,
			Results: map[string]any{rpc.MethodSessionList: rpc.SessionList{Sessions: []rpc.SessionInfo{{Name: "s1", Tabs: 2, URL: "https://a.test/"}, {Name: rpc.WorkerSession("daemon-vm", 0, 3), Tabs: 1, Batch: true}}}},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return sessionListRun(ctx, &SessionListOptions{Common: c})
			},
			WantStdout: "SESSION     TABS  URL\ns1       *  2     https://a.test/\n",
			WantStderr: "1 session of batch workers not listed; --all lists them\n",
		},
		{
			Name: "session list json leaves them out and counts them", JSON: true,
			Results: map[string]any{rpc.MethodSessionList: rpc.SessionList{Sessions: []rpc.SessionInfo{{Name: rpc.WorkerSession("daemon-vm", 0, 3), Tabs: 1, Batch: true}}}},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return sessionListRun(ctx, &SessionListOptions{Common: c})
			},
			WantStdout: `{"ok":true,"data":{"sessions":[],"hidden":1}}` + "\n",
		},
		{
			Name: "session list --all marks them", JSON: true,
			Results: map[string]any{rpc.MethodSessionList: rpc.SessionList{Sessions: []rpc.SessionInfo{{Name: rpc.WorkerSession("daemon-vm", 0, 3), Tabs: 1, Batch: true}}}},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return sessionListRun(ctx, &SessionListOptions{Common: c, All: true})
			},
			WantStdout: `{"ok":true,"data":{"sessions":[{"name":"batch+daemon-vm-0-3","tabs":1,"url":"","batch":true}]}}` + "\n",
		},
		{
			Name: "session list with none running", Errs: noDaemon, JSON: true,
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return sessionListRun(ctx, &SessionListOptions{Common: c})
			},
			WantStdout: `{"ok":true,"data":{"sessions":[]}}` + "\n",
		},
		{
			Name:    "close",
			Results: map[string]any{rpc.MethodSessionList: rpc.SessionList{Sessions: []rpc.SessionInfo{{Name: "s1", Tabs: 1}}}},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return closeRun(ctx, &CloseOptions{Common: c})
			},
			WantStderr: "closed session \"s1\"\n",
			WantCalls:  []string{rpc.MethodSessionList, rpc.MethodSessionClose},
		},
		{
			// A mistyped --session: not taken for closed, and nothing
			// else is closed.
			Name: "close of a session that is not open", JSON: true,
			Results: map[string]any{rpc.MethodSessionList: rpc.SessionList{Sessions: []rpc.SessionInfo{{Name: "work", Tabs: 1}}}},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return closeRun(ctx, &CloseOptions{Common: c})
			},
			WantStdout: `{"ok":true,"data":{"closed":false,"session":"s1"}}` + "\n",
			WantCalls:  []string{rpc.MethodSessionList},
		},
		{
			Name:    "close of a session that is not open, said",
			Results: map[string]any{rpc.MethodSessionList: rpc.SessionList{}},
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return closeRun(ctx, &CloseOptions{Common: c})
			},
			WantStderr: "no session \"s1\" is open; nothing to close (`waymark session list` lists the open ones)\n",
			WantCalls:  []string{rpc.MethodSessionList},
		},
		{
			Name: "close all",
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return closeRun(ctx, &CloseOptions{Common: c, All: true})
			},
			WantStderr: "closed all sessions\n",
			WantCalls:  []string{rpc.MethodSessionCloseAll},
		},
		{
			Name: "close with none running", Errs: noDaemon,
			Run: func(ctx context.Context, c cmdutil.Common) error {
				return closeRun(ctx, &CloseOptions{Common: c})
			},
			WantStderr: "no daemon running; nothing to close\n",
		},
	})
}
