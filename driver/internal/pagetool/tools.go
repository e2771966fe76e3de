package pagetool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/webmcp"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/fold"
	"github.com/waymark-dev/waymark/internal/lazyre"
	"github.com/waymark-dev/waymark/internal/schemacheck"
)

const (
	maxPageTools   = 50
	maxToolDesc    = 300
	maxToolSchema  = 16 << 10
	maxToolOutput  = 64 << 10
	defaultToolTTL = 30 * time.Second
)

// pageToolName is what a tool's name must be to be listed.
var pageToolName = lazyre.New(`^[A-Za-z][A-Za-z0-9_.-]{0,63}$`)

// Tools is a tab's view of its page's tools, kept by a listener on the
// tab's WebMCP events from the first look or call on.
type Tools struct {
	mu          sync.Mutex
	enabled     bool
	listening   bool
	unsupported string // why the browser offers no WebMCP
	mainFrame   cdp.FrameID
	tools       []*webmcp.Tool // the main frame's
	dropped     int
	responded   map[string]*webmcp.EventToolResponded
	changed     chan struct{}
	// testingCall: the browser's WebMCP domain has no invokeTool
	// (Chromium 148), so a tool is called through
	// navigator.modelContextTesting from our isolated world (invokeTesting).
	testingCall bool
	calls       int // numbers the testing calls, for their abort
}

// Tab is the view of a tab the tools need: its chromedp context (the
// listener lasts as long as it), its own CDP target, and our isolated
// world (where Chromium 148 has a tool called).
type Tab interface {
	Context() context.Context
	Target() *chromedp.Target
	EvalWorld(ctx context.Context, frame cdp.FrameID, expr string, out any) error
}

// New makes a tab's view of its page's tools, for the document of
// mainFrame; Start listens.
func New(mainFrame cdp.FrameID) *Tools {
	return &Tools{responded: map[string]*webmcp.EventToolResponded{}, changed: make(chan struct{}), mainFrame: mainFrame}
}

// Start starts listening to the tab's WebMCP events (once) and enables
// the domain; unsupported then says why there are no tools to be had.
// browserErr turns a failure of the connection into the core's error.
func (pt *Tools) Start(ctx context.Context, t Tab, browserErr func(error) error) error {
	pt.mu.Lock()
	done := pt.enabled || pt.unsupported != ""
	pt.mu.Unlock()
	if done {
		return nil
	}
	// Listen before enabling: enable reports the tools already there.
	// The listener lasts as long as the tab.
	pt.mu.Lock()
	listening := pt.listening
	pt.listening = true
	pt.mu.Unlock()
	if !listening {
		if err := chromedp.Listen(t.Context(), pt.onEvent); err != nil {
			return browserErr(err)
		}
	}
	_, err := cdp.Call(ctx, t.Target(), webmcp.Enable, cdp.Empty{})
	err = browserErr(err)
	pt.mu.Lock()
	defer pt.mu.Unlock()
	switch {
	case err == nil:
		pt.enabled = true
	case ctx.Err() != nil || errors.Is(err, calls.ErrBrowserGone):
		return err
	default:
		pt.unsupported = "the browser offers no WebMCP (" + err.Error() + ")"
	}
	return nil
}

// Unsupported says why the browser offers no WebMCP, or "".
func (pt *Tools) Unsupported() string {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	return pt.unsupported
}

