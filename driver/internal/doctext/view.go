package doctext

import (
	"context"
	"time"

	"github.com/waymark-dev/waymark/driver/internal/elem"
	"github.com/waymark-dev/waymark/internal/hand"
)

// View is the core as a document's driving sees it: the session and the
// tab the call entered, through the doors of driver/surface.go. The
// promises stay the core's: typing goes through WithoutSubmits (the send
// gate holds a form the Enter that starts a line would send), and a text
// typed as a secret is registered before the first key and its editor
// marked after, by the core, around [Insert.Type].
type View interface {
	// Find resolves a ref or locator to one element, waiting up to
	// timeout; h rolls it into view with the wheel.
	Find(ctx context.Context, what string, timeout time.Duration, h *hand.Hand) (elem.Element, error)
	// WorldNode runs fn in waymark's isolated world of the main frame,
	// with on as this (or none), and returns the element it returns; nil
	// for null.
	WorldNode(ctx context.Context, on elem.Element, fn string) (elem.Element, error)
	// PressKeys presses each chord on whatever has the focus.
	PressKeys(ctx context.Context, chords ...string) error
	// TypeKeys types text with the keyboard, or at h's pace.
	TypeKeys(ctx context.Context, text string, h *hand.Hand) error
	// InsertText inserts text as one input, as a paste would.
	InsertText(ctx context.Context, text string) error
	// PressAt presses the left button once at p (the mouse moved there
	// at once, or along h's path).
	PressAt(ctx context.Context, p elem.Point, h *hand.Hand) error
	// ShiftClickAt clicks at p with Shift held.
	ShiftClickAt(ctx context.Context, p elem.Point) error
	// Copy copies the selection with Control+C and reads the clipboard.
	Copy(ctx context.Context) (text, html string, err error)
	// WithoutSubmits runs do with the tab's form submissions held; what
	// names the typing in the error.
	WithoutSubmits(ctx context.Context, what string, do func() error) error
	// Drawn waits for the page to draw two frames and run its timers once.
	Drawn(ctx context.Context) error
	// Hand is the tab's hand when on, else nil.
	Hand(on bool) *hand.Hand
}
