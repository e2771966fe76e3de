package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

func TestPageFailuresAreToolErrors(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{"stale ref with hint",
			calls.Errorf(calls.ErrStaleRef, `take a new snapshot`, "no element [ref=e53] on the page now"),
			[]string{"no element [ref=e53] on the page now", "\nhint: take a new snapshot"}},
		{"covered",
			&calls.CoveredError{Target: "e3", By: `dialog "Cookies"`},
			[]string{`e3 is covered by dialog "Cookies"`}},
		{"no hint",
			errors.New("boom"),
			[]string{"boom"}},
		// An error that names its own code (the running daemon's
		// settings differ from the server's flags: the CLI says
		// daemon_settings) keeps it, as the CLI's JSON does.
		{"a code of its own",
			fmt.Errorf("open: %w", codedTestError{"daemon_settings"}),
			[]string{"started with other settings", "\nhint: run `waymark daemon restart`", "\ncode: daemon_settings"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &fakeCaller{reply: func(method string, _ any) (any, error) { return nil, tt.err }}
			cs := connect(t, Options{Caller: c})
			for _, tool := range []struct {
				name string
				args map[string]any
			}{
				{"click", map[string]any{"target": "e53"}},
				{"navigate", map[string]any{"url": "x"}},
				{"snapshot", nil},
				{"screenshot", nil},
			} {
				text, isErr, _ := callTool(t, cs, tool.name, tool.args)
				if !isErr {
					t.Errorf("%s: not a tool error: %q", tool.name, text)
				}
				for _, w := range tt.want {
					if !strings.Contains(text, w) {
						t.Errorf("%s: %q lacks %q", tool.name, text, w)
					}
				}
			}
		})
	}
}

// codedTestError is an error of a front's own category, as
// wiring.DaemonSettingsError is.
type codedTestError struct{ code string }

func (e codedTestError) Error() string {
	return "the running waymark daemon (pid 7) started with other settings, which it keeps until it restarts"
}
func (e codedTestError) ErrorCode() string { return e.code }
func (e codedTestError) ErrorHint() string { return "run `waymark daemon restart` with the same flags" }

func TestNoCaller(t *testing.T) {
	cs := connect(t, Options{})
	text, isErr, _ := callTool(t, cs, "snapshot", nil)
	if !isErr || !strings.Contains(text, "no browser connection") {
		t.Errorf("isError=%v %q", isErr, text)
	}
}

func fakeOutline(n int, extra ...string) string {
	lines := []string{"[page] http://shop.test/ \"Shop\""}
	for i := range n {
		lines = append(lines, fmt.Sprintf(`- link "Product %c" [ref=e%02d]`, 'A'+i, i))
	}
	return strings.Join(append(lines, extra...), "\n")
}

// The look after an action is the driver's --changes for this client: the
// reply is the action's line and what the driver gave, whatever it is
// (the changes, "no changes", a new page's outline with regions folded).
func TestActionRepliesWithTheDriversChanges(t *testing.T) {
	var looks []calls.SnapshotRequest
	answer := "[changes since your last look]\n+ - button \"Add to cart\" [ref=e99]\n"
	c := &fakeCaller{reply: func(method string, params any) (any, error) {
		if method == calls.MethodSnapshot {
			looks = append(looks, params.(calls.SnapshotRequest))
			return calls.Snapshot{Text: answer, Changed: true}, nil
		}
		return calls.Outcome{URL: "http://shop.test/", Title: "Shop"}, nil
	}}
	cs := connect(t, Options{Caller: c})
	got, _, _ := callTool(t, cs, "click", map[string]any{"target": "e02"})
	if want := "click e02: done\n" + strings.TrimSuffix(answer, "\n"); got != want {
		t.Errorf("reply:\n%s\nwant:\n%s", got, want)
	}
	callTool(t, cs, "snapshot", map[string]any{"interactive": true})
	// A second server on the same session (another client, a shell's
	// looks have no reader) reads under a reader of its own.
	other := connect(t, Options{Caller: c})
	callTool(t, other, "hover", map[string]any{"target": "e02"})
	if len(looks) != 3 {
		t.Fatalf("looks %+v", looks)
	}
	if !looks[0].Changes || looks[1].Changes || looks[0].Reader != looks[1].Reader || !strings.HasPrefix(looks[0].Reader, "mcp:") {
		t.Errorf("an action's look and the client's snapshot: %+v, %+v (want the same reader, changes only after the action)", looks[0], looks[1])
	}
	if looks[2].Reader == looks[0].Reader || !strings.HasPrefix(looks[2].Reader, "mcp:") {
		t.Errorf("two servers read under one reader: %q, %q", looks[0].Reader, looks[2].Reader)
	}
}