// onEvent files the tab's WebMCP events. It runs on the tab's read loop:
// it only updates the lists.
func (pt *Tools) onEvent(ev any) {
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

// List returns the tools as calls.PageTool values.
func (pt *Tools) List() ([]calls.PageTool, int) {
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

// Args checks raw against the tool's input schema and returns it as
// the approval's fields (each value as JSON) and as the call's input.
func Args(tool calls.PageTool, raw json.RawMessage) (map[string]string, []byte, error) {
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

// Invoke calls the tool in the main frame of the tab and waits for its
// answer.
func (pt *Tools) Invoke(ctx context.Context, t Tab, browserErr func(error) error, name string, input []byte, timeoutMS int, url string) (*calls.PageToolResult, error) {
	ttl := defaultToolTTL
	if timeoutMS > 0 {
		ttl = time.Duration(timeoutMS) * time.Millisecond
	}
	pt.mu.Lock()
	frame, testing := pt.mainFrame, pt.testingCall
	pt.mu.Unlock()
	if testing {
		return pt.invokeTesting(ctx, t, frame, name, input, ttl, url)
	}
	res, err := cdp.Call(ctx, t.Target(), webmcp.InvokeTool, webmcp.InvokeToolParams{FrameID: frame, ToolName: name, Input: input})
	if isMethodNotFound(err) {
		pt.mu.Lock()
		pt.testingCall = true
		pt.mu.Unlock()
		return pt.invokeTesting(ctx, t, frame, name, input, ttl, url)
	}
	if err != nil {
		return nil, browserErr(err)
	}
	id := res.InvocationID
	stop := func() {
		// Bounded: a page a dialog or a script holds never answers.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_, _ = cdp.Call(cctx, t.Target(), webmcp.CancelInvocation, webmcp.CancelInvocationParams{InvocationID: id})
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

// isMethodNotFound says the browser does not know the command
// (-32601): Chromium 148's WebMCP domain has no invokeTool.
func isMethodNotFound(err error) bool {
	var pe *cdproto.Error
	return errors.As(err, &pe) && pe.Code == -32601
}

// statusSuccess is Chromium 148's name of a completed call (later
// versions say Completed).
const statusSuccess webmcp.InvocationStatus = "Success"

// testingCallJS calls a tool through navigator.modelContextTesting in our
// isolated world, the only way Chromium 148 offers (its WebMCP domain
// lists tools but calls none). The isolated world's own globalThis keeps
// the call's AbortController, so a timeout can cancel it: nothing is set
// in the page's world (invariant 7). The answer is {status, output, error}
// with status as the WebMCP domain says it.
const testingCallJS = `(async (name, input, id) => {
  const t = navigator.modelContextTesting;
  if (!t || typeof t.executeTool !== "function") return {status: "Unsupported"};
  const c = new AbortController();
  const m = (globalThis.__waymarkToolCalls ||= new Map());
  m.set(id, c);
  try {
    const out = await t.executeTool(name, input, {signal: c.signal});
    return {status: "Success", output: out ?? null};
  } catch (e) {
    return {status: c.signal.aborted || /cancel/i.test(String(e && e.message)) ? "Canceled" : "Error", error: String(e && e.message || e)};
  } finally {
    m.delete(id);
  }
})(%s, %s, %d)`

// invokeTesting calls the tool through navigator.modelContextTesting
// (Chromium 148) and waits for its answer, at most ttl; a call that
// outlives it is aborted. Its answer is the tool's output as a string:
// JSON when it is JSON, else the string itself.
func (pt *Tools) invokeTesting(ctx context.Context, t Tab, frame cdp.FrameID, name string, input []byte, ttl time.Duration, url string) (*calls.PageToolResult, error) {
	pt.mu.Lock()
	pt.calls++
	id := pt.calls
	pt.mu.Unlock()
	n, _ := json.Marshal(name)
	in, _ := json.Marshal(string(input))
	var ans struct {
		Status webmcp.InvocationStatus `json:"status"`
		Output *string                 `json:"output"`
		Error  string                  `json:"error"`
	}
	cctx, cancel := context.WithTimeout(ctx, ttl)
	defer cancel()
	err := t.EvalWorld(cctx, frame, fmt.Sprintf(testingCallJS, n, in, id), &ans)
	if err != nil && cctx.Err() != nil {
		actx, acancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second) // a stuck page never answers
		_ = t.EvalWorld(actx, frame, fmt.Sprintf("globalThis.__waymarkToolCalls?.get(%d)?.abort()", id), nil)
		acancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, calls.Errorf(calls.ErrTimeout, "pass a longer timeout, or look at the page", "the page's tool %s did not answer within %s", name, ttl)
	}
	if err != nil {
		return nil, err
	}
	if ans.Status == "Unsupported" {
		return nil, calls.Errorf(calls.ErrBadInput, "run the browser with --enable-features=WebMCP,DevToolsWebMCPSupport,WebMCPTesting (waymark's own browsers have them)",
			"the browser lists the page's tools but offers no way to call them (no WebMCP.invokeTool, no navigator.modelContextTesting)")
	}
	ev := &webmcp.EventToolResponded{Status: ans.Status, ErrorText: ans.Error}
	if ans.Output != nil {
		out := []byte(*ans.Output)
		if !json.Valid(out) {
			out, _ = json.Marshal(*ans.Output)
		}
		ev.Output = out
	}
	return toolOutcome(name, url, ev)
}

// toolOutcome turns the page's answer into a result or an error. The
// page's words are quoted, never spoken (invariant 3).
func toolOutcome(name, url string, ev *webmcp.EventToolResponded) (*calls.PageToolResult, error) {
	switch ev.Status {
	case webmcp.InvocationStatusCompleted, statusSuccess:
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
