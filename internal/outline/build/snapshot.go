package build

import (
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/domsnapshot"

	"github.com/waymark-dev/waymark/internal/outline"
)

// DOM node types, from the DOM standard.
const (
	elementNode = 1
	textNode    = 3
)

// doc indexes one DocumentSnapshot so that Outline can walk it as a tree and
// look up the rare per-node data in constant time. The snapshot's node table
// is already in flat-tree order: shadow roots are not nodes, a host's
// children are its shadow tree's children and slotted light DOM children sit
// under their slot, which is the order the accessibility tree uses.
type doc struct {
	d     *domsnapshot.DocumentSnapshot
	strs  []string
	frame cdp.FrameID
	n     int
	// first and next are the child lists: first child and next sibling, -1
	// for none.
	first, next []int32
	// layout maps a node to its row in the layout table, -1 for none.
	layout []int32
	// flags holds the rare booleans.
	flags []uint8
	// values holds the rare strings (input value, textarea value) by node.
	values map[int32]string
	// content maps an iframe node to the index of its content document.
	content map[int32]int
	// dx, dy move this document's layout boxes into the top document's space.
	dx, dy float64
	// ids and labels are built on first use (aria-labelledby, label[for]).
	ids    map[string]int32
	labels map[string]int32
}

const (
	flagChecked uint8 = 1 << iota
	flagSelected
	flagClickable
)

func newDoc(d *domsnapshot.DocumentSnapshot, strs []string) (*doc, error) {
	nodes := d.Nodes
	if nodes == nil {
		return nil, fmt.Errorf("outline: document without nodes")
	}
	n := len(nodes.ParentIndex)
	if len(nodes.NodeType) != n || len(nodes.NodeName) != n || len(nodes.BackendNodeID) != n {
		return nil, fmt.Errorf("outline: node table columns differ in length")
	}
	x := &doc{
		d:      d,
		strs:   strs,
		n:      n,
		first:  make([]int32, n),
		next:   make([]int32, n),
		layout: make([]int32, n),
		flags:  make([]uint8, n),
	}
	x.frame = cdp.FrameID(x.str(d.FrameID))
	last := make([]int32, n)
	for i := range n {
		x.first[i], x.next[i], x.layout[i], last[i] = -1, -1, -1, -1
	}
	// Children come after their parent and in order, so one pass links them.
	for i := 1; i < n; i++ {
		p := nodes.ParentIndex[i]
		if p < 0 || int(p) >= i {
			continue
		}
		if last[p] < 0 {
			x.first[p] = int32(i)
		} else {
			x.next[last[p]] = int32(i)
		}
		last[p] = int32(i)
	}
	if l := d.Layout; l != nil {
		if len(l.Bounds) != len(l.NodeIndex) || len(l.Styles) != len(l.NodeIndex) {
			return nil, fmt.Errorf("outline: layout table columns differ in length")
		}
		for li, ni := range l.NodeIndex {
			// A node can have several layout objects (a text split by
			// ::first-letter); the first holds its box.
			if ni >= 0 && int(ni) < n && x.layout[ni] < 0 {
				x.layout[ni] = int32(li)
			}
		}
	}
	x.setFlags(nodes.InputChecked, flagChecked)
	x.setFlags(nodes.OptionSelected, flagSelected)
	x.setFlags(nodes.IsClickable, flagClickable)
	for _, r := range []*domsnapshot.RareStringData{nodes.InputValue, nodes.TextValue} {
		if r == nil {
			continue
		}
		if x.values == nil {
			x.values = make(map[int32]string, len(r.Index))
		}
		for k, i := range r.Index {
			if k < len(r.Value) {
				x.values[int32(i)] = x.str(r.Value[k])
			}
		}
	}
	if r := nodes.ContentDocumentIndex; r != nil && len(r.Index) > 0 {
		x.content = make(map[int32]int, len(r.Index))
		for k, i := range r.Index {
			if k < len(r.Value) {
				x.content[int32(i)] = int(r.Value[k])
			}
		}
	}
	return x, nil
}

func (x *doc) setFlags(r *domsnapshot.RareBooleanData, f uint8) {
	if r == nil {
		return
	}
	for _, i := range r.Index {
		if i >= 0 && int(i) < x.n {
			x.flags[i] |= f
		}
	}
}

func (x *doc) str(i domsnapshot.StringIndex) string {
	if i < 0 || int(i) >= len(x.strs) {
		return ""
	}
	return x.strs[i]
}

func (x *doc) nodeType(i int32) int64    { return x.d.Nodes.NodeType[i] }
func (x *doc) name(i int32) string       { return x.str(x.d.Nodes.NodeName[i]) }
func (x *doc) has(i int32, f uint8) bool { return x.flags[i]&f != 0 }

func (x *doc) nodeValue(i int32) string {
	if v := x.d.Nodes.NodeValue; int(i) < len(v) {
		return x.str(v[i])
	}
	return ""
}

// attr returns the value of the attribute and whether it is present.
func (x *doc) attr(i int32, name string) (string, bool) {
	a := x.d.Nodes.Attributes
	if int(i) >= len(a) {
		return "", false
	}
	kv := a[i]
	for k := 0; k+1 < len(kv); k += 2 {
		if x.str(domsnapshot.StringIndex(kv[k])) == name {
			return x.str(domsnapshot.StringIndex(kv[k+1])), true
		}
	}
	return "", false
}

// box returns the layout box of node i in top-document coordinates.
func (x *doc) box(i int32) (outline.Rect, bool) {
	li := x.layout[i]
	if li < 0 {
		return outline.Rect{}, false
	}
	b := x.d.Layout.Bounds[li]
	if len(b) < 4 {
		return outline.Rect{}, true
	}
	return outline.Rect{X: b[0] + x.dx, Y: b[1] + x.dy, W: b[2], H: b[3]}, true
}

// style returns computed style k (an index into styleNames) of node i.
func (x *doc) style(i int32, k int) string {
	li := x.layout[i]
	if li < 0 {
		return ""
	}
	s := x.d.Layout.Styles[li]
	if k >= len(s) {
		return ""
	}
	return x.str(domsnapshot.StringIndex(s[k]))
}

// layoutText is the rendered text of a text node (after text-transform).
func (x *doc) layoutText(i int32) string {
	li := x.layout[i]
	if li < 0 || int(li) >= len(x.d.Layout.Text) {
		return ""
	}
	return x.str(x.d.Layout.Text[li])
}

// byID returns the element with the id, -1 if none.
func (x *doc) byID(id string) int32 {
	if x.ids == nil {
		x.indexIDs()
	}
	if i, ok := x.ids[id]; ok {
		return i
	}
	return -1
}

// labelFor returns the <label for=id> of the id, -1 if none.
func (x *doc) labelFor(id string) int32 {
	if x.ids == nil {
		x.indexIDs()
	}
	if i, ok := x.labels[id]; ok {
		return i
	}
	return -1
}

func (x *doc) indexIDs() {
	x.ids = make(map[string]int32)
	x.labels = make(map[string]int32)
	for i := int32(0); int(i) < x.n; i++ {
		if x.nodeType(i) != elementNode {
			continue
		}
		if id, ok := x.attr(i, "id"); ok && id != "" {
			if _, dup := x.ids[id]; !dup {
				x.ids[id] = i
			}
		}
		if x.name(i) == "LABEL" {
			if f, ok := x.attr(i, "for"); ok && f != "" {
				if _, dup := x.labels[f]; !dup {
					x.labels[f] = i
				}
			}
		}
	}
}