// A navigating action's reply names the page once: by "now at" when only
// changes follow, by the outline's [page] line when the whole outline does.
func TestANavigatingReplyNamesThePageOnce(t *testing.T) {
	outline := "[page] http://shop.test/cart \"Cart\"\n" + strings.Join(strings.Split(fakeOutline(20), "\n")[1:], "\n")
	current := outline // what the fake browser's look gives
	cs := connect(t, Options{Caller: &fakeCaller{reply: func(method string, params any) (any, error) {
		if method == calls.MethodAct {
			return calls.Outcome{URL: "http://shop.test/cart", Title: "Cart", Navigated: true}, nil
		}
		return calls.Snapshot{Text: current, Changed: !strings.HasPrefix(current, "[page] ")}, nil
	}}})
	got, _, _ := callTool(t, cs, "click", map[string]any{"target": "e01"})
	if want := "click e01: done\n" + outline; got != want {
		t.Errorf("with the whole outline:\n%s\nwant:\n%s", got, want)
	}
	current = "[changes since your last look]\n+ - button \"Pay\" [ref=e99]"
	got, _, _ = callTool(t, cs, "click", map[string]any{"target": "e02"})
	if want := "click e02: done; now at http://shop.test/cart \"Cart\"\n" + current; got != want {
		t.Errorf("with changes only:\n%s\nwant:\n%s", got, want)
	}
}

func TestDescribeOutcome(t *testing.T) {
	got := describeOutcome(calls.ActRequest{Kind: calls.ActClick, Target: "e4"}, calls.Outcome{
		URL: "http://shop.test/x", Title: "X", Navigated: true,
		NewTabs: []calls.TabInfo{{Index: 1, URL: "http://shop.test/y", Title: "Y"}},
		Dialog:  &calls.Dialog{Type: "confirm", Message: "Sure?"},
	})
	want := "click e4: done; now at http://shop.test/x \"X\"\n" +
		"new tab 1: http://shop.test/y \"Y\" (tabs op=switch to use it)\n" +
		`a confirm dialog is open and waits for an answer: "Sure?"`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestDescribeOutcomeClosedAndDownloads(t *testing.T) {
	got := describeOutcome(calls.ActRequest{Kind: calls.ActClick, Target: "e4"}, calls.Outcome{
		URL: "http://shop.test/files", Title: "Files",
		Closed: `closed the cookie banner by "Reject all"`,
		Downloads: []calls.Download{
			{Name: "report.csv", Path: "/tmp/d/report.csv", Bytes: 100, State: calls.DownloadCompleted},
			{Name: "setup.exe", State: calls.DownloadRefused, Reason: "files ending .exe are not allowed"},
			{Name: "huge.iso", Bytes: 2048, State: calls.DownloadCanceled, Reason: "over the 100 MB limit"},
			{Name: "big.csv", Bytes: 4096, State: calls.DownloadInProgress},
		},
	})
	want := "click e4: done\n" +
		`before acting, closed the cookie banner by "Reject all"` + "\n" +
		"downloaded report.csv (100 bytes) to /tmp/d/report.csv\n" +
		"download of setup.exe refused: files ending .exe are not allowed\n" +
		"download of huge.iso canceled: over the 100 MB limit\n" +
		"download of big.csv still running (4096 bytes so far); a later snapshot tells how it ends"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// The downloads an action started reach the agent in the tool's reply: the
// session tells of each once, and this is that once.
func TestActionReplyTellsOfDownloads(t *testing.T) {
	c := &fakeCaller{reply: func(method string, _ any) (any, error) {
		switch method {
		case calls.MethodAct:
			return calls.Outcome{URL: "http://shop.test/files", Closed: `closed the app banner by "Not now"`,
				Downloads: []calls.Download{{Name: "report.csv", Path: "/tmp/d/report.csv", Bytes: 100, State: calls.DownloadCompleted}}}, nil
		case calls.MethodSnapshot:
			return calls.Snapshot{Text: "[page] http://shop.test/files \"Files\""}, nil
		}
		return nil, nil
	}}
	cs := connect(t, Options{Caller: c})
	got, isErr, _ := callTool(t, cs, "click", map[string]any{"target": "e3"})
	if isErr {
		t.Fatalf("tool error: %s", got)
	}
	for _, w := range []string{`before acting, closed the app banner by "Not now"`, "downloaded report.csv (100 bytes) to /tmp/d/report.csv"} {
		if !strings.Contains(got, w) {
			t.Errorf("reply lacks %q:\n%s", w, got)
		}
	}
}

// Options.Timeout is the timeout of each call that waits, unless the call
// gives its own.
func TestTimeoutOption(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		tool    string
		args    map[string]any
		want    string // in the params sent
	}{
		{"click", 7 * time.Second, "click", map[string]any{"target": "e1"}, `"timeout_ms":7000`},
		{"fill", 7 * time.Second, "fill", map[string]any{"target": "e1", "value": "x"}, `"timeout_ms":7000`},
		{"navigate", 7 * time.Second, "navigate", map[string]any{"url": "shop.test"}, `"timeout_ms":7000`},
		{"wait", 7 * time.Second, "wait", map[string]any{"text": "Done"}, `"timeout_ms":7000`},
		{"wait's own wins", 7 * time.Second, "wait", map[string]any{"text": "Done", "timeout_ms": 500}, `"timeout_ms":500`},
		{"sub-millisecond rounds up", time.Microsecond, "click", map[string]any{"target": "e1"}, `"timeout_ms":1`},
		{"none", 0, "click", map[string]any{"target": "e1"}, `"kind":"click","target":"e1","reader":"mcp:`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &fakeCaller{}
			cs := connect(t, Options{Caller: c, Timeout: tt.timeout})
			if got, isErr, _ := callTool(t, cs, tt.tool, tt.args); isErr {
				t.Fatalf("tool error: %s", got)
			}
			first := c.seen()[0]
			if !strings.Contains(first.Params, tt.want) {
				t.Errorf("%s params %s lack %s", first.Method, first.Params, tt.want)
			}
		})
	}
}

