package driver_test

import (
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// movingPage slides its button 40 px a frame for 400 ms, then stops it;
// a press where the button was a frame before misses it (it is 30 px wide).
const movingPage = `<!doctype html><title>Moving</title>
<p id=out>start</p>
<button id=go style="position:absolute; left:0; top:100px; width:30px; height:30px; padding:0" onclick="out.textContent = 'hit at ' + this.style.left">Go</button>
<script>
const start = performance.now();
const step = () => {
  if (performance.now() - start > 400) return;
  go.style.left = ((parseInt(go.style.left) + 40) % 800) + 'px';
  requestAnimationFrame(step);
};
requestAnimationFrame(step);
</script>`

// A click on an element that moves waits until it stays where it is, and
// then lands on it.
func TestAClickWaitsForAMovingElementToStop(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": movingPage})
	for range 3 {
		open(t, s, ctx, srv.URL+"/")
		act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#go"})
		if got := getText(t, s, ctx, "css=#out"); got == "start" {
			t.Fatalf("the click missed the moving button")
		}
	}
}
