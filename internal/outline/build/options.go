package build

import (
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/domsnapshot"

	"github.com/waymark-dev/waymark/internal/outline"
)

// styleNames are the computed styles Outline reads, in the order Params asks
// for them; the indexes below follow this order.
var styleNames = []string{"display", "visibility", "cursor"}

const (
	styleDisplay = iota
	styleVisibility
	styleCursor
)

// Params returns the captureSnapshot params Outline expects: the computed
// styles it reads and nothing else, since every extra table (DOM rects, paint
// order, colours) costs time in the renderer and bytes on the wire.
func Params() domsnapshot.CaptureSnapshotParams {
	return domsnapshot.CaptureSnapshotParams{
		ComputedStyles: append([]string(nil), styleNames...),
	}
}

// Options tunes Outline. The zero value is valid: no refs, no viewport
// (InViewport is false everywhere, and Render then renders in full).
type Options struct {
	// Ref gives the ref (like "e12") for an element an agent can act on; nil
	// means no refs. frame is the FrameID of the document the node lives in
	// (DocumentSnapshot.FrameID). Outline calls it only for actionable
	// elements.
	Ref func(frame cdp.FrameID, id cdp.BackendNodeID) string
	// Viewport is the top document's visible area (scroll offset and size),
	// for InViewport. A zero Viewport sets no InViewport.
	Viewport outline.Rect
	// Invalid holds the validation message of each field the page shows
	// as invalid (:user-invalid), by backend node id: a DOMSnapshot does
	// not carry it, so the caller reads it in the page (driver/look.go).
	Invalid map[cdp.BackendNodeID]string
}
