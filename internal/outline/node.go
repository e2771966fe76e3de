package outline

// Rect is a box in CSS pixels in the top document's coordinate space.
type Rect struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// Empty reports whether r has no area.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Intersects reports whether r and o overlap.
func (r Rect) Intersects(o Rect) bool {
	return r.X < o.X+o.W && o.X < r.X+r.W && r.Y < o.Y+o.H && o.Y < r.Y+r.H
}

// Union returns the smallest rect holding r and o; an empty rect is ignored.
func (r Rect) Union(o Rect) Rect {
	if o.Empty() {
		return r
	}
	if r.Empty() {
		return o
	}
	x0, y0 := min(r.X, o.X), min(r.Y, o.Y)
	x1, y1 := max(r.X+r.W, o.X+o.W), max(r.Y+r.H, o.Y+o.H)
	return Rect{x0, y0, x1 - x0, y1 - y0}
}

// Node is one element (or text run) of the outline.
type Node struct {
	Role     string `json:"role"`               // ARIA role; "text" for a text run, "document" for the root
	Name     string `json:"name,omitempty"`     // accessible name
	Inferred string `json:"inferred,omitempty"` // what a person would call an element the page leaves unnamed (text beside it, an icon); only when Name is ""
	Value    string `json:"value,omitempty"`    // current value of textboxes, comboboxes, sliders; never a password
	Ref      string `json:"ref,omitempty"`      // set on what an agent can act on
	Level    int    `json:"level,omitempty"`    // headings
	Checked  string `json:"checked,omitempty"`  // "true", "false" or "mixed" for checkable roles
	Selected bool   `json:"selected,omitempty"`
	Expanded *bool  `json:"expanded,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
	Required bool   `json:"required,omitempty"`
	// Invalid is the browser's validation message of a field the page
	// shows as invalid: one the person touched, or every invalid field of
	// a form whose submit the browser stopped (:user-invalid). A fresh
	// form's empty required fields are not: the page shows nothing yet.
	Invalid    string            `json:"invalid,omitempty"`
	Type       string            `json:"type,omitempty"`  // the kind of value a field takes when its role does not say: date, time, color, file…
	Tag        string            `json:"tag,omitempty"`   // lower-case tag name
	Attrs      map[string]string `json:"attrs,omitempty"` // only the attributes in keptAttrs
	Label      string            `json:"label,omitempty"` // text of an associated <label>, if any
	Text       string            `json:"text,omitempty"`  // visible text content of actionable elements and headings, capped
	Box        Rect              `json:"box"`
	InViewport bool              `json:"in_viewport,omitempty"`
	Frame      string            `json:"frame,omitempty"`      // the DevTools frame id of the document it lives in
	BackendID  int64             `json:"backend_id,omitempty"` // the DevTools backend node id
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
