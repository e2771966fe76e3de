package driver

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/outline"
)

// refKey names an element for the life of its document: the frame it lives
// in and its backend node id, which Chromium keeps stable while the node
// exists. So the same element keeps its ref across looks.
type refKey struct {
	frame cdp.FrameID
	node  cdp.BackendNodeID
}

// refEntry is what a ref points at.
type refEntry struct {
	key    refKey
	tab    *tab
	target target.ID // the out-of-process iframe's target, or "" for the tab's own session
	line   string    // the outline line when the ref was last shown, for messages
	tag    string    // what the element was when last shown, to catch a node
	text   string    // the page reused for something else (lower-case, spaces folded)
	// attrs are its identityAttrs when last shown ("" for absent): a
	// button whose aria-label turned from Save to Delete, or a field whose
	// type turned from email to password, is not the element the ref
	// showed.
	attrs map[string]string
}

// identityAttrs are the attributes that say which control an element is;
// js/identity.js reads the same list. Ids and classes are left out: a
// framework may regenerate them on the same control.
var identityAttrs = []string{"aria-label", "type", "name", "placeholder", "data-testid", "data-test", "data-test-id", "data-qa", "data-cy"}

// refTable hands out refs ("e1", "e2", …) for one session.
type refTable struct {
	// mu guards the fields below.
	mu    sync.Mutex
	next  int
	byKey map[refKey]string
	byRef map[string]*refEntry
}

func newRefTable() *refTable {
	return &refTable{byKey: map[refKey]string{}, byRef: map[string]*refEntry{}}
}

// assign returns the ref of the element, making one if it has none.
func (r *refTable) assign(t *tab, tid target.ID, frame cdp.FrameID, node cdp.BackendNodeID) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := refKey{frame, node}
	if ref, ok := r.byKey[k]; ok {
		r.byRef[ref].tab, r.byRef[ref].target = t, tid
		return ref
	}
	r.next++
	ref := "e" + strconv.Itoa(r.next)
	r.byKey[k] = ref
	r.byRef[ref] = &refEntry{key: k, tab: t, target: tid}
	return ref
}

// forget drops the elements of documents that are gone from the keys
// refs are found by: every document of tab t when frame is "" (its main
// frame navigated), else the document of that frame (it navigated). The
// refs stay, and name the gone elements (a use is refused as stale): a
// new document may run in another renderer, whose node ids start again,
// and its elements must get refs of their own, never an old one by
// chance (only carry hands one on, on purpose).
func (r *refTable) forget(t *tab, frame cdp.FrameID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, ref := range r.byKey {
		if e := r.byRef[ref]; e.tab == t && (frame == "" || k.frame == frame) {
			delete(r.byKey, k)
		}
	}
}

// carry gives elements of tab t's new document the refs elements of its
// last document had, as m says (new ref → old ref): a region of the new
// page that reads as the last page's keeps the refs the agent read there
// (outline.Carry). It refuses, changing nothing, unless every new ref is
// the tab's, every old ref names a gone element of the tab (never one
// still on the page), and every new element, node(new ref), is what its
// old ref showed: the same tag, text and identity attributes, which the
// outline line may not say (a text field turned password, a link
// dressed as a button turned a form's submit button), and which the
// check before acting would compare with the new element's, not the old
// one's. A new ref stays a name of its element beside the old one: a
// look at the same time (another agent's), a form review or a locate
// may have shown it.
func (r *refTable) carry(t *tab, m map[string]string, node func(ref string) *outline.Node) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for now, old := range m {
		if now == old {
			continue
		}
		ne, ok1 := r.byRef[now]
		oe, ok2 := r.byRef[old]
		if !ok1 || !ok2 || ne.tab != t || oe.tab != t || ne == oe {
			return false
		}
		if r.byRef[r.byKey[oe.key]] == oe {
			return false // the old element is still there
		}
		if n := node(now); n == nil || !oe.shows(n) {
			return false
		}
	}
	for now, old := range m {
		if now == old {
			continue
		}
		e := r.byRef[now]
		r.byKey[e.key] = old
		r.byRef[old] = e
	}
	return true
}

// shows reports whether n is what the entry's element was when last shown
// (describe): the same tag, text and identity attributes.
func (e *refEntry) shows(n *outline.Node) bool {
	if e.tag == "" || e.tag != strings.ToLower(n.Tag) || e.text != foldText(n.Text) {
		return false
	}
	for _, a := range identityAttrs {
		if e.attrs[a] != n.Attrs[a] {
			return false
		}
	}
	return true
}

// describe records what a ref showed: its outline line, for messages, and
// its tag and text, to refuse the ref if the node later becomes something
// else (frameworks reuse nodes).
func (r *refTable) describe(ref, line, tag, text string, attrs map[string]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.byRef[ref]; ok {
		e.line, e.tag, e.text = line, strings.ToLower(tag), foldText(text)
		e.attrs = make(map[string]string, len(identityAttrs))
		for _, a := range identityAttrs {
			e.attrs[a] = attrs[a]
		}
	}
}

// foldText lower-cases text and folds its white space, capped as the
// identity check in the page caps it.
func foldText(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200])
	}
	return s
}

// current reports whether ref still names an element of a document that
// is there. forget drops the keys of gone documents, and a new document in
// another renderer, whose node ids start again, may hold an element under
// the node id of a gone one: a look gives it a ref of its own, and a
// look-alike page's element at that id must not be pressed for the old ref.
func (r *refTable) current(ref string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.byRef[ref]
	return ok && r.byRef[r.byKey[e.key]] == e // its own, or carried to the ref it is known by now
}

// lookup returns the entry of a ref.
func (r *refTable) lookup(ref string) (refEntry, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.byRef[ref]
	if !ok {
		return refEntry{}, false
	}
	return *e, true
}

// normalizeRef turns "@e12", "e12" and "ref=e12" into "e12"; ok is false
// for anything else.
func normalizeRef(s string) (string, bool) {
	s = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "ref="), "@")
	if len(s) < 2 || s[0] != 'e' {
		return "", false
	}
	if _, err := strconv.Atoi(s[1:]); err != nil {
		return "", false
	}
	return s, true
}

func unknownRef(ref string) error {
	return calls.Errorf(calls.ErrUnknownRef, "run "+calls.Cmd("snapshot")+" to see the refs on the page now",
		"no element [ref=%s] in this session", ref)
}

func staleRef(ref, line string) error {
	what := fmt.Sprintf("[ref=%s]", ref)
	if line != "" {
		what = fmt.Sprintf("%s (%s)", what, strings.TrimPrefix(strings.TrimSpace(line), "- "))
	}
	return calls.Errorf(calls.ErrStaleRef, "run "+calls.Cmd("snapshot")+" again and use a ref from it",
		"no element %s on the page now (it changed after your last look)", what)
}

// entryFor returns the entry of a node's ref, if it has one.
func (r *refTable) entryFor(n *outline.Node) (refEntry, bool) {
	if n.Ref == "" {
		return refEntry{}, false
	}
	return r.lookup(n.Ref)
}
