package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/waymark-dev/waymark/apps"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// noConnection is the Caller of a server started without one: every call
// fails with a clear error.
type noConnection struct{}

func (noConnection) Call(context.Context, string, string, any, any) error {
	return calls.Errorf(calls.ErrUnavailable, "start the MCP server with a connection to waymark", "no browser connection")
}

// failure turns a call's error into a tool error the model can act on: the
// message, then the hint on a line of its own.
func failure(err error) *sdk.CallToolResult {
	if res, ok := answeredWith(err); ok {
		return res
	}
	if msg, ok := approvalText(err); ok {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
	}
	msg := err.Error()
	if h := calls.Hint(err); h != "" {
		msg += "\nhint: " + mcpHint(h)
	}
	// The category, as the CLI's JSON gives it, so an agent can tell a
	// refusal (not_found, ambiguous, needs_model) from a failure. An
	// error of a front's own category names it (the running daemon
	// started with other settings than this server's flags:
	// daemon_settings), as it does in the CLI's JSON.
	code := calls.Code(err)
	var coded interface{ ErrorCode() string }
	if errors.As(err, &coded) {
		code = coded.ErrorCode()
	}
	if code != "internal" {
		msg += "\ncode: " + code
	}
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
}

// text is a result of text alone: a tool error made here, or a result
// for the person (the question of an approval).
func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// The data of the tools that change the page: where the tab is, or what
// an action did, and the look after it.
type (
	// lookOut is the look after a change.
	lookOut struct {
		Outline string `json:"outline" jsonschema:"the outline, or only its changes since your last look when changes is true"`
		Changes bool   `json:"changes,omitempty"`
		Error   string `json:"error,omitempty" jsonschema:"why no look could be taken (the change happened)"`
	}
	// pageOut answers navigate, back, forward, reload and wait.
	pageOut struct {
		calls.PageInfo
		Look lookOut `json:"look"`
	}
	// actOut answers an element action or a dialog's answer.
	actOut struct {
		calls.Outcome
		Look lookOut `json:"look"`
	}
)

// page answers a navigation (open, back) that returned info and err with
// where the tab is and a look.
func (t *tools) page(ctx context.Context, r *sdk.CallToolRequest, info *calls.PageInfo, err error) (string, pageOut, error) {
	if err != nil {
		return "", pageOut{}, err
	}
	text, look := t.look(ctx, r, "at "+describePage(*info))
	return text, pageOut{PageInfo: *info, Look: look}, nil
}

// act runs one element action and answers with its outcome and a look.
// One that would send, pay, delete or confirm is put to the person
// ([gate]).
func (t *tools) act(ctx context.Context, r *sdk.CallToolRequest, req calls.ActRequest) (string, actOut, error) {
	if req.TimeoutMS == 0 {
		req.TimeoutMS = t.timeoutMS
	}
	out, res := gate(ctx, r, func(a *calls.Approval, allow bool) (*calls.Outcome, error) {
		q := req
		q.Submits, q.Approve, q.Reader = SubmitsAsk, a, t.reader(r)
		if allow {
			q.Submits = SubmitsAllow
		}
		return t.s.Act(ctx, q)
	})
	if res != nil {
		return "", actOut{}, answered(res)
	}
	head, nowAt := outcomeParts(req, *out)
	text, look := t.lookNaming(ctx, r, head, nowAt)
	return text, actOut{Outcome: *out, Look: look}, nil
}

func (t *tools) wait(ctx context.Context, r *sdk.CallToolRequest, req calls.WaitRequest) (string, pageOut, error) {
	if req.TimeoutMS == 0 {
		req.TimeoutMS = t.timeoutMS
	}
	info, err := t.s.Wait(ctx, req)
	if err != nil {
		return "", pageOut{}, err
	}
	text, look := t.look(ctx, r, "waited; at "+describePage(*info))
	return text, pageOut{PageInfo: *info, Look: look}, nil
}

// snapshotOut is a whole look.
type snapshotOut struct {
	URL     string `json:"url"`
	Title   string `json:"title"`
	Outline string `json:"outline"`
}

