package driver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/internal/locator"
	"github.com/waymark-dev/waymark/internal/targets"
	"github.com/waymark-dev/waymark/internal/wait"
)

// element is one element an action works on: where it lives (the tab, the
// target and frame) and its backend node id.
type element struct {
	tab   *tab
	tid   target.ID   // "" for the tab's own session, else an out-of-process frame
	sess  cdp.Session // the session of tid
	frame cdp.FrameID
	node  cdp.BackendNodeID
	what  string     // how to name it in messages: "e12" or the locator
	line  string     // its outline line, when known
	hand  *hand.Hand // when set, the element is rolled into view with the wheel
}

// gone turns a failure to reach the node into a stale-ref error. A
// failure for want of the connection is no word on the node: it is
// returned as it is, for the resolver or the call's end (health.go) to
// name (browser_gone when the browser went).
func (el *element) gone(err error) error {
	if errors.Is(err, calls.ErrBrowserGone) || lostConnection(err) {
		return err
	}
	if ref, ok := normalizeRef(el.what); ok {
		return staleRef(ref, el.line)
	}
	return calls.Errorf(calls.ErrStaleRef, "run "+calls.Cmd("snapshot")+" and try again", "%s is no longer on the page", el.what)
}

// find resolves what the caller typed (a ref or a locator) to one element,
// waiting up to the deadline for a locator to match.
func (s *Session) find(ctx context.Context, t *tab, what string, timeout time.Duration) (*element, error) {
	what = strings.TrimSpace(what)
	if what == "" {
		return nil, calls.Errorf(calls.ErrBadInput, "pass a ref such as @e12 (from "+calls.Cmd("snapshot")+") or a locator such as text=Continue", "no target given")
	}
	if ref, ok := normalizeRef(what); ok {
		return s.findRef(ctx, t, ref)
	}
	loc, err := locator.Parse(what)
	if err != nil {
		return nil, &calls.Error{Kind: calls.ErrBadInput, Msg: err.Error(),
			Hint: `use a ref (@e12) or role=button[name="Pay"], text=…, label=…, placeholder=…, testid=…, css=…`}
	}
	deadline := time.Now().Add(timeout)
	for {
		els, err := s.match(ctx, t, loc)
		if err != nil {
			return nil, err
		}
		switch {
		case len(els) == 1:
			return els[0], nil
		case len(els) > 1:
			return nil, ambiguous(what, els)
		}
		if time.Now().After(deadline) {
			return nil, calls.Errorf(calls.ErrNoMatch, "run "+calls.Cmd("snapshot")+" to see what the page holds now",
				"no element matches %s (waited %s)", what, timeout.Round(time.Millisecond))
		}
		if err := wait.Sleep(ctx, 100*time.Millisecond); err != nil {
			return nil, err
		}
	}
}

func ambiguous(what string, els []*element) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d elements match %s:", len(els), what)
	for i, el := range els {
		if i == 5 {
			fmt.Fprintf(&b, "\n  … and %d more", len(els)-5)
			break
		}
		fmt.Fprintf(&b, "\n  - %s", el.line)
	}
	return calls.Errorf(calls.ErrAmbiguous, "use one of the refs above, or a more exact locator", "%s", b.String())
}

// findRef resolves a ref and checks its node is still there.
func (s *Session) findRef(ctx context.Context, t *tab, ref string) (*element, error) {
	e, ok := s.refs.lookup(ref)
	if !ok {
		return nil, unknownRef(ref)
	}
	if e.tab != t {
		return nil, calls.Errorf(calls.ErrStaleRef, "switch to that tab with "+calls.Cmd("tab switch")+", or take a new snapshot",
			"[ref=%s] belongs to another tab", ref)
	}
	if !s.refs.current(ref) {
		return nil, staleRef(ref, e.line)
	}
	sess, err := t.session(e.target)
	if err != nil {
		return nil, staleRef(ref, e.line)
	}
	el := &element{tab: t, tid: e.target, sess: sess, frame: e.key.frame, node: e.key.node, what: ref, line: e.line}
	// A node of a document that went away may still resolve for a while,
	// so ask whether it is still in a document, and whether it is still
	// what the ref showed: a framework may have reused the node for
	// another control (invariant 4: never press a different element).
	var now struct {
		Connected bool              `json:"connected"`
		Tag       string            `json:"tag"`
		Text      string            `json:"text"`
		Attrs     map[string]string `json:"attrs"`
	}
	if err := el.callOn(ctx, jsIdentity, &now, identityAttrs); err != nil {
		if ctx.Err() == nil && lostConnection(err) && s.browser.waitGone(goneWait) {
			// The browser died between the look and this act: the row
			// of a batch is retried, not failed as a stale ref.
			return nil, browserGoneErr()
		}
		return nil, el.gone(err)
	}
	if !now.Connected {
		return nil, el.gone(nil)
	}
	if e.tag != "" && (now.Tag != e.tag || (e.text != "" && !targets.Alike(e.text, foldText(now.Text)))) {
		return nil, calls.Errorf(calls.ErrStaleRef, "run "+calls.Cmd("snapshot")+" again and use a ref from it",
			"[ref=%s] showed %s, but that element now says %q; it changed after your last look", ref, strings.TrimPrefix(e.line, "- "), clip(now.Text, 60))
	}
	for _, a := range identityAttrs {
		was, is := e.attrs[a], now.Attrs[a]
		if a == "aria-label" || a == "placeholder" {
			// Words may change a little on the same control ("Cart (1
			// item)" → "Cart (2 items)"); a different word is another one.
			if k1, k2 := labelKey(was), labelKey(is); k1 == k2 || (k1 != "" && k2 != "" && targets.Alike(k1, k2)) {
				continue
			}
		}
		if e.attrs != nil && is != was {
			return nil, calls.Errorf(calls.ErrStaleRef, "run "+calls.Cmd("snapshot")+" again and use a ref from it",
				"[ref=%s] showed %s, but its %s is now %q (was %q); it changed after your last look", ref, strings.TrimPrefix(e.line, "- "), a, clip(now.Attrs[a], 60), clip(e.attrs[a], 60))
		}
	}
	return el, nil
}

