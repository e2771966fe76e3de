package driver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/locator"
	"github.com/waymark-dev/waymark/internal/outline"
	"github.com/waymark-dev/waymark/internal/targets"
)

// Locate returns the evidence for one element: every locator that reaches
// it with its match count now, the one chosen, and its fingerprint.
func (s *Session) Locate(ctx context.Context, req calls.LocateRequest) (reply *calls.Evidence, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	el, err := s.find(ctx, t, req.Target, 0)
	if err != nil {
		return nil, err
	}
	root, err := s.look(ctx, t)
	if err != nil {
		return nil, err
	}
	n := nodeOf(root, el)
	if n == nil {
		return nil, calls.Errorf(calls.ErrNotInteractable, "it may be hidden; run "+calls.Cmd("snapshot"), "%s is not in the outline", el.what)
	}
	ev := targets.Locate(root, n, s.cssCounter(ctx, t, backendOf(n)))
	return &ev, nil
}

// cssCounter counts CSS matches in the tab's main document and says
// whether node is among them.
func (s *Session) cssCounter(ctx context.Context, t *tab, node cdp.BackendNodeID) targets.CSSCounter {
	return func(sel string) (int, bool, error) {
		ids, err := s.queryCSS(ctx, t, sel)
		return len(ids), slices.Contains(ids, node), err
	}
}

// nodeOf finds an element's node in the outline.
func nodeOf(root *outline.Node, el *element) *outline.Node {
	var found *outline.Node
	root.Walk(func(n *outline.Node, _ int) bool {
		if found == nil && backendOf(n) == el.node && (frameOf(n) == el.frame || el.frame == "") {
			found = n
		}
		return found == nil
	})
	return found
}

// Find resolves a recorded locator and fingerprint on the page now: found,
// moved (with the new locator), ambiguous, replaced or missing. It presses
// nothing.
func (s *Session) Find(ctx context.Context, req calls.FindRequest) (reply *calls.Resolution, err error) {
	defer s.masked(&reply, &err)
	t, ctx, end, err := s.enter(ctx, usePage)
	if err != nil {
		return nil, err
	}
	defer end(&err)
	root, err := s.look(ctx, t)
	if err != nil {
		return nil, err
	}
	var matches []*outline.Node
	if strings.TrimSpace(req.Locator) != "" {
		loc, err := locator.Parse(req.Locator)
		if err != nil {
			return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: err.Error(), Hint: "give the locator as " + calls.Cmd("locate") + " prints it"}
		}
		switch loc.Kind {
		case locator.Ref:
			return nil, calls.Errorf(calls.ErrBadInput, "a recorded step holds a locator, not a ref: use "+calls.Cmd("locate")+" to get one", "find takes a locator, not a ref")
		case locator.CSS:
			ids, err := s.queryCSS(ctx, t, loc.Value)
			if err != nil {
				return nil, err
			}
			for _, id := range ids {
				if n := findAnyBackend(root, id); n != nil {
					matches = append(matches, n)
				}
			}
		default:
			matches = targets.Match(root, loc)
		}
	}
	if req.Fingerprint.Role == "" {
		return nil, calls.Errorf(calls.ErrBadInput, "pass the fingerprint "+calls.Cmd("locate")+" printed", "find needs a fingerprint with at least a role")
	}
	row := -1
	if req.Positional {
		row = req.Row
	}
	r := targets.Resolve(root, matches, req.Fingerprint, row)
	out := &calls.Resolution{Status: r.Status, Reason: r.Reason, Score: r.Comparison.Score,
		Matched: r.Comparison.Matched, Differs: r.Comparison.Differs}
	if r.Node != nil && (r.Status == calls.Found || r.Status == calls.Moved) {
		out.Ref = r.Node.Ref
		if r.Status == calls.Moved {
			out.Locator = targets.Locate(root, r.Node, s.cssCounter(ctx, t, backendOf(r.Node))).Chosen
		}
	}
	if r.Status == calls.Ambiguous || r.Status == calls.Replaced {
		for _, n := range append([]*outline.Node{r.Node}, r.Others...) {
			if n != nil {
				out.Candidates = append(out.Candidates, nodeLine(n))
			}
		}
	}
	if r.Status == calls.Ambiguous && len(out.Candidates) > 0 {
		out.Reason = fmt.Sprintf("%s: %s", r.Reason, strings.Join(out.Candidates, "; "))
	}
	return out, nil
}
