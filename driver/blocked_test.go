package driver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// signUp has a form the browser validates, one with novalidate (the
// page's own script would check it), one whose field carries a page's
// own message (setCustomValidity), and a plain button in the first form.
const signUp = `<!doctype html><title>Sign up</title>
<form method=post action=/sent>
<label>Name <input name=name></label>
<label>Email <input name=email type=email required></label>
<button type=button id=plain onclick="document.title='plain'">Check spelling</button>
<button>Send</button>
</form>
<form method=post action=/sent id=nv novalidate>
<label>Phone <input name=phone required></label>
<button>Send anyway</button>
</form>
<form method=post action=/sent id=cv>
<label>Code <input name=code id=code></label>
<button>Redeem</button>
</form>
<form method=post action=/sent id=js>
<label>Zip <input name=zip pattern="[0-9]{5}"></label>
<button onclick="event.preventDefault(); document.title='checked by the page'">Check zip</button>
</form>
<script>document.getElementById('code').setCustomValidity('Use the code from your letter.')</script>`

// serveForms serves signUp at / and counts the POSTs that reach /sent:
// what the browser really sent, not what waymark says.
func serveForms(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/sent" {
			if r.Method == http.MethodPost {
				posts.Add(1)
			}
			io.WriteString(w, "<!doctype html><title>Thanks</title><p>Sent")
			return
		}
		io.WriteString(w, signUp)
	}))
	t.Cleanup(srv.Close)
	return srv, &posts
}

func TestClickTellsSubmitStoppedByValidation(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, posts := serveForms(t)
	open(t, s, ctx, srv.URL)

	// A fresh form: every empty required field is invalid, but the page
	// shows nothing yet, and neither does the outline.
	if o := snapshot(t, s, ctx, calls.SnapshotRequest{}); strings.Contains(o, "[invalid") {
		t.Fatalf("a fresh form shows invalid fields:\n%s", o)
	}

	// A plain button in the form sends nothing and claims nothing.
	out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Check spelling"})
	if out.NotSent != nil {
		t.Fatalf("a plain button claims a stopped submit: %+v", out.NotSent)
	}

	// The submit the browser's validation stops.
	out = act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Send"]`})
	if out.NotSent == nil || len(out.NotSent.Invalid) != 1 {
		t.Fatalf("a stopped submit reads as done: %+v", out)
	}
	f := out.NotSent.Invalid[0]
	if f.Role != "textbox" || f.Name != "Email" || f.Message != "Please fill out this field." {
		t.Fatalf("invalid field %+v", f)
	}
	if want := `the form was not sent: 1 field is invalid: textbox "Email" — Please fill out this field.`; out.NotSent.Note() != want {
		t.Fatalf("note %q, want %q", out.NotSent.Note(), want)
	}
	// Now the page shows the message, and so does the outline.
	if o := snapshot(t, s, ctx, calls.SnapshotRequest{}); !strings.Contains(o, `textbox "Email" [required] [invalid: Please fill out this field.]`) {
		t.Fatalf("the outline does not show the message:\n%s", o)
	}

	// Enter in a field tries the same submit.
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Email", Value: "ann"})
	out = act(t, s, ctx, calls.ActRequest{Kind: calls.ActPress, Target: "label=Name", Key: "Enter"})
	if out.NotSent == nil || len(out.NotSent.Invalid) != 1 || !strings.Contains(out.NotSent.Invalid[0].Message, "@") {
		t.Fatalf("Enter: %+v", out.NotSent)
	}

	// The page's own message (setCustomValidity) is the one told.
	out = act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Redeem"})
	if out.NotSent == nil || out.NotSent.Invalid[0].Message != "Use the code from your letter." || out.NotSent.Invalid[0].Name != "Code" {
		t.Fatalf("custom validity: %+v", out.NotSent)
	}
	// A line break typed is Enter too.
	out = act(t, s, ctx, calls.ActRequest{Kind: calls.ActType, Target: "label=Name", Value: "\n"})
	if out.NotSent == nil {
		t.Fatalf("a typed line break: %+v", out)
	}
	// A page that stops the click itself (its own check) is not the
	// browser's validation, though the field it holds is invalid.
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Zip", Value: "abc"})
	out = act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Check zip"})
	if out.NotSent != nil || evalString(t, s, ctx, "document.title") != "checked by the page" {
		t.Fatalf("a click the page stopped: %+v", out.NotSent)
	}
	if n := posts.Load(); n != 0 {
		t.Fatalf("%d POSTs reached the server from stopped submits", n)
	}

	// A form with novalidate goes as it is: no claim.
	out = act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Send anyway"})
	if out.NotSent != nil || !out.Navigated {
		t.Fatalf("novalidate: %+v", out)
	}
	if n := posts.Load(); n != 1 {
		t.Fatalf("novalidate form: %d POSTs, want 1", n)
	}

	// Put right, the form goes, and nothing is claimed.
	open(t, s, ctx, srv.URL)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Email", Value: "ann@example.com"})
	out = act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Send"]`})
	if out.NotSent != nil || !out.Navigated {
		t.Fatalf("a valid submit: %+v", out)
	}
	if n := posts.Load(); n != 2 {
		t.Fatalf("%d POSTs, want 2", n)
	}
}
