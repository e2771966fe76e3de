// Package elem is the core's element-level view, as the feature rooms
// see it: one element of a page (where it lives and its node stay the
// core's), the checks a pointer action passes, and a point of the view.
// The core's element satisfies [Element] through the doors in
// driver/surface.go; a room gets elements from the core (a read of a
// frame, a locator found, a node a script named) and acts on them only
// through these methods, so every click, key and value still goes
// through the core's own code: the actionability checks, the hand, the
// fill's insert, the checked state read back. Typing a secret, the send
// gate and approvals are not here: they are the session's, and a room
// asks for them through its own view of the core (form.View,
// sheetcell.View, doctext.View).
//
// It is the rooms' shared vocabulary, not a room: it holds no code that
// acts, imports no room and not the core, and every room may import it
// (driver/deps_test.go), as chromedp's Node and rod's Element are what
// their callers hold.
package elem

import (
	"context"
	"time"

	"github.com/waymark-dev/waymark/internal/hand"
)

// DefaultTimeout bounds the wait for an element to be actionable when the
// caller gives none (the core's act default).
const DefaultTimeout = 5 * time.Second

// Checks are what an element must pass before a pointer action, as rod's
// Interactable: visible (it has a box, scrolled into view), enabled, and
// hit (the top element at the press point is it or inside it). The core
// waits them out until the timeout, and names what failed last.
type Checks int

// The checks, to be or-ed.
const (
	Visible Checks = 1 << iota
	Enabled
	Hit
)

// Point is a place in the top page's view, in CSS pixels; W and H are the
// size of the element there (a hand's aim), and may be zero.
type Point struct {
	X, Y float64
	W, H float64
}

// Element is one element of the tab's page, of its main frame or of any
// frame. Errors are the core's: a node that went away is calls.ErrStaleRef
// (named by What), a covered one a calls.CoveredError.
type Element interface {
	// What names it in messages: a ref ("e12"), a key, "the option".
	What() string
	// Named is the same element, named what in messages from now on.
	Named(what string) Element
	// InFrame says it lives in an out-of-process frame (its own target).
	InFrame() bool
	// CallOn calls fn, a JavaScript function, with the element as this in
	// its frame's isolated world (the page cannot see it), with args as
	// JSON, and decodes what it returns into out (nil to drop it).
	CallOn(ctx context.Context, fn string, out any, args ...any) error
	// NodesOn calls fn as CallOn does and returns the elements of the
	// array it returns, in the element's frame, named as the element; nil
	// on any failure.
	NodesOn(ctx context.Context, fn string) []Element
	// Focus gives it the keyboard focus.
	Focus(ctx context.Context) error
	// Where scrolls it into view, waits until it passes checks, and
	// returns the point to press.
	Where(ctx context.Context, checks Checks, timeout time.Duration) (Point, error)
	// Click presses it once with the left button once it passes checks:
	// the mouse moved there at once, or along h's path.
	Click(ctx context.Context, checks Checks, timeout time.Duration, h *hand.Hand) error
	// Fill replaces what the field holds with value, as a paste would, or
	// typed at h's pace; a date-like input gets its value set.
	Fill(ctx context.Context, value string, timeout time.Duration, h *hand.Hand) error
	// TypeText types text key by key at the end of what the field holds.
	TypeText(ctx context.Context, text string, timeout time.Duration, h *hand.Hand) error
	// Checked reads whether it is a checkbox, radio or switch (or the
	// label of one), and whether it is checked.
	Checked(ctx context.Context) (checkable, checked bool, err error)
	// SetChecked clicks a checkbox, radio or switch when its state
	// differs, then checks the state took.
	SetChecked(ctx context.Context, on bool, timeout time.Duration, h *hand.Hand) error
}

// FrameRead is what a script returned in one frame of the tab (a read
// of every frame): the JSON text of the first item of the array it
// returned, and the rest of the array's items as elements (nil where a
// node went away while read).
type FrameRead struct {
	URL   string // the frame's URL with its fragment, as the tab lists it
	Frame string // its id, to name it when it has no URL
	JSON  string
	Nodes []Element
	Err   error // the frame could not be read: Nodes is empty
}
