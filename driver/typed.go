package driver

import (
	"context"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// The typed actions: one method per kind of action, each a thin layer over
// [Session.Act], so a program reads as chromedp's and rod's do:
//
//	s.Fill(ctx, "label=Email", "ann@example.com")
//	s.Click(ctx, `role=button[name="Sign in"]`, driver.WithTimeout(3*time.Second))
//
// Act stays the one way in (the submit gate, the URL policy, the secret
// registry and the settle wait all live behind it); these methods only
// build its request. A target is a ref from the last outline ("@e3") or a
// locator: role=button[name="Sign in"], label=Email, text=Continue,
// placeholder=Search, testid=submit, css=#go. Plain words ("the Sign in
// button") are the pilot's to resolve (package pilot), never the driver's:
// the driver does not guess.

// ActOption changes one typed action.
type ActOption func(*calls.ActRequest)

// WithTimeout bounds the wait for the element to be actionable (visible,
// enabled, not covered); the default is 5 s.
func WithTimeout(d time.Duration) ActOption {
	return func(r *calls.ActRequest) { r.TimeoutMS = int(d / time.Millisecond) }
}

// WithHand moves the pointer along a person's path and types at a person's
// pace: pages with hover menus and debounced fields then behave as they do
// for people.
func WithHand() ActOption {
	return func(r *calls.ActRequest) { r.Hand = true }
}

// AskBeforeSubmit makes an action that would send a form, pay, delete or
// confirm fail with [calls.ErrNeedsApproval] instead of doing it; the
// error carries the [calls.Approval] ([calls.ApprovalOf] reads it) to pass
// back with [WithApproval] once a person agreed. Without it the action is
// done: the program chose the exact element.
func AskBeforeSubmit() ActOption {
	return func(r *calls.ActRequest) { r.Submits = "ask" }
}

// WithApproval sends an earlier approval back: the action proceeds only if
// the page still matches what was approved.
func WithApproval(a calls.Approval) ActOption {
	return func(r *calls.ActRequest) { r.Approve = &a }
}

// AsSecret says the value typed is the secret called name: from then on
// the field shows «secret:NAME» in every outline, and no output of the
// session (outlines, screenshots, logs, captures) shows the value.
func AsSecret(name string) ActOption {
	return func(r *calls.ActRequest) { r.Secret = name }
}

// act builds the request for one kind and sends it through Act.
func (s *Session) act(ctx context.Context, req calls.ActRequest, opts []ActOption) (*calls.Outcome, error) {
	for _, o := range opts {
		o(&req)
	}
	return s.Act(ctx, req)
}

// Click clicks the target with the left button.
func (s *Session) Click(ctx context.Context, target string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: target}, opts)
}

// DoubleClick double-clicks the target.
func (s *Session) DoubleClick(ctx context.Context, target string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActDblClick, Target: target}, opts)
}

// Hover moves the pointer over the target.
func (s *Session) Hover(ctx context.Context, target string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActHover, Target: target}, opts)
}

// Focus gives the target the keyboard focus.
func (s *Session) Focus(ctx context.Context, target string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActFocus, Target: target}, opts)
}

// Fill replaces what the field holds with value.
func (s *Session) Fill(ctx context.Context, target, value string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: target, Value: value}, opts)
}

// Type types text into the field after what it holds, key by key; a line
// break is typed as Enter.
func (s *Session) Type(ctx context.Context, target, text string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActType, Target: target, Value: text}, opts)
}

// Press presses a key or a chord ("Enter", "Control+A") in the target, or
// in whatever has the focus when target is empty.
func (s *Session) Press(ctx context.Context, target, key string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActPress, Target: target, Key: key}, opts)
}

// Select chooses options of a select, combobox or listbox, by their labels
// or values.
func (s *Session) Select(ctx context.Context, target string, values []string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActSelect, Target: target, Values: values}, opts)
}

// Check ticks a checkbox, switch or radio button; one already ticked is
// left as it is.
func (s *Session) Check(ctx context.Context, target string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActCheck, Target: target}, opts)
}

// Uncheck unticks a checkbox or switch.
func (s *Session) Uncheck(ctx context.Context, target string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActUncheck, Target: target}, opts)
}

// Scroll scrolls the page (target empty) or the target's scroll box by
// pixels in a direction: "up", "down", "left" or "right"; zero pixels
// means 600.
func (s *Session) Scroll(ctx context.Context, target, direction string, pixels int, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActScroll, Target: target, Direction: direction, Pixels: pixels}, opts)
}

// ScrollIntoView scrolls until the target is in the view.
func (s *Session) ScrollIntoView(ctx context.Context, target string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActScroll, Target: target, Direction: "into-view"}, opts)
}

// Upload sets the files of a file input (absolute paths).
func (s *Session) Upload(ctx context.Context, target string, files []string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActUpload, Target: target, Files: files}, opts)
}

// Drag drags the target and drops it on another element.
func (s *Session) Drag(ctx context.Context, target, onto string, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActDrag, Target: target, To: onto}, opts)
}

// DragBy drags the target by an offset in CSS pixels from its centre (a
// slider's thumb, a map).
func (s *Session) DragBy(ctx context.Context, target string, dx, dy float64, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActDrag, Target: target, By: &calls.Point{X: dx, Y: dy}}, opts)
}

// ClickAt clicks at a point of the view, in CSS pixels from its top left
// corner: the control under the point gets the ordinary click (with its
// submit gate); a canvas or a map gets the press exactly there.
func (s *Session) ClickAt(ctx context.Context, x, y float64, opts ...ActOption) (*calls.Outcome, error) {
	return s.act(ctx, calls.ActRequest{Kind: calls.ActClickAt, At: &calls.Point{X: x, Y: y}}, opts)
}

// Navigate opens url in the session's current tab and waits for it to
// settle; the URL policy decides first.
func (s *Session) Navigate(ctx context.Context, url string) (*calls.PageInfo, error) {
	return s.Open(ctx, calls.OpenRequest{URL: url})
}

// Outline returns the page's outline of what can be acted on: one element
// a line, each with the ref a target may name.
func (s *Session) Outline(ctx context.Context) (string, error) {
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true})
	if err != nil {
		return "", err
	}
	return snap.Text, nil
}
