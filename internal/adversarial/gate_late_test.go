package adversarial

import (
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// lateCases are controls whose handlers send a moment after the click, once
// the step has settled: a timer, a debounce. Their words say nothing of
// sending, so the check before acting lets them be pressed. The handler
// leaves its send in window.later, and the test starts it once the step
// has returned (fire), as a timer of the page's would: on a loaded machine
// a 300 ms timer may fire inside the step, which then holds it itself.
var lateCases = []struct{ name, page string }{
	{"a fetch from a timer", `<button type=button id=b onclick="window.later=()=>fetch('/pay',{method:'POST',body:'card=4242'})">Continue</button>`},
	{"a form sent from a timer", form(`<button type=button id=b onclick="window.later=()=>document.getElementById('f').requestSubmit()">Continue</button>`)},
}

// TestGateHoldsLateSends: a send the click's handler starts after the step
// ended never reaches the server unapproved; the page's look says it was
// stopped; pressing the control again asks for approval of that send, and
// the approved press lets it through, once.
func TestGateHoldsLateSends(t *testing.T) {
	t.Parallel()
	for _, c := range lateCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := NewServer(t, map[string]string{"/": "<!doctype html><title>Shop</title>" + c.page, "/pay": "<title>paid</title>"})
			s, ctx := session(t)
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
				t.Fatal(err)
			}
			click := calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Submits: "ask"}
			fire := func() {
				t.Helper()
				if _, err := s.Eval(ctx, calls.EvalRequest{Expression: "setTimeout(window.later, 20), true", MainWorld: true}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Act(ctx, click); err != nil {
				t.Fatalf("the click itself sends nothing and needs no approval: %v", err)
			}
			fire()
			// The page's look tells of the stopped send once the timer
			// fired; the server must have had nothing by then, or ever.
			var stopped string
			for deadline := time.Now().Add(10 * time.Second); stopped == ""; {
				snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true})
				if err != nil {
					t.Fatal(err)
				}
				for _, n := range snap.Notices {
					if n.Kind == calls.NoticeSendStopped {
						stopped = n.Message
					}
				}
				if srv.Count("", "/pay") != 0 || time.Now().After(deadline) {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			if n := srv.Count("", "/pay"); n != 0 {
				t.Fatalf("the late send reached the server %d times without approval", n)
			}
			if !strings.Contains(stopped, "/pay") {
				t.Fatalf("no look said the late send was stopped (notice %q)", stopped)
			}

			// Pressed again: approval first, nothing pressed or sent.
			_, err := s.Act(ctx, click)
			a := approvalOf(err)
			if a == nil || !strings.HasSuffix(a.Sends, srv.URL("/pay")) {
				t.Fatalf("pressing it again: want needs_approval naming the send to /pay, got %+v (%v)", a, err)
			}
			approved := click
			approved.Submits, approved.Approve = "", a
			if _, err := s.Act(ctx, approved); err != nil {
				t.Fatalf("approved: %v", err)
			}
			fire()
			for i := 0; srv.Count("", "/pay") == 0; i++ {
				if i == 250 {
					t.Fatal("the approved late send never reached the server")
				}
				time.Sleep(20 * time.Millisecond)
			}
			if n := srv.Count("", "/pay"); n != 1 {
				t.Errorf("the approved send reached the server %d times, want 1", n)
			}
		})
	}
}
