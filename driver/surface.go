package driver

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver/internal/doctext"
	"github.com/waymark-dev/waymark/driver/internal/elem"
	"github.com/waymark-dev/waymark/driver/internal/form"
	"github.com/waymark-dev/waymark/driver/internal/sheetcell"
	"github.com/waymark-dev/waymark/internal/hand"
	"github.com/waymark-dev/waymark/internal/keys"
)

// The core's surface for the feature rooms (driver/internal/*): the few
// exported methods of the core's unexported types that the feature
// packages' interfaces ask for (netcap.Tab, …). A feature package never
// imports driver; driver hands it a *tab as the narrow view it declares.
// Everything here is a one-line door onto the core's own code.

// Target is the tab's own CDP session (not an out-of-process frame's).
// Set once when the tab starts; it takes no lock, so a listener may call
// it.
func (t *tab) Target() *chromedp.Target { return t.sess }

// Doc returns the tab's main frame and its document's URL.
func (t *tab) Doc() (frame cdp.FrameID, url string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.frameID, t.docURL
}

// EvalWorld evaluates expr in our isolated world of frame, a frame of the
// tab's own target (world.go), into out.
func (t *tab) EvalWorld(ctx context.Context, frame cdp.FrameID, expr string, out any) error {
	return t.evalWorld(ctx, t.sess, frame, expr, out)
}

// Context is the tab's chromedp context (pagetool.Tab): a listener on it
// lasts as long as the tab. Never a request's.
func (t *tab) Context() context.Context { return t.ctx }

// The element-level view (internal/elem): the core's element as a room
// holds it. Each door is the core's own code for an element; a room has
// no other way to act on one.
var _ elem.Element = (*element)(nil)

// What names the element in messages.
func (el *element) What() string { return el.what }

// Named is a copy of the element named what.
func (el *element) Named(what string) elem.Element {
	c := *el
	c.what = what
	return &c
}

// InFrame says the element lives in an out-of-process frame.
func (el *element) InFrame() bool { return el.tid != "" }

// CallOn is callOn (world.go).
func (el *element) CallOn(ctx context.Context, fn string, out any, args ...any) error {
	return el.callOn(ctx, fn, out, args...)
}

// NodesOn is nodesOn (secret.go), each node a copy of el.
func (el *element) NodesOn(ctx context.Context, fn string) []elem.Element {
	var out []elem.Element
	for _, n := range el.nodesOn(ctx, fn) {
		c := *el
		c.node = n
		out = append(out, &c)
	}
	return out
}

// Focus is focus (edit.go).
func (el *element) Focus(ctx context.Context) error { return el.focus(ctx) }

// Where is actionable (pointer.go).
func (el *element) Where(ctx context.Context, checks elem.Checks, timeout time.Duration) (elem.Point, error) {
	p, err := el.actionable(ctx, checksOf(checks), timeout)
	return elem.Point{X: p.X, Y: p.Y, W: p.W, H: p.H}, err
}

// Click is actionable, then the tab's press (pointer.go).
func (el *element) Click(ctx context.Context, checks elem.Checks, timeout time.Duration, h *hand.Hand) error {
	p, err := el.actionable(ctx, checksOf(checks), timeout)
	if err != nil {
		return err
	}
	return el.tab.press(ctx, p, input.MouseButtonLeft, 1, h)
}

// Fill is fill (edit.go).
func (el *element) Fill(ctx context.Context, value string, timeout time.Duration, h *hand.Hand) error {
	return el.fill(ctx, value, timeout, h)
}

// TypeText is typeText (edit.go).
func (el *element) TypeText(ctx context.Context, text string, timeout time.Duration, h *hand.Hand) error {
	return el.typeText(ctx, text, timeout, h)
}

// SetChecked is setChecked (edit.go).
func (el *element) SetChecked(ctx context.Context, on bool, timeout time.Duration, h *hand.Hand) error {
	return el.setChecked(ctx, on, timeout, h)
}