// match returns the elements a locator matches on the page now.
func (s *Session) match(ctx context.Context, t *tab, loc locator.Locator) ([]*element, error) {
	if string(loc.Kind) == "css" {
		ids, err := s.queryCSS(ctx, t, loc.Value)
		if err != nil {
			return nil, err
		}
		frame := t.mainFrame()
		var els []*element
		for _, id := range ids {
			els = append(els, &element{tab: t, sess: t.sess, frame: frame, node: id, what: loc.String(),
				line: "css " + loc.Value})
		}
		return els, nil
	}
	root, err := s.look(ctx, t)
	if err != nil {
		return nil, err
	}
	var els []*element
	for _, n := range targets.Match(root, loc) {
		e, ok := s.refs.entryFor(n)
		el := &element{tab: t, frame: frameOf(n), node: backendOf(n), what: loc.String(), line: nodeLine(n)}
		if ok {
			el.tid = e.target
		} else {
			el.tid = t.targetOfFrame(frameOf(n))
		}
		if sess, err := t.session(el.tid); err == nil {
			el.sess = sess
			els = append(els, el)
		}
	}
	return els, nil
}

// queryCSS returns the backend ids of the elements a CSS selector matches
// in the main document, in document order. The query runs in our isolated
// world; DOM node ids are avoided because chromedp re-requests the document
// on its own and that invalidates them.
func (s *Session) queryCSS(ctx context.Context, t *tab, sel string) ([]cdp.BackendNodeID, error) {
	frame := t.mainFrame()
	id, err := t.world(ctx, t.sess, frame)
	if err != nil {
		return nil, err
	}
	defer release(ctx, t.sess, objectGroup)
	res, err := call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{
		Expression: `Array.from(document.querySelectorAll(` + jsString(sel) + `))`, ContextID: id, ObjectGroup: objectGroup,
	})
	if contextGone(err) {
		t.forgetWorld(frame)
		return nil, calls.Errorf(calls.ErrNoMatch, "the page changed; try again", "the page navigated while querying %q", sel)
	}
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, calls.Errorf(calls.ErrBadInput, "check the CSS selector", "bad CSS selector %q", sel)
	}
	if res.Result == nil || res.Result.ObjectID == "" {
		return nil, nil
	}
	props, err := call(ctx, t, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: res.Result.ObjectID, OwnProperties: new(true)})
	if err != nil {
		return nil, err
	}
	var ids []cdp.BackendNodeID
	for _, p := range props.Result {
		if p.Value == nil || p.Value.ObjectID == "" || p.Value.Subtype != runtime.RemoteObjectSubtypeNode {
			continue
		}
		d, err := call(ctx, t, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: p.Value.ObjectID})
		if err != nil {
			continue
		}
		ids = append(ids, d.Node.BackendNodeID)
	}
	return ids, nil
}

func (t *tab) mainFrame() cdp.FrameID {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.frameID
}

// targetOfFrame returns the out-of-process target a frame belongs to, or ""
// for frames of the tab's own renderer.
func (t *tab) targetOfFrame(frame cdp.FrameID) target.ID {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.frames[target.ID(frame)]; ok {
		return target.ID(frame)
	}
	return ""
}

// labelKey is a label's words without numbers, punctuation or plural
// endings, so that a count in it ("Cart (1 item)", "Cart (2 items)") is
// the same label.
func labelKey(s string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) > 3 && strings.HasSuffix(w, "s") {
			w = w[:len(w)-1]
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}