// snapshot answers with the whole outline asked for. An interactive look
// of the whole page becomes the last look that later replies count their
// changes from (the driver keeps it, by reader).
func (t *tools) snapshot(ctx context.Context, r *sdk.CallToolRequest, req calls.SnapshotRequest) (string, snapshotOut, error) {
	req.Reader = t.reader(r)
	snap, err := t.s.Snapshot(ctx, req)
	if err != nil {
		return "", snapshotOut{}, err
	}
	t.appSeen(snap.App)
	t.offerPageTool(snap.Text)
	text := sayOutline(snap.Text)
	return text, snapshotOut{URL: snap.URL, Title: snap.Title, Outline: text}, nil
}

// fullInMCP is how an outline's summary of lines off screen says to see
// them all ("— scroll, or snapshot --full)" on the command line) in this
// server's words: the snapshot tool's full argument.
const fullInMCP = "snapshot with full: true"

// mapUseInMCP is how a drawn map is worked (apps.MapUse on the command
// line) in this server's words.
const mapUseInMCP = "press on it with the click tool's at (x,y), pan it with the drag tool's by (dx,dy)"

// sayOutline is an outline (or its changes) in this server's words: the
// advice the outline gives in the command line's (see lines off screen,
// work a map) said with the tools and their arguments. A map's use is in
// the first line, after the page's name: its last mention there is ours.
func sayOutline(text string) string {
	text = outline.SayFull(text, fullInMCP)
	first, rest, more := strings.Cut(text, "\n")
	i := strings.LastIndex(first, apps.MapUse)
	if i < 0 {
		return text
	}
	first = first[:i] + mapUseInMCP + first[i+len(apps.MapUse):]
	if more {
		return first + "\n" + rest
	}
	return first
}

// dialog answers the open JavaScript dialog; the page may go on from there.
func (t *tools) dialog(ctx context.Context, r *sdk.CallToolRequest, req calls.DialogRequest) (string, actOut, error) {
	// Accepting a confirm presses what it asks: a send it starts that
	// commits is put to the person as a click's is ([gate]).
	out, res := gate(ctx, r, func(a *calls.Approval, allow bool) (*calls.Outcome, error) {
		q := req
		q.Submits, q.Approve = SubmitsAsk, a
		if allow {
			q.Submits = SubmitsAllow
		}
		return t.s.Dialog(ctx, q)
	})
	if res != nil {
		return "", actOut{}, answered(res)
	}
	head := "dialog dismissed"
	if req.Accept {
		head = "dialog accepted"
	}
	text, look := t.look(ctx, r, head)
	return text, actOut{Outcome: *out, Look: look}, nil
}

func (t *tools) screenshot(ctx context.Context, req calls.ScreenshotRequest) (*sdk.CallToolResult, error) {
	img, err := t.s.Screenshot(ctx, req)
	if err != nil {
		return failure(err), nil
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{Data: img.Data, MIMEType: "image/png"}}}, nil
}

func (t *tools) tabs(ctx context.Context, req calls.TabRequest) (string, calls.TabList, error) {
	list, err := t.s.Tab(ctx, req)
	if err != nil {
		return "", calls.TabList{}, err
	}
	var b strings.Builder
	for _, tab := range list.Tabs {
		mark := " "
		if tab.Current {
			mark = "*"
		}
		fmt.Fprintf(&b, "%s%d %s\n", mark, tab.Index, describePage(calls.PageInfo{URL: tab.URL, Title: tab.Title}))
	}
	if list.Tabs == nil {
		list.Tabs = []calls.TabInfo{}
	}
	if b.Len() == 0 {
		return "no tabs", *list, nil
	}
	return strings.TrimSuffix(b.String(), "\n"), *list, nil
}

// evalOut is what a script returned.
type evalOut struct {
	Value json.RawMessage `json:"value,omitempty" jsonschema:"the script's JSON value; absent: undefined"`
}

func (t *tools) eval(ctx context.Context, req calls.EvalRequest) (string, evalOut, error) {
	res, err := t.s.Eval(ctx, req)
	if err != nil {
		return "", evalOut{}, err
	}
	if len(res.Value) == 0 {
		return "undefined", evalOut{}, nil
	}
	return string(res.Value), evalOut{Value: res.Value}, nil
}

// reader is the name the driver keeps an MCP client's last look by: its
// changes count from what this client read, not from a look of the shell
// or of another client on the same session. A server's id tells apart
// servers whose clients have no MCP session id (stdio, in memory).
func (t *tools) reader(r *sdk.CallToolRequest) string {
	return "mcp:" + t.id + ":" + sessionID(r)
}

