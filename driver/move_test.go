package driver_test

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

const movePage = `<!doctype html><title>Move</title>
<style>li{padding:8px;border:1px solid #999;margin:4px;width:200px} ul{min-height:60px;border:1px dashed #333}
#menu{display:none} #hov:hover + #menu{display:block}</style>
<ul id=todo aria-label="To do"><li draggable=true id=milk>Buy milk</li></ul>
<ul id=done aria-label="Done"></ul>
<button id=hov>Account</button><div id=menu><a href="#profile">Profile</a></div>
<div style="height:3000px"></div><button id=far onclick="this.textContent='far pressed'">Far away</button>
<script>
document.getElementById('milk').addEventListener('dragstart', e => e.dataTransfer.setData('text/plain', e.target.id));
const done = document.getElementById('done');
done.addEventListener('dragover', e => e.preventDefault());
done.addEventListener('drop', e => { e.preventDefault(); done.appendChild(document.getElementById(e.dataTransfer.getData('text/plain'))); });
</script>`

func TestDragHoverScroll(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": movePage})
	open(t, s, ctx, srv.URL)

	act(t, s, ctx, calls.ActRequest{Kind: calls.ActDrag, Target: "text=Buy milk", To: `role=list[name="Done"]`})
	if got := evalString(t, s, ctx, `document.getElementById('milk').parentElement.id`); got != "done" {
		t.Errorf("after the drag the item is in %q", got)
	}

	act(t, s, ctx, calls.ActRequest{Kind: calls.ActHover, Target: "css=#hov"})
	if got := evalString(t, s, ctx, `getComputedStyle(document.getElementById('menu')).display`); got != "block" {
		t.Errorf("the hover menu is %q", got)
	}

	act(t, s, ctx, calls.ActRequest{Kind: calls.ActScroll, Direction: "down", Pixels: 1000})
	y, _ := strconv.Atoi(evalString(t, s, ctx, `String(Math.round(scrollY))`))
	if y < 900 {
		t.Errorf("after scrolling down 1000px, scrollY is %d", y)
	}
	// An element below the fold is rolled into view before it is pressed.
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#far"})
	if got := getText(t, s, ctx, "css=#far"); got != "far pressed" {
		t.Errorf("the far button says %q", got)
	}
}

func TestClickThatNeverNavigates(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Stay</title><a href="/nothing">No content</a>`})
	// /nothing is not served by the page map: answer 204 from a wrapper.
	inner := srv.Config.Handler
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/nothing" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		inner.ServeHTTP(w, r)
	})
	open(t, s, ctx, srv.URL)
	start := time.Now()
	out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=No content"})
	if out.Navigated || out.Title != "Stay" {
		t.Errorf("outcome %+v", out)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("a click whose navigation never starts took %s", d)
	}
}

// TestHandMoves: with a hand, the page sees a path of pointer moves before
// a click, a press held for a while, and typing key by key.
func TestHandMoves(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<!doctype html><title>Hand</title>
<input id=f aria-label=Field><button id=b style="position:absolute;left:700px;top:500px">Go</button>
<script>
let moves = 0, down = 0, keys = 0;
addEventListener('mousemove', () => moves++);
document.getElementById('b').addEventListener('mousedown', () => down = performance.now());
document.getElementById('b').addEventListener('mouseup', () => document.title = 'held ' + Math.round(performance.now() - down) + ' moves ' + moves);
const f = document.getElementById('f'), note = k => f.dataset.log = (f.dataset.log ? f.dataset.log + ' ' : '') + k;
f.addEventListener('keydown', e => { keys++; note(e.key + (e.shiftKey ? '+' : '')) });
f.addEventListener('keyup', e => { if (e.key === 'Shift') note('^Shift') });
</script>`})
	open(t, s, ctx, srv.URL)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Hand: true})
	info, _ := s.PageInfo(ctx)
	var held, moves int
	if _, err := fmt.Sscanf(info.Title, "held %d moves %d", &held, &moves); err != nil {
		t.Fatalf("title %q: %v", info.Title, err)
	}
	if held < 40 || moves < 5 {
		t.Errorf("held %d ms over %d moves; want a hold of 40 ms or more and a path of moves", held, moves)
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActType, Target: `role=textbox[name="Field"]`, Value: "Hello there", Hand: true})
	if got := evalString(t, s, ctx, `document.getElementById('f').value`); got != "Hello there" {
		t.Errorf("typed %q", got)
	}
	// Shift goes down on its own before a run of capitals and shifted
	// symbols, and comes up after the run's last key.
	evalString(t, s, ctx, `document.getElementById('f').dataset.log = ''; document.getElementById('f').value = ''; 'ok'`)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActType, Target: `role=textbox[name="Field"]`, Value: "Hi AB!c", Hand: true})
	want := "Shift+ H+ ^Shift i   Shift+ A+ B+ !+ ^Shift c"
	if got := evalString(t, s, ctx, `document.getElementById('f').dataset.log`); got != want {
		t.Errorf("key events %q, want %q", got, want)
	}
	if got := evalString(t, s, ctx, `document.getElementById('f').value`); got != "Hi AB!c" {
		t.Errorf("typed %q", got)
	}
	// A target below the fold is rolled into view with the wheel: the page
	// sees wheel events, not a jump.
	evalString(t, s, ctx, `document.body.insertAdjacentHTML('beforeend', '<div style="height:1600px"></div><button id=far onclick="document.title=\'far\'">Far</button>'); window.wheels = 0; addEventListener('wheel', () => window.wheels++); 'ok'`)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#far", Hand: true})
	wheels, err := s.Eval(ctx, calls.EvalRequest{Expression: "window.wheels", MainWorld: true})
	if err != nil || string(wheels.Value) == "0" {
		t.Errorf("no wheel events rolled the target into view: %s %v", wheels.Value, err)
	}
	if info, _ := s.PageInfo(ctx); info.Title != "far" {
		t.Errorf("the far button was not pressed: %q", info.Title)
	}
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActType, Target: `role=textbox[name="Field"]`, Value: "a\nb", Hand: true}); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("a hand typing a line break: %v, want bad input (typing never presses Enter)", err)
	}
}
