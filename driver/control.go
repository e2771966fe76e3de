package driver

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"

	"github.com/waymark-dev/waymark/calls"
)

// An approval names the control it approves one way, whatever kind it is:
// a submit judged before pressing (submit.go) or a send held at sending,
// in the step or after it (sendgate.go, sendgate_after.go). The name is
// the element as the page shows it, as the submit check's probe
// describes it (js/submit_probe.js: its tag and type, then its words,
// `button[type=button] "Continue"`), never the target the caller typed:
// a replay acts by a ref where the recording typed css=#b, and a client
// may press again by another locator than the first. An approval recorded
// before (a held send's, named by its typed target) no longer matches and
// asks again.
//
// The name is read before the press, from the element the action found;
// a send held during or after the press is of the control as it was
// pressed. A press of the same control again is known by its name, or by
// its element (a press may change its own words: "Continue" becomes
// "Sending…"); another control, though it sends the same request, is not
// the approved one.

// controlID is the control an action presses, as approvals and the sends
// stopped after a step know it.
type controlID struct {
	// shown is the control as the page shows it (js/submit_probe.js);
	// "the focused element" for a key with no target, the typed target
	// when the element could not be read.
	shown string
	// node is its element, zero for none (a key to the focused element).
	node nodeKey
}

// nodeKey is an element of the tab: the session of its frame and its
// node there.
type nodeKey struct {
	tid  target.ID
	node cdp.BackendNodeID
}

// same says whether o is the control c was: the same as the page shows
// it, or the same element.
func (c controlID) same(o controlID) bool {
	return c.shown == o.shown || (c.node.node != 0 && c.node == o.node)
}

// shownControl reads the control el is as the page shows it: the submit
// check's probe, asked for the description alone.
func (s *Session) shownControl(ctx context.Context, el *element) (string, error) {
	var probe struct {
		Control string `json:"control"`
	}
	if err := el.callOn(ctx, jsSubmitProbe, &probe, commitPattern(), "", confusables()); err != nil {
		return "", err
	}
	return probe.Control, nil
}

// actControl is the control an action presses: target, the element it
// found (nil for a key to the focused element, a surface's click-at),
// which the gate may have read already (shown, from its probe). An
// element that cannot be read is named by what the caller typed: an
// approval of it then asks again on a press by another locator.
func (s *Session) actControl(ctx context.Context, target *element, shown string, req calls.ActRequest) controlID {
	if target == nil {
		if shown == "" {
			shown = targetName(req)
		}
		return controlID{shown: shown}
	}
	c := controlID{shown: shown, node: nodeKey{tid: target.tid, node: target.node}}
	if c.shown == "" {
		var err error
		if c.shown, err = s.shownControl(ctx, target); err != nil || c.shown == "" {
			c.shown = targetName(req)
		}
	}
	return c
}

// noteHeldControl binds a held send's approval (by its token) to the
// element pressed: its press again is known by it too (controlID.same).
func (t *tab) noteHeldControl(token string, c controlID) {
	if c.node.node == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.heldFor == nil {
		t.heldFor = map[string]nodeKey{}
	}
	t.heldFor[token] = c.node
}

// approvalFits says whether approval a is of control c: the control it
// names as the page shows it; for a held send's, also its element. A
// submit's approval given before pressing is of its words alone: the
// same element with other words is no longer what the person approved.
func (t *tab) approvalFits(a calls.Approval, c controlID) bool {
	t.mu.Lock()
	node := t.heldFor[a.Token]
	t.mu.Unlock()
	return controlID{shown: a.Control, node: node}.same(c)
}
