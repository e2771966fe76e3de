package driver

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"

	"github.com/waymark-dev/waymark/internal/outline"
	"github.com/waymark-dev/waymark/secret"
)

// A field a caller typed a secret into (calls.ActRequest.Secret) shows
// «secret:name» in every outline of the session from then on, whatever
// it holds, and is blacked out of every screenshot: the daemon never
// learns which values are secret otherwise, and a later look from another
// process (waymark snapshot after waymark act --secret) must not show it.
// Masking by position, not by value, also covers values too short to mask
// by value, and the pieces of a value a page spreads over several boxes
// (a one-time code of six one-digit boxes that move the focus along, a
// card number in four): every field whose value the typing changed is
// marked, not only the one typed into. This is the one list of such
// fields; the pilot and test plans only name the secret in the request.

// secretField is a field marked as holding a secret.
type secretField struct {
	name string
	el   element // where it is, to black it out of screenshots
}

// markSecret remembers that el holds the secret name; "" marks nothing.
func (s *Session) markSecret(el *element, name string) {
	if name == "" || el == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.secrets == nil {
		s.secrets = map[cdp.BackendNodeID]secretField{}
	}
	// Keyed by node alone: an element found by a locator and the same one
	// in a look may name its frame differently, and a node id shared by
	// two renderers at most masks one field too many.
	m := *el
	m.hand, m.what = nil, "a field holding a secret"
	s.secrets[el.node] = secretField{name: name, el: m}
}

// maskSecrets replaces the value of every marked field in a look.
func (s *Session) maskSecrets(root *outline.Node) {
	s.mu.Lock()
	marks := make(map[cdp.BackendNodeID]string, len(s.secrets))
	for k, v := range s.secrets {
		marks[k] = v.name
	}
	s.mu.Unlock()
	if len(marks) == 0 {
		return
	}
	root.Walk(func(n *outline.Node, _ int) bool {
		if name, ok := marks[backendOf(n)]; ok && n.Value != "" {
			n.Value = secret.Mark(name)
		}
		return true
	})
}

// hasSecrets reports whether any field was marked.
func (s *Session) hasSecrets() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.secrets) > 0
}

// secretBoxes returns the boxes of the marked fields in t, for a
// screenshot to black out.
func (s *Session) secretBoxes(ctx context.Context, t *tab) ([]box, error) {
	s.mu.Lock()
	var els []element
	for _, f := range s.secrets {
		if f.el.tab == t {
			els = append(els, f.el)
		}
	}
	s.mu.Unlock()
	var out []box
	for i := range els {
		bs, err := elementBoxes(ctx, &els[i])
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	return out, nil
}

// The two halves of watching a secret's typing: jsFieldsBefore keeps what
// every field of el's document holds (in the isolated world, where the
// page cannot see it), jsFieldsChanged returns the typed field and the
// fields that hold something else now, and keeps them for the submit gate
// (js/submit_probe.js masks their values in an approval).
const (
	jsFieldsBefore = `function () {
  const all = [];
  const walk = root => {
    for (const f of root.querySelectorAll('input, textarea, select, [contenteditable]')) all.push(f);
    for (const h of root.querySelectorAll('*')) if (h.shadowRoot) walk(h.shadowRoot);
  };
  walk(this.ownerDocument || document);
  globalThis.__waymarkFields = new Map(all.map(f => [f, f.isContentEditable ? f.textContent : f.value]));
}`
	jsFieldsChanged = `function () {
  const before = globalThis.__waymarkFields;
  delete globalThis.__waymarkFields;
  if (!before) return [];
  const out = [this];
  for (const [f, v] of before) if (f !== this && (f.isContentEditable ? f.textContent : f.value) !== v) out.push(f);
  // Kept for the submit gate, which masks these fields' values in an
  // approval (js/submit_probe.js).
  const marked = globalThis.__waymarkSecrets || (globalThis.__waymarkSecrets = new WeakSet());
  for (const f of out) marked.add(f);
  return out;
}`
)

// watchSecret runs do, which types the secret name into el, and marks
// every field of el's document whose value changed meanwhile. A failure
// to watch marks nothing more; the typed field is marked already.
func (s *Session) watchSecret(el *element, name string, do func(context.Context) error) func(context.Context) error {
	if name == "" {
		return do
	}
	return func(ctx context.Context) error {
		watching := el.callOn(ctx, jsFieldsBefore, nil) == nil
		err := do(ctx)
		if watching {
			for _, node := range el.nodesOn(ctx, jsFieldsChanged) {
				f := *el
				f.node = node
				s.markSecret(&f, name)
			}
		}
		return err
	}
}

// nodesOn calls fn with the element as this, in its isolated world, and
// returns the backend ids of the nodes in the array it returns; nil on any
// failure.
func (el *element) nodesOn(ctx context.Context, fn string) []cdp.BackendNodeID {
	id, err := el.tab.world(ctx, el.sess, el.frame)
	if err != nil {
		return nil
	}
	defer release(ctx, el.sess, objectGroup)
	obj, err := cdp.Call(ctx, el.sess, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: el.node, ExecutionContextID: id, ObjectGroup: objectGroup})
	if err != nil || obj.Object == nil || obj.Object.ObjectID == "" {
		return nil
	}
	res, err := cdp.Call(ctx, el.sess, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn, ObjectID: obj.Object.ObjectID, ObjectGroup: objectGroup,
	})
	if err != nil || res.ExceptionDetails != nil || res.Result == nil || res.Result.ObjectID == "" {
		return nil
	}
	props, err := cdp.Call(ctx, el.sess, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: res.Result.ObjectID, OwnProperties: new(true)})
	if err != nil {
		return nil
	}
	var ids []cdp.BackendNodeID
	for _, p := range props.Result {
		if p.Value == nil || p.Value.ObjectID == "" || p.Value.Subtype != runtime.RemoteObjectSubtypeNode {
			continue
		}
		if d, err := cdp.Call(ctx, el.sess, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: p.Value.ObjectID}); err == nil {
			ids = append(ids, d.Node.BackendNodeID)
		}
	}
	return ids
}
