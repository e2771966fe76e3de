package sheetcell

import (
	"context"
	"time"

	"github.com/waymark-dev/waymark/driver/internal/elem"
	"github.com/waymark-dev/waymark/internal/hand"
)

// View is the core as a sheet's driving sees it: the session and the tab
// the call entered, through the doors of driver/surface.go. The promises
// stay the core's: typing goes through WithoutSubmits (the send gate
// holds a form the Enter that commits a cell would send), a value typed
// as a secret is registered by the core before the first key, and a
// fill's approval is asked and checked by the core.
type View interface {
	// Find resolves a locator (css=…) to one element, waiting up to
	// timeout; h rolls it into view with the wheel.
	Find(ctx context.Context, what string, timeout time.Duration, h *hand.Hand) (elem.Element, error)
	// PressKeys presses each chord on whatever has the focus.
	PressKeys(ctx context.Context, chords ...string) error
	// TypeKeys types text with the keyboard, or at h's pace.
	TypeKeys(ctx context.Context, text string, h *hand.Hand) error
	// PressAt presses the left button once at p (the mouse moved there
	// at once, or along h's path).
	PressAt(ctx context.Context, p elem.Point, h *hand.Hand) error
	// MoveTo moves the mouse to p, at once or along h's path.
	MoveTo(ctx context.Context, p elem.Point, h *hand.Hand) error
	// ShiftClickAt clicks where the mouse is, at p, with Shift held.
	ShiftClickAt(ctx context.Context, p elem.Point) error
	// Copy copies the selection with Control+C and reads the clipboard.
	Copy(ctx context.Context) (text, html string, err error)
	// WithoutSubmits runs do with the tab's form submissions held; what
	// names the typing in the error.
	WithoutSubmits(ctx context.Context, what string, do func() error) error
	// EvalPage evaluates expr in waymark's isolated world of the main
	// frame into out.
	EvalPage(ctx context.Context, expr string, out any) error
	// Mask replaces the values typed as secrets in the session.
	Mask(text string) string
	// Hand is the tab's hand when on, else nil.
	Hand(on bool) *hand.Hand
}
