package driver_test

import (
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// The page records its own world at load: globals, attributes of every
// element and the properties of the prototypes a tool might patch. After a
// look, a click and a fill, it compares (invariant 7: no footprint).
const footprintPage = `<!doctype html><title>Footprint</title>
<label>Name <input id=name></label><button id=b onclick="this.dataset.n = 'clicked-by-page'">Press</button>
<script>
(function () {
  const protos = [Object.prototype, Function.prototype, EventTarget.prototype, Node.prototype, Element.prototype,
    HTMLElement.prototype, HTMLInputElement.prototype, Document.prototype, Window.prototype, Array.prototype];
  function record() {
    return {
      globals: Object.getOwnPropertyNames(window).sort().join(','),
      attrs: Array.from(document.querySelectorAll('*')).map(e => e.tagName + ':' + Array.from(e.attributes).map(a => a.name).filter(n => n !== 'data-n').sort().join('|')).join(';'),
      protos: protos.map(p => Object.getOwnPropertyNames(p).sort().join(',')).join(';'),
      symbols: protos.map(p => Object.getOwnPropertySymbols(p).length).join(','),
    };
  }
  let before;
  window.footprintCheck = function () {
    const after = record();
    const diff = [];
    for (const k in before) if (before[k] !== after[k]) diff.push(k);
    return diff.join(',') || 'clean';
  };
  before = record();
})();
</script>`

func TestNoFootprint(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": footprintPage})
	open(t, s, ctx, srv.URL)
	out := snapshot(t, s, ctx, calls.SnapshotRequest{})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, out, `button "Press"`)})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: refOf(t, out, `textbox "Name"`), Value: "Ann"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActType, Target: "label=Name", Value: "!"})
	if _, err := s.Get(ctx, calls.GetRequest{What: "value", Target: "label=Name"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: "Press"}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Eval(ctx, calls.EvalRequest{Expression: "footprintCheck()", MainWorld: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Value); got != `"clean"` {
		t.Fatalf("the page's world changed: %s", got)
	}
	if got := evalString(t, s, ctx, `document.getElementById('name').value`); got != "Ann!" {
		t.Fatalf("the actions did not happen: value %q", got)
	}
}
