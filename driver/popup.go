package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/input"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/notice"
)

// overlay is a box drawn over the page, as the page-side probe sees it.
type overlay struct {
	Sig     string `json:"sig"`
	Kind    string `json:"kind"` // dialog, box, sheet, scrim
	Text    string `json:"text"`
	Focus   bool   `json:"focus"` // it holds the focus
	Buttons []struct {
		Text string  `json:"text"`
		X    float64 `json:"x"`
		Y    float64 `json:"y"`
	} `json:"buttons"`
}

// overlays probes the main frame for boxes drawn over the page.
func (t *tab) overlays(ctx context.Context) ([]overlay, error) {
	var out []overlay
	err := t.evalWorld(ctx, t.sess, t.mainFrame(), "("+jsOverlays+")()", &out)
	return out, err
}

// readOverlays reads the overlays over the page at a look and returns the
// func that remembers them, so that the next action catches one appearing
// since (a look reads them while it captures the page, and remembers them
// once it has the outline).
func (t *tab) readOverlays(ctx context.Context) func() {
	ovs, err := t.overlays(ctx)
	if err != nil {
		return func() {}
	}
	seen := map[string]bool{}
	for _, o := range ovs {
		seen[o.Sig] = true
	}
	return func() {
		t.mu.Lock()
		t.lookedOverlays = seen
		t.mu.Unlock()
	}
}

// popupsRead is what readPopups read of the page for judgePopups.
type popupsRead struct {
	ovs    []overlay
	read   bool // false: nothing to judge (no look yet, not the page's first action, or the page went away)
	navSeq int  // the page it read (tab.navSeq)
}

// readPopups reads the overlays over the page for judgePopups, when there
// is something to judge them by. It only reads: an action whose plan
// cannot wait reads them beside it (Act).
func (t *tab) readPopups(ctx context.Context) popupsRead {
	t.mu.Lock()
	looked, first, seq := t.lookedOverlays, t.bannersSeq != t.navSeq+1, t.navSeq
	t.mu.Unlock()
	if looked == nil && !first {
		return popupsRead{navSeq: seq} // no look yet: nothing to compare with
	}
	ovs, err := t.overlays(ctx)
	if err != nil {
		return popupsRead{navSeq: seq} // a page going away has no popups to judge
	}
	return popupsRead{ovs: ovs, read: true, navSeq: seq}
}

// judgePopups runs right before an action, on the overlays readPopups
// read (beside the plan, or right after it): an overlay that appeared since
// the last look stops the action with ErrPopup, except a cookie banner
// (closed by its least-tracking answer) and an app banner (closed by its
// own "not now"); each close is said in the returned notes.
//
// The first action on a page also answers a cookie banner that was there
// at load (seen by the look or not), unless the action is on one of the
// banner's own buttons: the usual banner is there from the start, and
// would otherwise cover the click.
func (s *Session) judgePopups(ctx context.Context, t *tab, target string, r popupsRead) (notes []string, err error) {
	if r.navSeq != t.mark().navSeq {
		r = t.readPopups(ctx) // read on a page since left: read this one
	}
	t.mu.Lock()
	looked := t.lookedOverlays
	first := t.bannersSeq != t.navSeq+1
	t.bannersSeq = t.navSeq + 1
	t.mu.Unlock()
	if !r.read {
		return nil, nil
	}
	ovs := r.ovs
	if first {
		notes, err = s.answerBanners(ctx, t, ovs, target)
		if err != nil || looked == nil {
			return notes, err
		}
	}
	for _, o := range ovs {
		if looked[o.Sig] {
			continue
		}
		var labels []string
		for _, b := range o.Buttons {
			labels = append(labels, b.Text)
		}
		kind, pick := notice.ClassifyOverlay(o.Text, labels)
		if pick >= 0 {
			b := o.Buttons[pick]
			if err := t.press(ctx, point{X: b.X, Y: b.Y}, input.MouseButtonLeft, 1, nil); err != nil {
				return notes, err
			}
			if err := t.settle(ctx, t.mark(), paceClick); err != nil {
				return notes, err
			}
			notes = append(notes, closedNote(kind, b.Text))
			continue
		}
		what := o.Kind
		if kind != "" {
			what = kind
		}
		detail, _ := json.Marshal(map[string]any{"kind": what, "text": o.Text, "buttons": labels})
		return notes, &calls.Error{Kind: calls.ErrPopup, Data: detail,
			Msg:  fmt.Sprintf("a %s appeared over the page since your last look: %q with %s; nothing was done", what, clip(o.Text, 120), quoteList(labels, 6)),
			Hint: "run " + calls.Cmd("snapshot") + " to see it, then answer it or close it"}
	}
	return notes, nil
}

// answerBanners answers the cookie banners of ovs seen at the last look
// (all of ovs when there was none) by their least-tracking choice, and
// marks them seen. A banner one of whose buttons the action names (by ref
// line or locator words) is the action's own business and is left.
func (s *Session) answerBanners(ctx context.Context, t *tab, ovs []overlay, target string) ([]string, error) {
	t.mu.Lock()
	looked := t.lookedOverlays
	t.mu.Unlock()
	// The action's aim: its target and its element's outline line, found
	// only when a banner is there to answer, and once. Most pages have
	// none, and the action's plan found the element just before: a find
	// here was a second one (two to four round trips) on every page's
	// first action.
	aim, found := strings.ToLower(target), false
	aimOf := func() string {
		if !found {
			found = true
			if el, err := s.find(ctx, t, target, 0); err == nil && el != nil {
				aim += " " + strings.ToLower(el.line)
			}
		}
		return aim
	}
	var notes []string
	for _, o := range ovs {
		if looked != nil && !looked[o.Sig] {
			continue // appeared since the look: the usual check decides
		}
		var labels []string
		for _, b := range o.Buttons {
			labels = append(labels, b.Text)
		}
		kind, pick := notice.ClassifyOverlay(o.Text, labels)
		if kind != calls.NoticeCookieBanner || pick < 0 || ownButton(aimOf(), labels) {
			continue
		}
		b := o.Buttons[pick]
		if err := t.press(ctx, point{X: b.X, Y: b.Y}, input.MouseButtonLeft, 1, nil); err != nil {
			return notes, err
		}
		if err := t.settle(ctx, t.mark(), paceClick); err != nil {
			return notes, err
		}
		notes = append(notes, closedNote(kind, b.Text)+", there when the page loaded")
	}
	return notes, nil
}

// ownButton reports whether the action's aim (its target, and the
// outline line of its element) names one of the labels: quoted as in an
// outline line or a role locator, or as a text locator's words.
func ownButton(aim string, labels []string) bool {
	if strings.TrimSpace(aim) == "" {
		return false
	}
	for _, l := range labels {
		l = strings.ToLower(strings.TrimSpace(l))
		if l != "" && (strings.Contains(aim, `"`+l+`"`) || strings.HasSuffix(aim, "="+l) || strings.Contains(aim, "="+l+" ")) {
			return true
		}
	}
	return false
}

func closedNote(kind, button string) string {
	return fmt.Sprintf("closed the %s by %q", strings.ReplaceAll(kind, "-", " "), button)
}

// popupNote is how closed banners are said in an outcome.
func popupNote(notes []string) string { return strings.Join(notes, "; ") }
