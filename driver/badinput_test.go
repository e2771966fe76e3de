package driver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// TestButtonNamedByImageAlt: a button whose only content is an image is
// named by the image's alt text; pressing it by its ref must not call the
// ref stale (it read the button's text as empty, unlike the outline).
func TestButtonNamedByImageAlt(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{
		"/": `<title>A</title>
<button onclick="document.title='saved'"><img alt="Save" src="/none.png"></button>
<a href="#next" onclick="document.title='next'"><img alt="Next page" src="/none.png"></a>
<button onclick="document.title='svg'"><svg width=10 height=10><title>Close dialog</title></svg></button>`,
	})
	open(t, s, ctx, srv.URL+"/")
	out := snapshot(t, s, ctx, calls.SnapshotRequest{Interactive: true})
	for _, tc := range []struct{ words, title string }{
		{`button "Save"`, "saved"},
		{`link "Next page"`, "next"},
		{`button "Close dialog"`, "svg"},
	} {
		ref := refOf(t, out, tc.words)
		o, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "@" + ref})
		if err != nil {
			t.Fatalf("click %s (@%s): %v (code %s)\n%s", tc.words, ref, err, calls.Code(err), out)
		}
		if o.Title != tc.title {
			t.Errorf("click %s: title %q, want %q", tc.words, o.Title, tc.title)
		}
	}
}

// TestCheckThatNavigatesIsAnOutcome: a checkbox whose change sends its form
// was checked and the page left: the action reports the navigation, not an
// error (which would invite a second send), and the form went once.
func TestCheckThatNavigatesIsAnOutcome(t *testing.T) {
	t.Parallel()
	for _, op := range []string{calls.ActCheck, calls.ActUncheck} {
		t.Run(op, func(t *testing.T) {
			t.Parallel()
			var sent atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				if r.URL.Path == "/sent" {
					sent.Add(1)
					time.Sleep(time.Second) // the old page is still there when the action reads it
					io.WriteString(w, `<title>Sent</title>`)
					return
				}
				checked := ""
				if op == calls.ActUncheck {
					checked = " checked"
				}
				// The handler flips the box back before it sends: the
				// state read after the click no longer says what the click did.
				io.WriteString(w, `<title>Form</title><form action="/sent"><label><input type=checkbox name=agree`+checked+`
 onchange="this.checked = !this.checked; this.form.submit()"> Agree</label></form>`)
			}))
			defer srv.Close()
			s, ctx := newSession(t)
			open(t, s, ctx, srv.URL+"/")
			o, err := s.Act(ctx, calls.ActRequest{Kind: op, Target: "label=Agree"})
			if err != nil {
				t.Fatalf("%s: %v (code %s), want the navigation as its outcome", op, err, calls.Code(err))
			}
			if !o.Navigated || !strings.Contains(o.URL, "/sent") {
				t.Errorf("%s: outcome %+v, want it to say the page went to /sent", op, o)
			}
			if n := sent.Load(); n != 1 {
				t.Errorf("the form was sent %d times", n)
			}
		})
	}
}
