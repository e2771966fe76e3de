package driver

import (
	"context"
	"fmt"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/pagetool"
)

// A tool's readOnlyHint is the page's word, and the tool is the page's
// script: it can say read-only and POST. So a read-only tool called
// without approval runs under the submit gate (sendgate.go), as a click
// does: a send it makes — a form submission, a fetch, XHR or beacon with
// a non-GET method, a navigation with one — is stopped before it leaves
// the browser, and the call fails needs_approval naming it. What this
// cannot hold: a GET that acts on a careless site, and a send the tool
// makes after it answered (a timer), once the call is over.

// invokeWatched calls a tool with its tab's sends watched; allow is the
// one send an approval lets through, or "". a is the tool's approval, to
// be asked for when a send is held.
func (s *Session) invokeWatched(ctx context.Context, t *tab, pt *pagetool.Tools, tool calls.PageTool, input []byte, timeoutMS int, url string, a calls.Approval, allow string) (*calls.PageToolResult, error) {
	stop, err := t.watchSends(ctx, allow, func() bool { return s.browser.hasFrames(t.id) })
	if err != nil {
		return nil, err
	}
	if err := s.browser.watchAll(ctx, +1); err != nil {
		stop()
		return nil, err
	}
	defer s.browser.watchAll(context.WithoutCancel(ctx), -1)
	res, err := pt.Invoke(ctx, t, browserErr, tool.Name, input, timeoutMS, url)
	if held := stop(); len(held) > 0 {
		h := held[0]
		a.Why = fmt.Sprintf("sends %s: %s %s, though the page marks the tool read-only", h.kind, h.method, shortURL(h.url))
		a.Sends = t.heldSends(h, &a.Why)
		return nil, needsApproval(t.bind(a), a.Line()+", so it needs approval; the request was stopped before it left the browser, and its answer is dropped")
	}
	return res, err
}