// look takes an interactive snapshot after head's change and answers with
// head and what the driver's --changes gives: the changes since this
// client's last look, or on a new page of the same site the outline with
// the regions that read as before folded (their refs kept), or the whole
// outline when that is shorter or there was no last look. A failed look
// does not fail the action: the action happened.
func (t *tools) look(ctx context.Context, r *sdk.CallToolRequest, head string) (string, lookOut) {
	return t.lookNaming(ctx, r, head, "")
}

// lookNaming is look with where an action took the tab: nowAt goes into
// head's first line when the driver gave only the changes; an outline
// names the page itself on its [page] line, and saying it twice costs tokens.
func (t *tools) lookNaming(ctx context.Context, r *sdk.CallToolRequest, head, nowAt string) (string, lookOut) {
	snap, err := t.s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true, Changes: true, Reader: t.reader(r)})
	if err != nil {
		msg := "could not look at the page: " + err.Error()
		return withFirstLine(head, nowAt) + "\n(" + msg + ")", lookOut{Error: msg}
	}
	t.appSeen(snap.App)
	t.offerPageTool(snap.Text)
	if snap.Changed { // only the changes: no [page] line names the page
		head = withFirstLine(head, nowAt)
	}
	text := strings.TrimSuffix(sayOutline(snap.Text), "\n")
	return head + "\n" + text, lookOut{Outline: text, Changes: snap.Changed}
}

// withFirstLine puts s at the end of text's first line.
func withFirstLine(text, s string) string {
	first, rest, more := strings.Cut(text, "\n")
	if !more {
		return text + s
	}
	return first + s + "\n" + rest
}

func sessionID(r *sdk.CallToolRequest) string {
	if r == nil || r.Session == nil {
		return ""
	}
	return r.Session.ID()
}

func describePage(p calls.PageInfo) string {
	s := calls.PageName(p.URL, p.Title)
	if p.Status >= 400 {
		s += fmt.Sprintf(" (HTTP %d)", p.Status)
	}
	return s
}

// describeOutcome says what an action did in one or a few lines: where the
// tab went, a banner closed before it, new tabs, an open dialog, and the
// downloads it started.
func describeOutcome(req calls.ActRequest, out calls.Outcome) string {
	return withFirstLine(outcomeParts(req, out))
}

// outcomeParts is describeOutcome with where the tab went ("; now at …",
// for the first line) apart: a reply whose outline names the page leaves
// it out.
func outcomeParts(req calls.ActRequest, out calls.Outcome) (head, nowAt string) {
	var b strings.Builder
	b.WriteString(req.Kind)
	if req.Target != "" {
		b.WriteString(" " + req.Target)
	}
	b.WriteString(": done")
	if out.Pressed != "" { // a click at a point: what was under it
		b.WriteString("; pressed " + out.Pressed)
	}
	if n := out.NotSent.Note(); n != "" { // the browser's validation stopped the submit
		b.WriteString("; " + n)
	}
	if out.Navigated {
		nowAt = "; now at " + describePage(calls.PageInfo{URL: out.URL, Title: out.Title})
	}
	if out.Closed != "" { // what was in the way, closed without asking (issue 7)
		b.WriteString("\nbefore acting, " + out.Closed)
	}
	if n := calls.ChatterNote(out.Chatter); n != "" { // sends the gate let go (issue 27)
		b.WriteString("\n" + n)
	}
	for _, tab := range out.NewTabs {
		fmt.Fprintf(&b, "\nnew tab %d: %s (tabs op=switch to use it)", tab.Index, describePage(calls.PageInfo{URL: tab.URL, Title: tab.Title}))
	}
	if d := out.Dialog; d != nil {
		fmt.Fprintf(&b, "\n%s is open and waits for an answer: %q", d.Named(), d.Message)
	}
	// The session tells of each download once: if this reply left them
	// out, the agent would never hear of them.
	for _, d := range out.Downloads {
		b.WriteString("\n" + d.Summary())
		if d.State == calls.DownloadInProgress {
			b.WriteString("; a later snapshot tells how it ends")
		}
	}
	return b.String(), nowAt
}
