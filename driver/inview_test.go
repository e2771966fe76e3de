package driver_test

import (
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// An element the agent read in a look is checked where it is, without a
// scroll first, only when it is wholly in view: one below the fold, and
// one inside a scroller that clips it (in the window's view), are still
// scrolled into view and pressed, their handlers run; one in view is
// pressed as it is.
func TestAnElementOutOfViewIsScrolledToAndPressed(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Out</title>
<button onclick="document.title += ' near'">Near</button>
<div style="width:200px;overflow:auto"><div style="width:1200px;height:40px;position:relative">
<button style="position:absolute;left:700px" onclick="document.title += ' clipped'">Clipped</button></div></div>
<button style="position:absolute;top:4000px" onclick="document.title += ' far'">Far</button>`})
	open(t, s, ctx, srv.URL)
	outline := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true})
	var out *calls.Outcome
	for _, name := range []string{"Near", "Clipped", "Far"} {
		out = act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, outline, `button "`+name+`"`)})
	}
	if out.Title != "Out near clipped far" {
		t.Fatalf("title after three clicks %q, want each handler run once, in order", out.Title)
	}
}
