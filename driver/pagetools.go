package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/fold"
	"github.com/waymark-dev/waymark/internal/lazyre"
	"github.com/waymark-dev/waymark/internal/schemacheck"
)

// Page tools (WebMCP): a page offers tools to agents with
// document.modelContext.registerTool (navigator.modelContext in the
// explainer). Chromium 156 implements it natively behind the WebMCP
// feature, which waymark's browsers run with (internal/browser), and
// reports every registration to DevTools: the WebMCP domain sends
// toolsAdded and toolsRemoved, and invokeTool calls a tool in its frame.
//
// So the tools are read without touching the page's world (invariant 7):
// no script of ours runs in the page, nothing is defined there, and no
// getter, proxy or toString of the page's runs on our behalf. The page's
// own registerTool call is what reads its dictionary (a getter that
// throws makes the page's call throw; one that blocks holds the page's
// own thread, which a look already survives as an unresponsive page).
// What reaches us is bounded here: at most maxPageTools tools of the main
// frame, each with a plain identifier for a name (a name with a newline
// or a space could forge a line of the outline, so it is dropped and
// counted), its description clipped to one line, its schema to
// maxToolSchema bytes; a page that registers ten thousand tools costs one
// event and a count. A page that polyfills the API in its own script (no
// native registration) offers nothing this reads: reading it would mean
// running the page's code.

const (
	maxPageTools   = 50
	maxToolDesc    = 300
	maxToolSchema  = 16 << 10
	maxToolOutput  = 64 << 10
	defaultToolTTL = 30 * time.Second
)

// pageToolName is what a tool's name must be to be listed.
var pageToolName = lazyre.New(`^[A-Za-z][A-Za-z0-9_.-]{0,63}$`)

// pageTools is a tab's view of its page's tools, kept by a listener on the
// tab's WebMCP events from the first look or call on.
type pageTools struct {
	mu          sync.Mutex
	enabled     bool
	listening   bool
	unsupported string // why the browser offers no WebMCP
	mainFrame   cdp.FrameID
	tools       []*webmcp.Tool // the main frame's
	dropped     int
	responded   map[string]*webmcp.EventToolResponded
	changed     chan struct{}
}

// webMCP starts listening to the tab's WebMCP events (once) and returns
// its tools; unsupported says why there are none to be had.
func (t *tab) webMCP(ctx context.Context) (*pageTools, error) {
	t.mu.Lock()
	if t.tools == nil {
		t.tools = &pageTools{responded: map[string]*webmcp.EventToolResponded{}, changed: make(chan struct{}), mainFrame: t.frameID}
	}
	pt := t.tools
	t.mu.Unlock()
	pt.mu.Lock()
	done := pt.enabled || pt.unsupported != ""
	pt.mu.Unlock()
	if done {
		return pt, nil
	}
	// Listen before enabling: enable reports the tools already there.
	// The listener lasts as long as the tab.
	pt.mu.Lock()
	listening := pt.listening
	pt.listening = true
	pt.mu.Unlock()
	if !listening {
		if err := chromedp.Listen(t.ctx, pt.onEvent); err != nil {
			return nil, browserErr(err)
		}
	}
	_, err := call(ctx, t, webmcp.Enable, cdp.Empty{})
	pt.mu.Lock()
	defer pt.mu.Unlock()
	switch {
	case err == nil:
		pt.enabled = true
	case ctx.Err() != nil || errors.Is(err, calls.ErrBrowserGone):
		return nil, err
	default:
		pt.unsupported = "the browser offers no WebMCP (" + err.Error() + ")"
	}
	return pt, nil
}

// onEvent files the tab's WebMCP events. It runs on the tab's read loop:
// it only updates the lists.
func (pt *pageTools) onEvent(ev any) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	switch ev := ev.(type) {
	case *page.EventFrameNavigated:
		// A new document: the old one's tools went with it.
		if ev.Frame != nil && ev.Frame.ParentID == "" {
			pt.mainFrame, pt.tools, pt.dropped = ev.Frame.ID, nil, 0
		}
	case *webmcp.EventToolsAdded:
		for _, tool := range ev.Tools {
			if tool == nil || (pt.mainFrame != "" && tool.FrameID != pt.mainFrame) {
				continue
			}
			i := slices.IndexFunc(pt.tools, func(x *webmcp.Tool) bool { return x.Name == tool.Name })
			switch {
			case !pageToolName.MatchString(tool.Name) || len(tool.InputSchema) > maxToolSchema:
				pt.dropped++
			case i >= 0:
				pt.tools[i] = tool
			case len(pt.tools) >= maxPageTools:
				pt.dropped++
			default:
				tool.StackTrace = nil // not kept: it can be large
				pt.tools = append(pt.tools, tool)
			}
		}
	case *webmcp.EventToolsRemoved:
		for _, r := range ev.Tools {
			if r != nil {
				pt.tools = slices.DeleteFunc(pt.tools, func(x *webmcp.Tool) bool { return x.Name == r.Name && x.FrameID == r.FrameID })
			}
		}
	case *webmcp.EventToolResponded:
		if len(pt.responded) < 100 {
			pt.responded[ev.InvocationID] = ev
		}
		close(pt.changed)
		pt.changed = make(chan struct{})
	}
}

