package sessions

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/routine"
)

// TestRecordKeepsNoApprovalOfAProgram: a session being recorded by hand
// may also be acted on by a program (the agent loop with --allow-submit,
// an MCP server whose [mcp] submits is "allow", a replay with --submits
// allow): they send Submits "allow", a blanket leave given in advance,
// not a person pressing this control. Their submit is done and recorded,
// but not as approved: a replay asks for it.
func TestRecordKeepsNoApprovalOfAProgram(t *testing.T) {
	path := browsertest.Chrome(t)
	site := &orderSite{}
	srv := httptest.NewServer(site)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m := New(driver.Options{ExecPath: path, Args: browsertest.GuardArgs})
	defer m.Close()
	handle := func(method string, req any) any {
		t.Helper()
		res, err := m.Handle(ctx, "rec", method, params(t, req))
		if err != nil {
			t.Fatalf("%s %+v: %v", method, req, err)
		}
		return res
	}
	handle(calls.MethodRecordStart, calls.RecordStartRequest{Name: "order"})
	handle(calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/checkout"})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Place order"]`, Submits: "allow"})
	if n := site.posts.Load(); n != 1 {
		t.Fatalf("the program's submit posted %d orders, want 1", n)
	}
	out := handle(calls.MethodRecordStop, calls.RecordStopRequest{}).(*calls.RecordStopResult)
	r, err := routine.Parse(out.Routine)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.Routine)
	}
	last := r.Steps[len(r.Steps)-1]
	if last.Kind != routine.KindAct || last.Op != calls.ActClick {
		t.Fatalf("the submit is not the last step: %s", out.Routine)
	}
	if last.Approved != nil {
		t.Errorf("a program's submit is recorded as the person's approval: %+v", last.Approved)
	}
}

// TestRecordPersonsPressIsNotHeld: a person's own press while recording
// goes as they asked it, whatever the page sends with it (here a beacon
// beside the form), and is recorded approved; the approval does not turn
// their press into a watched one.
func TestRecordPersonsPressIsNotHeld(t *testing.T) {
	path := browsertest.Chrome(t)
	var orders, beacons atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/order":
			orders.Add(1)
			fmt.Fprint(w, `<!doctype html><title>Thanks</title>`)
		case r.Method == http.MethodPost && r.URL.Path == "/stats":
			beacons.Add(1)
		default:
			fmt.Fprint(w, `<!doctype html><title>Checkout</title><form method="post" action="/order"><input type="hidden" name="amount" value="10">
<button id="pay">Place order</button></form>
<script>document.getElementById('pay').addEventListener('click', () => navigator.sendBeacon('/stats', 'clicked'))</script>`)
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m := New(driver.Options{ExecPath: path, Args: browsertest.GuardArgs})
	defer m.Close()
	handle := func(method string, req any) any {
		t.Helper()
		res, err := m.Handle(ctx, "rec", method, params(t, req))
		if err != nil {
			t.Fatalf("%s %+v: %v", method, req, err)
		}
		return res
	}
	handle(calls.MethodRecordStart, calls.RecordStartRequest{Name: "order"})
	handle(calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/checkout"})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Place order"]`})
	out := handle(calls.MethodRecordStop, calls.RecordStopRequest{}).(*calls.RecordStopResult)
	r, err := routine.Parse(out.Routine)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.Routine)
	}
	if a := r.Steps[len(r.Steps)-1].Approved; a == nil || a.Target != "POST /order" || a.Fixed["amount"] != "10" {
		t.Errorf("approved %+v", a)
	}
	if orders.Load() != 1 {
		t.Errorf("%d orders, want 1", orders.Load())
	}
}
