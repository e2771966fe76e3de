package driver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/pagetool"
)

// Page tools (WebMCP): the page's tools are read and called by package
// pagetool (driver/internal/pagetool); the session decides whether a call
// may be made (the approval rule, the send gate) and says the tools in a
// look's first line.

// webMCP starts listening to the tab's WebMCP events (once) and returns
// its tools (driver/internal/pagetool).
func (t *tab) webMCP(ctx context.Context) (*pagetool.Tools, error) {
	t.mu.Lock()
	if t.tools == nil {
		t.tools = pagetool.New(t.frameID)
	}
	pt := t.tools
	t.mu.Unlock()
	if err := pt.Start(ctx, t, browserErr); err != nil {
		return nil, err
	}
	return pt, nil
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
	tools, dropped := pt.List()
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
	tools, dropped := pt.List()
	if req.Name == "" {
		if pt.Unsupported() != "" {
			return nil, calls.Errorf(calls.ErrBadInput, "run the browser with --enable-features=WebMCP,DevToolsWebMCPSupport,WebMCPTesting (waymark's own browsers have them)", "%s", pt.Unsupported())
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
	args, input, err := pagetool.Args(tool, req.Args)
	if err != nil {
		return nil, err
	}
	a := calls.Approval{Action: "call", URL: s.mask(info.URL), Control: "page tool " + tool.Name,
		Why: "may act, as the page does not mark the tool read-only", Form: args}
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
		return nil, needsApproval(t.bind(a), a.Line()+", so it needs approval; it was not called")
	case req.Submits == "ask":
		// Read-only is the page's word: held to it (pagetools_sends.go).
		return s.invokeWatched(ctx, t, pt, tool, input, req.TimeoutMS, info.URL, a, "")
	}
	return pt.Invoke(ctx, t, browserErr, tool.Name, input, req.TimeoutMS, info.URL)
}
