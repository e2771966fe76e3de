package outline

import (
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/domsnapshot"
)

// styleNames are the computed styles Build reads, in the order Params asks for
// them; the indexes below follow this order.
var styleNames = []string{"display", "visibility"}

const (
	styleDisplay = iota
	styleVisibility
)

// Params returns the captureSnapshot params Build expects: the computed
// styles it reads and nothing else, since every extra table (DOM rects, paint
// order, colours) costs time in the renderer and bytes on the wire.
func Params() domsnapshot.CaptureSnapshotParams {
	return domsnapshot.CaptureSnapshotParams{
		ComputedStyles: append([]string(nil), styleNames...),
	}
}

// Rect is a box in CSS pixels in the top document's coordinate space.
type Rect struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// empty reports whether r has no area.
func (r Rect) empty() bool { return r.W <= 0 || r.H <= 0 }

// intersects reports whether r and o overlap.
func (r Rect) intersects(o Rect) bool {
	return r.X < o.X+o.W && o.X < r.X+r.W && r.Y < o.Y+o.H && o.Y < r.Y+r.H
}

// union returns the smallest rect holding r and o; an empty rect is ignored.
func (r Rect) union(o Rect) Rect {
	if o.empty() {
		return r
	}
	if r.empty() {
		return o
	}
	x0, y0 := min(r.X, o.X), min(r.Y, o.Y)
	x1, y1 := max(r.X+r.W, o.X+o.W), max(r.Y+r.H, o.Y+o.H)
	return Rect{x0, y0, x1 - x0, y1 - y0}
}

// BuildOptions tunes Build. The zero value is valid: no refs, no viewport
// (InViewport is false everywhere, and Render then renders in full).
type BuildOptions struct {
	// Ref gives the ref (like "e12") for an element an agent can act on; nil
	// means no refs. frame is the FrameID of the document the node lives in
	// (DocumentSnapshot.FrameID). Build calls it only for actionable elements.
	Ref func(frame cdp.FrameID, id cdp.BackendNodeID) string
	// Viewport is the top document's visible area (scroll offset and size),
	// for InViewport. A zero Viewport sets no InViewport.
	Viewport Rect
}

// Node is one element (or text run) of the outline.
type Node struct {
	Role       string            `json:"role"`              // ARIA role; "text" for a text run, "document" for the root
	Name       string            `json:"name,omitempty"`    // accessible name
	Value      string            `json:"value,omitempty"`   // current value of textboxes, comboboxes, sliders; never a password
	Ref        string            `json:"ref,omitempty"`     // set on what an agent can act on
	Level      int               `json:"level,omitempty"`   // headings
	Checked    string            `json:"checked,omitempty"` // "true", "false" or "mixed" for checkable roles
	Selected   bool              `json:"selected,omitempty"`
	Expanded   *bool             `json:"expanded,omitempty"`
	Disabled   bool              `json:"disabled,omitempty"`
	Required   bool              `json:"required,omitempty"`
	Tag        string            `json:"tag,omitempty"`   // lower-case tag name
	Attrs      map[string]string `json:"attrs,omitempty"` // only the attributes in keptAttrs
	Label      string            `json:"label,omitempty"` // text of an associated <label>, if any
	Text       string            `json:"text,omitempty"`  // visible text content of actionable elements and headings, capped
	Box        Rect              `json:"box"`
	InViewport bool              `json:"in_viewport,omitempty"`
	Frame      cdp.FrameID       `json:"frame,omitempty"`
	BackendID  cdp.BackendNodeID `json:"backend_id,omitempty"`
	Children   []*Node           `json:"children,omitempty"`
}

// Walk calls fn for n and its descendants in pre-order. When fn returns
// false, the children of that node are skipped.
func (n *Node) Walk(fn func(n *Node, depth int) bool) {
	n.walk(fn, 0)
}

func (n *Node) walk(fn func(*Node, int) bool, depth int) {
	if !fn(n, depth) {
		return
	}
	for _, c := range n.Children {
		c.walk(fn, depth+1)
	}
}

// Offset shifts the Box of n and of its subtree by dx, dy. The driver uses it
// to place the tree of an out-of-process iframe, built from its own snapshot,
// in the coordinate space of the top document.
func (n *Node) Offset(dx, dy float64) {
	n.Walk(func(m *Node, _ int) bool {
		m.Box.X += dx
		m.Box.Y += dy
		return true
	})
}
