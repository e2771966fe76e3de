package driver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// menuPage has a field whose typing opens a menu under it, over the Go
// button, as an autocomplete does. With closes, the menu closes when the
// field loses focus (jQuery UI's does); without, it stays.
func menuPage(closes bool) string {
	blur := ""
	if closes {
		blur = "f.onblur = () => { m.hidden = true; };"
	}
	return `<!doctype html><title>Menu</title><body style="width:320px">
<input id=f><br><button id=go onclick="this.textContent='pressed'">Go</button>
<ul id=m hidden style="position:absolute;left:0;width:240px;margin:0;padding:0;background:#fff;list-style:none"><li style="padding:6px">Antarctica</li></ul>
<script>const f = document.getElementById('f'), m = document.getElementById('m');
f.oninput = () => { const b = f.getBoundingClientRect(); m.style.top = (b.bottom + scrollY) + 'px'; m.hidden = !f.value; }; ` + blur + `</script>`
}

// TestAMenuTheTypingOpenedIsClosedNotACover: a click on a button that
// the menu of the field just typed into covers closes the menu, as a
// person's click elsewhere does, and goes through. A menu that does not
// close so is still named as a cover, and a cover that is no menu of the
// focused field (a cookie wall: TestCoveredElementIsNamed) is untouched.
func TestAMenuTheTypingOpenedIsClosedNotACover(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/closes": menuPage(true), "/stays": menuPage(false)})
	for _, closes := range []bool{true, false} {
		path := "/stays"
		if closes {
			path = "/closes"
		}
		open(t, s, ctx, srv.URL+path)
		act(t, s, ctx, calls.ActRequest{Kind: calls.ActType, Target: "css=#f", Value: "Ant"})
		_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#go", TimeoutMS: 1500})
		got := getText(t, s, ctx, "css=#go")
		var ce *calls.CoveredError
		switch {
		case closes && (err != nil || got != "pressed"):
			t.Errorf("the menu the typing opened stopped the click: %v; the button says %q", err, got)
		case !closes && (!errors.As(err, &ce) || !strings.Contains(ce.By, "Antarctica") || got != "Go"):
			t.Errorf("a menu that stays open: %v; the button says %q; want it named as the cover", err, got)
		}
	}
}