// checksOf is the core's check bits for a room's.
func checksOf(c elem.Checks) int {
	out := 0
	if c&elem.Visible != 0 {
		out |= checkVisible
	}
	if c&elem.Enabled != 0 {
		out |= checkEnabled
	}
	if c&elem.Hit != 0 {
		out |= checkHit
	}
	return out
}

// pointOf is the core's point for a room's.
func pointOf(p elem.Point) point { return point{X: p.X, Y: p.Y, W: p.W, H: p.H} }

// elementOf is the core's element behind a room's (every elem.Element a
// room holds came from the core).
func elementOf(e elem.Element) *element { return e.(*element) }

// Checked is the checked state (js/checked_state.js) of the element.
func (el *element) Checked(ctx context.Context) (checkable, checked bool, err error) {
	var state struct {
		Checkable bool `json:"checkable"`
		Checked   bool `json:"checked"`
	}
	err = el.callOn(ctx, jsCheckedState, &state)
	return state.Checkable, state.Checked, err
}

// view is the core as a feature room sees it for one call: the session
// and the tab the call entered. Its doors are the session's own choke
// points (the secret list, the upload roots, the keys and the mouse of
// the tab); a room declares the part it needs (form.View).
type view struct {
	s *Session
	t *tab
}

// view is the room's view of the call on t.
func (s *Session) view(t *tab) view { return view{s: s, t: t} }

var _ form.View = view{}

// ReadFrames is readFrames (frames_read.go).
func (v view) ReadFrames(ctx context.Context, expr string, busy time.Duration) ([]elem.FrameRead, []calls.FrameError) {
	return v.s.readFrames(ctx, v.t, expr, busy)
}

// IdentityAttrs are the attributes a ref is known by (refs.go).
func (v view) IdentityAttrs() []string { return identityAttrs }

// Ref gives the element a ref in the session's table, known by its tag
// and attributes when it is first shown here (invariant 4: acting on it
// later refuses a node the page reused), and names the element by it.
func (v view) Ref(e elem.Element, kind, label, tag string, attrs map[string]string) (string, elem.Element) {
	el := elementOf(e)
	ref := v.s.refs.assign(v.t, el.tid, el.frame, el.node)
	line := fmt.Sprintf("%s %q [ref=%s]", kind, clip(label, 60), ref)
	if r, ok := v.s.refs.lookup(ref); ok && r.tag == "" {
		v.s.refs.describe(ref, line, tag, "", attrs)
	}
	c := *el
	c.what, c.line = ref, line
	return ref, &c
}

// Marked says the element is on the session's list of fields that hold
// a secret (secret.go).
func (v view) Marked(e elem.Element) bool {
	el := elementOf(e)
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	_, ok := v.s.secrets[el.node]
	return ok
}

// MarkSecret is markSecret (secret.go).
func (v view) MarkSecret(e elem.Element, name string) { v.s.markSecret(elementOf(e), name) }

// PressKeys is pressKeys (clipboard.go).
func (v view) PressKeys(ctx context.Context, chords ...string) error {
	return pressKeys(ctx, v.t, chords...)
}

// PressAt is the tab's press with the left button (pointer.go).
func (v view) PressAt(ctx context.Context, p elem.Point, h *hand.Hand) error {
	return v.t.press(ctx, pointOf(p), input.MouseButtonLeft, 1, h)
}

// Quiet is the tab's quiet (settle.go).
func (v view) Quiet(ctx context.Context, still time.Duration) error { return v.t.quiet(ctx, still) }

// UploadPath is the browser's upload rules' Resolve (files.Uploads).
func (v view) UploadPath(path, dir string) (string, error) {
	return v.s.browser.uploads().Resolve(path, dir)
}

// CheckUploads is the browser's upload rules' Check (files.Uploads).
func (v view) CheckUploads(paths []string, dir string) ([]string, error) {
	return v.s.browser.uploads().Check(paths, dir)
}

