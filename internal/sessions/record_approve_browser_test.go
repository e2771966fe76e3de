package sessions

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// orderSite is a checkout whose form posts an order; posts counts the
// orders received, and coupon adds a field to the form.
type orderSite struct {
	posts  atomic.Int32
	coupon atomic.Bool
}

func (o *orderSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/order":
		o.posts.Add(1)
		fmt.Fprint(w, `<!doctype html><title>Thanks</title><h1>Thanks for your order</h1>`)
	case r.URL.Path == "/checkout":
		extra := ""
		if o.coupon.Load() {
			extra = `<label>Coupon <input name="coupon"></label>`
		}
		fmt.Fprintf(w, `<!doctype html><title>Checkout</title><h1>Checkout</h1>
<form method="post" action="/order">
<label>Name <input name="name"></label>
<label>Email <input name="email" type="email"></label>
%s
<button type="submit">Place order</button>
</form>`, extra)
	default:
		http.NotFound(w, r)
	}
}

// TestRecordedApprovalReplays: a submit a person pressed while recording
// by hand is marked approved in the routine; a replay (which asks for
// submits by default) presses it without asking while the page is as it
// was, and asks again, pressing nothing, once the form has a new field.
func TestRecordedApprovalReplays(t *testing.T) {
	t.Parallel()
	site := &orderSite{}
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close) // after the harness closes its sessions
	h := newHarness(t, 120*time.Second)
	ctx := h.ctx
	handle := h.in("approve-rec")

	handle(calls.MethodRecordStart, calls.RecordStartRequest{Name: "order"})
	handle(calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/checkout"})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: "label=Name", Value: "Ann Example"})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: "label=Email", Value: "ann@example.com"})
	// The person clicks, as `waymark click` sends it: no gate.
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Place order"]`})
	if n := site.posts.Load(); n != 1 {
		t.Fatalf("recording posted %d orders, want 1", n)
	}
	out := handle(calls.MethodRecordStop, calls.RecordStopRequest{}).(*calls.RecordStopResult)
	r, err := routine.Parse(out.Routine)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.Routine)
	}
	last := r.Steps[len(r.Steps)-1]
	if a := last.Approved; a == nil || a.Path != "/checkout" || !strings.Contains(a.Control, "Place order") || strings.Join(a.Fields, ",") != "email,name" {
		b, _ := json.MarshalIndent(last, "", "  ")
		t.Fatalf("the person's submit is not approved in the routine:\n%s", b)
	}
	for _, s := range r.Steps[:len(r.Steps)-1] {
		if s.Approved != nil {
			t.Errorf("step %s approved, but it is no submit", s.ID)
		}
	}
	// Saved as record stop saves it: the file, and the approval
	// authority's record of the person's approval of it.
	file := filepath.Join(t.TempDir(), "order.json")
	if err := routine.Save(file, r, nil); err != nil {
		t.Fatal(err)
	}
	auth := approval.New(t.TempDir())
	if err := auth.Grant(file, "record stop"); err != nil {
		t.Fatal(err)
	}
	r, trust, err := auth.Load(file)
	if err != nil {
		t.Fatal(err)
	}

	replayIn := func(session string) *replay.Result {
		t.Helper()
		s := h.session(session)
		res, err := replay.Run(ctx, s, r, replay.Options{
			Vars:      map[string]string{"name": "Bo Other", "email": "bo@example.com"},
			NoHand:    true, // Submits left at its default: ask
			Approvals: trust,
		})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := replayIn("approve-replay1"); res.Status != replay.StatusOK {
		t.Fatalf("replay = %s %s %q", res.Status, res.Cause, res.Message)
	}
	if n := site.posts.Load(); n != 2 {
		t.Fatalf("after the replay %d orders, want 2", n)
	}

	site.coupon.Store(true)
	res := replayIn("approve-replay2")
	if res.Status == replay.StatusOK || res.Cause != replay.CauseNeedsApproval || !strings.Contains(res.Message, "new fields coupon") ||
		!strings.Contains(res.Message, "you approved it when recording") {
		t.Fatalf("replay after the form changed = %s %s %q", res.Status, res.Cause, res.Message)
	}
	t.Logf("asks again: %s", res.Message)
	if n := site.posts.Load(); n != 2 {
		t.Errorf("the changed form was posted: %d orders", n)
	}
}
