package driver_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// board is a page with a drawing surface that records where it was
// pressed, an icon button, a form's submit button, a thumb that records
// where a drag dropped it, and a cross-site frame. Every press and drop
// is sent to the server, which is what the tests count.
const board = `<!doctype html><title>Board</title>
<style>body{margin:0} #c{position:absolute;left:100px;top:100px} #save{position:absolute;left:10px;top:10px;width:60px;height:40px}
#f{position:absolute;left:10px;top:320px} #thumb{position:absolute;left:420px;top:40px;width:30px;height:30px;background:#08f}
iframe{position:absolute;left:420px;top:150px;width:200px;height:120px}</style>
<button id=save aria-label="Save" onclick="fetch('/hit?what=save')"><svg width=20 height=20><circle cx=10 cy=10 r=8 /></svg></button>
<canvas id=c width=300 height=200></canvas>
<form id=f method=post action=/sent><button style="position:absolute;left:0;top:0;width:80px;height:30px" onclick="fetch('/hit?what=send-pressed')">Send</button><input name=q value=x style="position:absolute;left:100px;top:0"></form>
<div id=thumb></div>
<iframe src="{{other}}/inner"></iframe>
<script>
document.getElementById('c').addEventListener('click', e => fetch('/hit?what=canvas&x=' + e.offsetX + '&y=' + e.offsetY));
const th = document.getElementById('thumb');
th.addEventListener('mousedown', e => {
  const up = u => { document.removeEventListener('mouseup', up); fetch('/hit?what=drop&dx=' + (u.clientX - e.clientX) + '&dy=' + (u.clientY - e.clientY)); };
  document.addEventListener('mouseup', up);
});
</script>`

// serveBoard serves board and records every /hit's query and every POST.
func serveBoard(t *testing.T) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var hits []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		switch {
		case r.URL.Path == "/hit":
			hits = append(hits, r.URL.RawQuery)
		case r.Method == http.MethodPost:
			hits = append(hits, "POST "+r.URL.Path)
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/":
			io.WriteString(w, strings.ReplaceAll(board, "{{other}}", "http://localhost:"+srv.URL[strings.LastIndex(srv.URL, ":")+1:]))
		case "/inner":
			io.WriteString(w, `<!doctype html><form method=post action=/sent><button style="width:180px;height:100px">Pay</button></form>`)
		default:
			io.WriteString(w, "<!doctype html><title>ok</title>ok")
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), hits...)
	}
}

func TestClickAt(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, hits := serveBoard(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	at := func(x, y float64, submits string) (*calls.Outcome, error) {
		return s.Act(ctx, calls.ActRequest{Kind: calls.ActClickAt, At: &calls.Point{X: x, Y: y}, Submits: submits})
	}
	waitHit := func(want string) {
		t.Helper()
		for range 100 {
			for _, h := range hits() {
				if h == want {
					return
				}
			}
			evalString(t, s, ctx, `new Promise(r => setTimeout(() => r("x"), 20))`)
		}
		t.Fatalf("the server never got %q; it got %q", want, hits())
	}

	// The icon inside a button: the button gets the click, and the
	// outcome names it with a ref.
	out, err := at(18, 18, "ask")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.Pressed, `button "Save" [ref=e`) {
		t.Errorf("pressed %q, want the Save button with a ref", out.Pressed)
	}
	waitHit("what=save")

	// A canvas: pressed exactly at the point.
	out, err = at(250, 180, "ask")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Pressed, "at (250, 180)") {
		t.Errorf("pressed %q, want the canvas at the point", out.Pressed)
	}
	waitHit("what=canvas&x=150&y=80")

	// A form's submit button, with the gate asking: held, nothing sent.
	out, err = at(50, 335, "ask")
	if !errors.Is(err, calls.ErrNeedsApproval) {
		t.Errorf("click-at on Send with submits ask: %v (%+v), want needs approval", err, out)
	}
	// Inside a cross-site frame: refused, pointing at refs.
	_, err = at(500, 200, "allow")
	if !errors.Is(err, calls.ErrNotInteractable) || !strings.Contains(err.Error(), "frame") {
		t.Errorf("click-at in a frame: %v, want not interactable, naming the frame", err)
	}
	for _, h := range hits() {
		if strings.HasPrefix(h, "POST") || h == "what=send-pressed" {
			t.Errorf("the server got %s: a press the gate should refuse before pressing was made", h)
		}
	}
	// Outside the view, and no point: bad input; the session still works.
	for _, req := range []calls.ActRequest{
		{Kind: calls.ActClickAt, At: &calls.Point{X: 5000, Y: 10}},
		{Kind: calls.ActClickAt, At: &calls.Point{X: -1, Y: 10}},
		{Kind: calls.ActClickAt},
		{Kind: calls.ActDrag, Target: "css=#thumb"},
		{Kind: calls.ActDrag, Target: "css=#thumb", To: "css=#c", By: &calls.Point{X: 1}},
	} {
		if _, err := s.Act(ctx, req); !errors.Is(err, calls.ErrBadInput) {
			t.Errorf("%+v: %v, want bad input", req, err)
		}
	}

	// A drag by an offset drops where the source's centre moved to.
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActDrag, Target: "css=#thumb", By: &calls.Point{X: 40, Y: -15}}); err != nil {
		t.Fatal(err)
	}
	waitHit("what=drop&dx=40&dy=-15")
}