// SetFiles sets a file input's files, once they pass the upload roots.
func (v view) SetFiles(ctx context.Context, e elem.Element, paths []string) error {
	checked, err := v.CheckUploads(paths, "")
	if err != nil {
		return err
	}
	el := elementOf(e)
	_, err = cdpCallEl(ctx, el, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: checked, BackendNodeID: el.node})
	return err
}

// DropFiles drags files onto the page at p and drops them, once they
// pass the upload roots.
func (v view) DropFiles(ctx context.Context, p elem.Point, paths []string) error {
	checked, err := v.CheckUploads(paths, "")
	if err != nil {
		return err
	}
	data := &input.DragData{Items: []*input.DragDataItem{}, Files: checked, DragOperationsMask: 1}
	for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		if _, err := call(ctx, v.t, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: p.X, Y: p.Y, Data: data}); err != nil {
			return browserErr(err)
		}
	}
	return nil
}

// RememberPage is rememberFormPage (form_review.go).
func (v view) RememberPage(f *calls.Form) { v.s.rememberFormPage(f) }

// ShownURL is shownURL (nav.go).
func (v view) ShownURL(raw string) string { return shownURL(raw) }

// Hand is the tab's handFor (tab.go).
func (v view) Hand(on bool) *hand.Hand { return v.t.handFor(on) }

var _ sheetcell.View = view{}

// Find is find (element.go); h rolls the element into view with the
// wheel.
func (v view) Find(ctx context.Context, what string, timeout time.Duration, h *hand.Hand) (elem.Element, error) {
	el, err := v.s.find(ctx, v.t, what, timeout)
	if err != nil {
		return nil, err
	}
	el.hand = h
	return el, nil
}

// TypeKeys types text with the keyboard (keys.Type), or at h's pace
// (typeCadenced, edit.go).
func (v view) TypeKeys(ctx context.Context, text string, h *hand.Hand) error {
	if h != nil {
		return browserErr(v.t.typeCadenced(ctx, text, h))
	}
	return browserErr(keys.Send(ctx, v.t.sess, keys.Type(text)))
}

// MoveTo is the tab's moveTo (pointer.go).
func (v view) MoveTo(ctx context.Context, p elem.Point, h *hand.Hand) error {
	return v.t.moveTo(ctx, pointOf(p), h)
}

// ShiftClickAt is the tab's shiftClick (pointer.go).
func (v view) ShiftClickAt(ctx context.Context, p elem.Point) error {
	return v.t.shiftClick(ctx, pointOf(p))
}

// Copy is copySelection (clipboard.go).
func (v view) Copy(ctx context.Context) (text, html string, err error) {
	return v.s.copySelection(ctx)
}

// WithoutSubmits is withoutSubmits (sendgate.go).
func (v view) WithoutSubmits(ctx context.Context, what string, do func() error) error {
	return v.s.withoutSubmits(ctx, v.t, what, do)
}

// EvalPage is evalWorld on the tab's main frame (world.go).
func (v view) EvalPage(ctx context.Context, expr string, out any) error {
	return v.t.evalWorld(ctx, v.t.sess, v.t.mainFrame(), expr, out)
}

// Mask is mask (registry.go).
func (v view) Mask(text string) string { return v.s.mask(text) }

var _ doctext.View = view{}

// WorldNode is the tab's worldNode (document.go), as an element of the
// main frame.
func (v view) WorldNode(ctx context.Context, on elem.Element, fn string) (elem.Element, error) {
	var el *element
	if on != nil {
		el = elementOf(on)
	}
	node, err := v.t.worldNode(ctx, el, fn)
	if err != nil || node == 0 {
		return nil, err
	}
	return &element{tab: v.t, sess: v.t.sess, frame: v.t.mainFrame(), node: node}, nil
}

// InsertText inserts text as one input (Input.insertText).
func (v view) InsertText(ctx context.Context, text string) error {
	_, err := call(ctx, v.t, input.InsertText, input.InsertTextParams{Text: text})
	return err
}

// Drawn is the tab's drawn (settle.go).
func (v view) Drawn(ctx context.Context) error { return v.t.drawn(ctx) }