// list returns the tools as calls.PageTool values.
func (pt *pageTools) list() ([]calls.PageTool, int) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	out := make([]calls.PageTool, 0, len(pt.tools))
	for _, tool := range pt.tools {
		out = append(out, calls.PageTool{Name: tool.Name, Description: clipLine(tool.Description, maxToolDesc),
			InputSchema: json.RawMessage(tool.InputSchema), ReadOnly: tool.Annotations != nil && tool.Annotations.ReadOnly})
	}
	// By name: the order the browser reports them in is its own.
	slices.SortFunc(out, func(a, b calls.PageTool) int { return strings.Compare(a.Name, b.Name) })
	return out, pt.dropped
}

// clipLine is s on one line, at most n bytes.
func clipLine(s string, n int) string {
	s = fold.Line(s)
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && s[len(s)-1]&0xc0 == 0x80 {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] >= 0xc0 {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// toolsHeader is what the outline's first line says of the page's tools:
// " [tools: search (read-only), add_to_cart]", or "" when it has none.
// Names are plain identifiers (pageToolName), so they cannot break the
// line.
func (t *tab) toolsHeader(ctx context.Context) string {
	pt, err := t.webMCP(ctx)
	if err != nil || pt == nil {
		return ""
	}
	tools, dropped := pt.list()
	if len(tools) == 0 && dropped == 0 {
		return ""
	}
	var names []string
	for _, tool := range tools {
		n := tool.Name
		if tool.ReadOnly {
			n += " (read-only)"
		}
		names = append(names, n)
	}
	if dropped > 0 {
		names = append(names, fmt.Sprintf("%d more not shown", dropped))
	}
	return " [tools: " + strings.Join(names, ", ") + "]"
}

// PageTool lists the current page's tools, or calls one (see
// calls.MethodPageTool).
func (s *Session) PageTool(ctx context.Context, req calls.PageToolRequest) (reply *calls.PageToolResult, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	pt, err := t.webMCP(ctx)
	if err != nil {
		return nil, err
	}
	info, err := s.pageInfo(ctx, t)
	if err != nil {
		return nil, err
	}
	tools, dropped := pt.list()
	if req.Name == "" {
		if pt.unsupported != "" {
			return nil, calls.Errorf(calls.ErrBadInput, "run the browser with --enable-features=WebMCP (waymark's own browsers have it)", "%s", pt.unsupported)
		}
		return &calls.PageToolResult{URL: info.URL, Tools: tools, Dropped: dropped}, nil
	}
	i := slices.IndexFunc(tools, func(x calls.PageTool) bool { return x.Name == req.Name })
	if i < 0 {
		var names []string
		for _, x := range tools {
			names = append(names, x.Name)
		}
		hint := "the page offers no tools"
		if len(names) > 0 {
			hint = "the page offers: " + strings.Join(names, ", ")
		}
		return nil, calls.Errorf(calls.ErrNoMatch, hint, "the page offers no tool %q", req.Name)
	}
	tool := tools[i]
	args, input, err := toolArgs(tool, req.Args)
	if err != nil {
		return nil, err
	}
	a := calls.Approval{Action: "tool " + tool.Name, URL: info.URL, Control: "page tool " + tool.Name,
		Why: "the page's tool is not marked read-only: it may act", Form: args}
	switch {
	case req.Approve != nil:
		if err := t.approvalFresh(*req.Approve); err != nil {
			return nil, err
		}
		if d := approvalDiff(*req.Approve, a); d != "" {
			return nil, needsApprovalAgain("the page is not as approved: " + d + "; nothing was called")
		}
		t.useApproval(*req.Approve)
		if tool.ReadOnly && req.Approve.Sends != "" {
			// Approved after it was held sending: that send, once.
			return s.invokeWatched(ctx, t, pt, tool, input, req.TimeoutMS, info.URL, a, req.Approve.Sends)
		}
	case !tool.ReadOnly && req.Submits == "ask":
		return nil, needsApproval(t.bind(a), fmt.Sprintf("the page's tool %s is not marked read-only; it was not called", tool.Name))
	case req.Submits == "ask":
		// Read-only is the page's word: held to it (pagetools_sends.go).
		return s.invokeWatched(ctx, t, pt, tool, input, req.TimeoutMS, info.URL, a, "")
	}
	return s.invokeTool(ctx, t, pt, tool.Name, input, req.TimeoutMS, info.URL)
}

// toolArgs checks raw against the tool's input schema and returns it as
// the approval's fields (each value as JSON) and as the call's input.
func toolArgs(tool calls.PageTool, raw json.RawMessage) (map[string]string, []byte, error) {
	if len(strings.TrimSpace(string(raw))) == 0 {
		raw = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, nil, calls.Errorf(calls.ErrBadInput, `give the arguments as a JSON object, e.g. {"query":"lamp"}`, "the arguments of %s are not a JSON object", tool.Name)
	}
	if len(tool.InputSchema) > 0 {
		c, err := schemacheck.Compile(tool.InputSchema)
		if err != nil {
			return nil, nil, calls.Errorf(calls.ErrBadInput, "the page's tool cannot be called safely; tell the site", "the input schema of %s does not compile: %v", tool.Name, err)
		}
		var v any
		_ = json.Unmarshal(raw, &v)
		if ps := c.Problems(v); len(ps) > 0 {
			var msgs []string
			for _, p := range ps[:min(len(ps), 5)] {
				msgs = append(msgs, strings.TrimSpace(p.Pointer()+" "+p.Msg))
			}
			return nil, nil, calls.Errorf(calls.ErrBadInput, "see the tool's input schema: "+calls.Cmd("tool --list"),
				"the arguments do not fit %s's input schema: %s", tool.Name, strings.Join(msgs, "; "))
		}
	}
	form := make(map[string]string, len(obj))
	for k, v := range obj {
		form[k] = string(v)
	}
	input, err := json.Marshal(obj)
	return form, input, err
}

// invokeTool calls the tool in the main frame and waits for its answer.
func (s *Session) invokeTool(ctx context.Context, t *tab, pt *pageTools, name string, input []byte, timeoutMS int, url string) (*calls.PageToolResult, error) {
	ttl := defaultToolTTL
	if timeoutMS > 0 {
		ttl = time.Duration(timeoutMS) * time.Millisecond
	}
	pt.mu.Lock()
	frame := pt.mainFrame
	pt.mu.Unlock()
	res, err := call(ctx, t, webmcp.InvokeTool, webmcp.InvokeToolParams{FrameID: frame, ToolName: name, Input: input})
	if err != nil {
		return nil, err
	}
	id := res.InvocationID
	stop := func() {
		_, _ = call(context.WithoutCancel(ctx), t, webmcp.CancelInvocation, webmcp.CancelInvocationParams{InvocationID: id})
	}
	deadline := time.NewTimer(ttl)
	defer deadline.Stop()
	for {
		pt.mu.Lock()
		ev := pt.responded[id]
		delete(pt.responded, id)
		changed := pt.changed
		pt.mu.Unlock()
		if ev != nil {
			return toolOutcome(name, url, ev)
		}
		select {
		case <-changed:
		case <-deadline.C:
			stop()
			return nil, calls.Errorf(calls.ErrTimeout, "pass a longer timeout, or look at the page", "the page's tool %s did not answer within %s", name, ttl)
		case <-ctx.Done():
			stop()
			return nil, ctx.Err()
		}
	}
}

// toolOutcome turns the page's answer into a result or an error. The
// page's words are quoted, never spoken (invariant 3).
func toolOutcome(name, url string, ev *webmcp.EventToolResponded) (*calls.PageToolResult, error) {
	switch ev.Status {
	case webmcp.InvocationStatusCompleted:
		out := json.RawMessage(ev.Output)
		if len(out) > maxToolOutput {
			return nil, calls.Errorf(calls.ErrBadInput, "ask the tool for less", "the answer of %s is %d bytes, over the %d allowed", name, len(out), maxToolOutput)
		}
		if len(out) == 0 || !json.Valid(out) {
			out = json.RawMessage("null")
		}
		return &calls.PageToolResult{URL: url, Output: out}, nil
	case webmcp.InvocationStatusCanceled:
		return nil, calls.Errorf(calls.ErrTimeout, "call it again", "the page canceled the call of %s", name)
	}
	return nil, calls.Errorf(calls.ErrJavaScript, "the page's tool failed; look at the page", "the page's tool %s failed: %q", name, clipLine(ev.ErrorText, 300))
}
