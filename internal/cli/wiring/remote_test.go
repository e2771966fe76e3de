package wiring

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/internal/cli/cmdutil"
	"github.com/waymark-dev/waymark/internal/cli/iostreams"
	"github.com/waymark-dev/waymark/internal/cli/root"
	"github.com/waymark-dev/waymark/internal/config"
)

// The daemon runs a command for the thin front only when nothing of it
// depends on the calling process but what the front sends: the decision is
// the command's own (remoteSafe), and any global flag that says how the
// daemon starts sends the command back to waymark-full.
func TestRemoteRefusal(t *testing.T) {
	for _, tc := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"get", "url"}, true},
		{[]string{"--json", "get", "title"}, true},
		{[]string{"get", "text", "@e3", "--session", "other"}, true},
		{[]string{"snapshot", "-i", "--changes"}, true},
		{[]string{"look", "-i"}, true},
		{[]string{"click", "@e3"}, true},
		{[]string{"fill", "@e5", "ann@example.com"}, true},
		{[]string{"press", "Enter"}, true},
		{[]string{"open", "http://127.0.0.1:1/"}, true},
		{[]string{"goto", "example.com", "--timeout", "5s"}, true},
		{[]string{"back"}, true},
		{[]string{"wait", "--text", "Done"}, true},
		{[]string{"tab", "switch", "1"}, true},
		{[]string{"tab"}, true},
		{[]string{"session", "list"}, true},
		{[]string{"click", "@e3", "--nosuch"}, true}, // the daemon prints waymark-full's usage error
		{[]string{"click"}, true},
		{[]string{"fill", "@e3", "--", "--headed"}, true}, // text, not a flag

		{nil, false},                                 // help
		{[]string{"--version"}, false},               // the root
		{[]string{"get"}, false},                     // a group: its usage
		{[]string{"nosuch"}, false},                  // an unknown command
		{[]string{"upload", "@e1", "cv.pdf"}, false}, // a file of the working folder
		{[]string{"eval", "-"}, false},               // stdin
		{[]string{"screenshot", "shot.png"}, false},  // writes a file
		{[]string{"state", "save", "s.json"}, false}, // writes a file
		{[]string{"daemon"}, false},                  // runs a daemon
		{[]string{"daemon", "stop"}, false},          // stops this one
		{[]string{"mcp"}, false},                     // a server
		{[]string{"batch", "rows.jsonl"}, false},     // a file
		{[]string{"act", "click the button"}, false}, // a model
		{[]string{"click", "@e3", "--help"}, false},  // help
		{[]string{"click", "-h"}, false},
		{[]string{"--headed", "click", "@e3"}, false}, // a daemon's setting
		{[]string{"get", "url", "--cdp", "9222"}, false},
		{[]string{"get", "url", "--socket", "/tmp/s"}, false},
		{[]string{"open", "x", "--executable-path", "chromium"}, false},
		{[]string{"open", "x", "--browser-arg=--lang=de"}, false},
		{[]string{"open", "x", "--netlog", "n.json"}, false},
		{[]string{"open", "x", "--private-network", "all"}, false},
	} {
		why, _ := remoteRefusal(tc.args)
		if (why == "") != tc.ok {
			t.Errorf("%q: refusal %q, want safe=%v", strings.Join(tc.args, " "), why, tc.ok)
		}
	}
}

// A command run for the front is run by a tree that holds its top-level
// command alone (root.Deps.Only): what it prints and its exit status are
// those of the whole tree, usage errors included.
func TestRemoteRunsAsTheWholeTree(t *testing.T) {
	run := func(args []string, only string) (int, string) {
		streams, _, out, errOut := iostreams.Test()
		code := root.MainWith(context.Background(), args, streams, root.Deps{
			Dial: func(context.Context, cmdutil.GlobalOptions, *config.Config, bool) (cmdutil.Caller, error) {
				return nil, errors.New("no daemon in this test")
			},
			Getenv: func(string) string { return "" },
			Config: func(flags []config.Flag) (*config.Config, error) {
				return config.Load(config.LoadOptions{Flags: flags})
			},
			Only: only,
		})
		return code, out.String() + "\n--- stderr\n" + errOut.String()
	}
	for _, args := range [][]string{
		{"get", "url"}, {"--json", "get", "title"}, {"look", "-i"}, {"click", "@e3", "--nosuch"}, {"click"},
		{"--json", "fill", "@e3"}, {"tab", "nosuch"}, {"goto", "example.com", "--timeout", "5s"}, {"session", "list"},
	} {
		why, top := remoteRefusal(args)
		if why != "" || top == "" {
			t.Fatalf("%q: refusal %q, top %q", args, why, top)
		}
		wantCode, want := run(args, "")
		code, got := run(args, top)
		if code != wantCode || got != want {
			t.Errorf("%q with only %q: exit %d, printed\n%s\nwant exit %d, printed\n%s", args, top, code, got, wantCode, want)
		}
	}
}
