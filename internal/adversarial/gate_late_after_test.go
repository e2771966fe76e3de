package adversarial

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
)

// lateOnCue is a page whose "Continue" arms a send to /pay that goes when
// the page is told "go" (a DOM event the test dispatches, standing for a
// timer or a debounce firing): the test decides that it goes after the
// next step, not a timer's race with the machine's load. armHeld also
// sends to /now at once, which the click's own watch holds.
func lateOnCue(armHeld bool) string {
	now := ""
	if armHeld {
		now = `fetch('/now',{method:'POST',body:'x=1'});`
	}
	return `<!doctype html><title>Shop</title><form><label>Note <input name=note></label></form>
<button type=button id=b onclick="` + now + `document.addEventListener('go',()=>fetch('/pay',{method:'POST',body:'card=4242'}),{once:true})">Continue</button>`
}

// TestGateHoldsLateSendsPastOtherSteps: a send the click's handler arms
// goes while the click's watch goes on (sendgate_after.go), after the
// click was followed by a step that is not an action (a form fill, a
// fetch of waymark's own) or after the click's own step held a send. It
// must never reach the server unapproved.
func TestGateHoldsLateSendsPastOtherSteps(t *testing.T) {
	t.Parallel()
	click := calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Submits: "ask"}
	for _, c := range []struct {
		name    string
		armHeld bool
		between func(t *testing.T, ctx context.Context, s *driver.Session, srv *Server) error
	}{
		{"the click held a send of its own", true, nil},
		{"a form fill after the click", false, func(_ *testing.T, ctx context.Context, s *driver.Session, _ *Server) error {
			_, err := s.FillForm(ctx, calls.FormFillRequest{Answers: map[string]string{"Note": "hi"}})
			return err
		}},
		{"a GET fetch after the click", false, func(_ *testing.T, ctx context.Context, s *driver.Session, srv *Server) error {
			_, err := s.Fetch(ctx, calls.FetchRequest{URL: srv.URL("/data")})
			return err
		}},
		// waymark's own POST is not the click's late send: it goes.
		{"a POST fetch of waymark's after the click", false, func(t *testing.T, ctx context.Context, s *driver.Session, srv *Server) error {
			if _, err := s.Fetch(ctx, calls.FetchRequest{Method: "POST", URL: srv.URL("/data"), Body: "a=1"}); err != nil {
				return err
			}
			if n := srv.Count("POST", "/data"); n != 1 {
				t.Errorf("waymark's own POST reached the server %d times, want 1", n)
			}
			return nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := NewServer(t, map[string]string{"/": lateOnCue(c.armHeld), "/data": `{"a":1}`})
			s, ctx := session(t)
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
				t.Fatal(err)
			}
			_, err := s.Act(ctx, click)
			if c.armHeld != (approvalOf(err) != nil) {
				t.Fatalf("the click: %v", err)
			}
			if c.between != nil {
				if err := c.between(t, ctx, s, srv); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Eval(ctx, calls.EvalRequest{Expression: `document.dispatchEvent(new Event('go')), true`}); err != nil {
				t.Fatal(err)
			}
			// The send is judged (stopped, told) or reaches the server.
			var stopped bool
			for deadline := time.Now().Add(5 * time.Second); !stopped && srv.Count("", "/pay") == 0 && time.Now().Before(deadline); {
				snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true})
				if err != nil {
					t.Fatal(err)
				}
				for _, n := range snap.Notices {
					stopped = stopped || (n.Kind == calls.NoticeSendStopped && strings.Contains(n.Message, "/pay"))
				}
				time.Sleep(20 * time.Millisecond)
			}
			if n := srv.Count("", "/pay"); n != 0 {
				t.Fatalf("the late send reached the server %d times without approval", n)
			}
			if !stopped {
				t.Fatal("no look said the late send was stopped")
			}
			if n := srv.Count("", "/now"); n != 0 {
				t.Fatalf("the click's own send reached the server %d times", n)
			}
		})
	}
}