func TestDescribeOutcomeNotSentAndAlert(t *testing.T) {
	got := describeOutcome(calls.ActRequest{Kind: calls.ActClick, Target: "e4"}, calls.Outcome{
		URL: "http://shop.test/x", Title: "X",
		NotSent: &calls.NotSent{Invalid: []calls.InvalidField{{Role: "textbox", Name: "Email", Message: "Please fill out this field."}}},
	})
	if want := `click e4: done; the form was not sent: 1 field is invalid: textbox "Email" — Please fill out this field.`; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	got = describeOutcome(calls.ActRequest{Kind: calls.ActClick, Target: "e4"}, calls.Outcome{Dialog: &calls.Dialog{Type: "alert", Message: "Hi"}})
	if want := "click e4: done\nan alert dialog is open and waits for an answer: \"Hi\""; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestOutlineSaysFullInToolWords: the outline's summary of what is off
// screen ends with the command line's "snapshot --full"; an MCP client
// reads the snapshot tool's argument instead, in a snapshot and in an
// action's look, text and structured alike.
func TestOutlineSaysFullInToolWords(t *testing.T) {
	const page = "[page] Shop — shop.test\n- button \"Buy\" [ref=e1]\n(40 more lines below: 32 links — scroll, or snapshot --full)\n"
	c := &fakeCaller{reply: func(method string, params any) (any, error) {
		if method == calls.MethodSnapshot {
			return calls.Snapshot{URL: "http://shop.test/", Text: page}, nil
		}
		return calls.Outcome{}, nil
	}}
	cs := connect(t, Options{Caller: c})
	for _, tool := range []struct {
		name string
		args map[string]any
	}{{"snapshot", map[string]any{}}, {"hover", map[string]any{"target": "e1"}}} {
		got, _, res := callTool(t, cs, tool.name, tool.args)
		data, _ := json.Marshal(res.StructuredContent)
		for _, s := range []string{got, string(data)} {
			if strings.Contains(s, "--full") || !strings.Contains(s, "— scroll, or snapshot with full: true)") {
				t.Errorf("%s: %s", tool.name, s)
			}
		}
	}
}
