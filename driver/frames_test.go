package driver_test

import (
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

const framePages = `<!doctype html><title>Frames</title>
<h1>Host</h1>
<iframe id=same src="/inner" title="same site" width=300 height=120></iframe>
<iframe id=cross src="{{other}}/inner" title="payment" width=300 height=120></iframe>
<shadow-host></shadow-host>
<script>
customElements.define('shadow-host', class extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({mode: 'open'});
    root.innerHTML = '<button id=sh>Shadow button</button><span id=shout></span>';
    root.getElementById('sh').onclick = () => { root.getElementById('shout').textContent = 'shadow clicked'; };
  }
});
</script>`

const innerPage = `<!doctype html><title>Inner</title>
<button onclick="document.getElementById('r').textContent = 'paid in ' + location.hostname">Pay</button>
<label>Card <input id=card></label><p id=r></p>`

func TestIframesAndShadowRoots(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": framePages, "/inner": innerPage})
	open(t, s, ctx, srv.URL)
	out := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true})
	for _, want := range []string{`iframe "same site"`, `iframe "payment"`, `button "Shadow button"`} {
		if !strings.Contains(out, want) {
			t.Errorf("outline lacks %s:\n%s", want, out)
		}
	}
	if n := strings.Count(out, `button "Pay"`); n != 2 {
		t.Fatalf("want a Pay button in each iframe, got %d:\n%s", n, out)
	}
	// Refs of both Pay buttons: the first is in the same-site frame.
	var pays []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, `button "Pay"`) {
			pays = append(pays, refOf(t, line, `button "Pay"`))
		}
	}
	var cards []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, `textbox "Card"`) {
			cards = append(cards, refOf(t, line, `textbox "Card"`))
			act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: cards[len(cards)-1], Value: "4242"})
		}
	}
	if len(cards) != 2 {
		t.Errorf("want two Card fields, got %d", len(cards))
	}
	for _, ref := range pays {
		act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: ref})
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, out, `button "Shadow button"`)})

	after := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true})
	for _, want := range []string{"paid in 127.0.0.1", "paid in localhost", "shadow clicked"} {
		if !strings.Contains(after, want) {
			t.Errorf("after the clicks the outline lacks %q:\n%s", want, after)
		}
	}
	// A card field's value shows as •••• (secret.Field); read it instead.
	for _, ref := range cards {
		if got, err := s.Get(ctx, calls.GetRequest{What: "value", Target: ref}); err != nil || got.Value != "4242" {
			t.Errorf("the Card field %s holds %+v (%v), not the filled value", ref, got, err)
		}
	}
}
