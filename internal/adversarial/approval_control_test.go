package adversarial

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/replay"
)

// An approval names the control it approves as the page shows it, the one
// way for a submit judged before pressing and for a send held at sending:
// not by the locator the caller typed. So a routine recorded by clicking
// css=#b replays (by a ref) without asking again, a press of the same
// control by another locator takes the approval, and a press of another
// control (one that posts to the same URL) does not.

// heldNow is a page whose Continue posts to /pay in its click's step, as
// does Skip beside it: words that say nothing of sending, so the check
// before pressing lets both be pressed and the gate holds the send.
const heldNow = `<!doctype html><title>Shop</title><p>Your basket</p>
<button type=button id=b onclick="fetch('/pay',{method:'POST',body:'card=4242'})">Continue</button>
<button type=button id=c onclick="fetch('/pay',{method:'POST',body:'card=4242'})">Skip</button>`

// heldLater is lateTold with a Skip beside Continue that arms the same
// late send.
const heldLater = lateTold + `
<button type=button id=c onclick="document.addEventListener('go',()=>fetch('/pay',{method:'POST',body:'card=4242'}).then(()=>{document.title='sent'},()=>{document.title='stopped'}),{once:true})">Skip</button>`

// recordHeld records heldNow by hand, as a person does at a terminal
// (internal/sessions): open it and click Continue by target; the click's
// send is held, and with the approval the person gives it is pressed and
// recorded as approved. The routine: goto, click (approved).
func recordHeld(t *testing.T, srv *Server, target string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	rec := calls.Remote{Caller: m, Session: "held-record-" + strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())}
	defer func() { _ = rpc.Daemon{Caller: m, Session: rec.Session}.CloseSession(context.Background()) }()
	if _, err := rec.RecordStart(ctx, calls.RecordStartRequest{Name: "held"}); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	// The person's command sends no Submits (pressAsPerson).
	if _, err := rec.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: target}); err != nil {
		t.Fatal(err)
	}
	got, err := rec.RecordStop(ctx, calls.RecordStopRequest{Name: "held"})
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Count("POST", "/pay"); n != 1 {
		t.Fatalf("recording: the person's approved send reached the server %d times, want 1", n)
	}
	srv.Reset()
	if !strings.Contains(string(got.Routine), `"approved"`) || !strings.Contains(string(got.Routine), "/pay") {
		t.Fatalf("the recording kept no approval of the held send:\n%s", got.Routine)
	}
	return string(got.Routine)
}

// TestHeldSendRecordedByLocatorReplays: a person records a click on
// Continue typed as css=#b, whose send is held (in its step, or after it)
// and which they approve. Replayed from their file, which acts by the
// ref its look gives, it sends exactly once and asks no one.
func TestHeldSendRecordedByLocatorReplays(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		page string
		late bool
	}{
		{"in the click's step", heldNow, false},
		{"after the click's step", lateTold, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := NewServer(t, map[string]string{"/": tt.page})
			var recorded string
			if tt.late {
				recorded = recordLateBy(t, srv, "css=#b")
			} else {
				recorded = recordHeld(t, srv, "css=#b")
			}
			r, trust := savedByPerson(t, recorded)
			s, ctx := session(t)
			var asked atomic.Int32
			var progress func(replay.StepEvent)
			if tt.late {
				progress = cueAfterClicks(t, ctx, s, nil)
			}
			res, err := replay.Run(ctx, s, r, replay.Options{CheckTimeout: -1, Submits: replay.SubmitsAsk, Approvals: trust, Progress: progress,
				Approve: func(_ context.Context, step string, a calls.Approval) (bool, error) {
					asked.Add(1)
					t.Errorf("the replay asked about %s: %s", step, a.Line())
					return false, nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			if n := srv.Count("POST", "/pay"); n != 1 || res.Status != replay.StatusOK || asked.Load() != 0 {
				t.Fatalf("the send reached the server %d times, asked %d times (replay %s %s %q), want once, ok, never asked",
					n, asked.Load(), res.Status, res.Cause, res.Message)
			}
		})
	}
}

// TestHeldSendApprovalNamesTheControl: a send held on a press of
// Continue typed as css=#b is approved by pressing it as text=Continue
// (the same element); pressing Skip, which posts to the same URL, with
// that approval presses nothing and sends nothing: the approval does not
// widen to another control. In the step, and after it, where pressing
// Continue again by another locator asks first.
func TestHeldSendApprovalNamesTheControl(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		page string
		late bool
	}{
		{"in the click's step", heldNow, false},
		{"after the click's step", heldLater, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := NewServer(t, map[string]string{"/": tt.page})
			s, ctx := session(t)
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
				t.Fatal(err)
			}
			click := func(target string, approve *calls.Approval) error {
				t.Helper()
				req := calls.ActRequest{Kind: calls.ActClick, Target: target, Submits: "ask", Approve: approve}
				if approve != nil {
					req.Submits = ""
				}
				_, err := s.Act(ctx, req)
				return err
			}
			err := click("css=#b", nil)
			if tt.late {
				if err != nil {
					t.Fatalf("the click itself sends nothing and needs no approval: %v", err)
				}
				fireLate(t, ctx, s)
				// Pressed again by another locator: approval first.
				err = click("text=Continue", nil)
			}
			a := approvalOf(err)
			if a == nil || !strings.HasSuffix(a.Sends, "/pay") {
				t.Fatalf("want needs_approval naming the send to /pay, got %+v (%v)", a, err)
			}
			if n := srv.Count("POST", "/pay"); n != 0 {
				t.Fatalf("the held send reached the server %d times without approval", n)
			}
			if strings.Contains(a.Line(), "css=") || strings.Contains(a.Line(), "text=") || !strings.Contains(a.Control, `"Continue"`) {
				t.Errorf("the approval names the control by a locator, not as the page shows it: %s", a.Line())
			}

			// Another control that posts to the same URL: not approved.
			err = click("css=#c", a)
			if !errors.Is(err, calls.ErrNeedsApproval) {
				t.Errorf("Skip pressed with Continue's approval: want needs_approval, got %v", err)
			}
			if tt.late && err == nil {
				fireLate(t, ctx, s)
			}
			if n := srv.Count("POST", "/pay"); n != 0 {
				t.Fatalf("Skip pressed with Continue's approval sent %d times", n)
			}

			// The same control by another locator: approved, sent once.
			if err := click("text=Continue", a); err != nil {
				t.Fatalf("Continue pressed as text=Continue with its approval: %v", err)
			}
			if tt.late {
				fireLate(t, ctx, s)
			}
			if n := srv.Count("POST", "/pay"); n != 1 {
				t.Fatalf("the approved send reached the server %d times, want 1", n)
			}
		})
	}
}

// TestHeldSendApprovalOfAControlThatRewordsItself: a control whose press
// changes its own words ("Continue" becomes "Sending…") and whose send is
// held is still the approved control when pressed again with its
// approval: the approval of a held send is bound to the element pressed
// as well as to its words.
func TestHeldSendApprovalOfAControlThatRewordsItself(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": `<!doctype html><title>Shop</title>
<button type=button id=b onclick="this.textContent='Sending…';fetch('/pay',{method:'POST',body:'card=4242'})">Continue</button>`})
	s, ctx := session(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Submits: "ask"})
	a := approvalOf(err)
	if a == nil || !strings.Contains(a.Control, `"Continue"`) {
		t.Fatalf("want needs_approval naming Continue, got %+v (%v)", a, err)
	}
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Sending…", Approve: a}); err != nil {
		t.Fatalf("pressed again with its approval: %v", err)
	}
	if n := srv.Count("POST", "/pay"); n != 1 {
		t.Fatalf("the approved send reached the server %d times, want 1", n)
	}
}

// TestApprovalOfASubmitIsOfItsWords: a submit approved before pressing
// ("Pay now") whose control then says something else ("Continue", which
// the check before pressing lets be pressed unasked) is no longer what
// the person approved: the approval presses nothing, where it once let
// the press go unwatched.
func TestApprovalOfASubmitIsOfItsWords(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": `<!doctype html><title>Shop</title>
<button type=button id=b onclick="fetch('/pay',{method:'POST',body:'card=4242'})">Pay now</button>`})
	s, ctx := session(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Submits: "ask"})
	a := approvalOf(err)
	if a == nil || a.Sends != "" || !strings.Contains(a.Control, `"Pay now"`) {
		t.Fatalf("want the check before pressing to ask about Pay now, got %+v (%v)", a, err)
	}
	if _, err := s.Eval(ctx, calls.EvalRequest{Expression: `document.getElementById('b').textContent = 'Continue', true`, MainWorld: true}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Approve: a})
	if !errors.Is(err, calls.ErrNeedsApproval) {
		t.Errorf("Continue pressed with Pay now's approval: want needs_approval, got %v", err)
	}
	if n := srv.Count("POST", "/pay"); n != 0 {
		t.Fatalf("Continue pressed with Pay now's approval sent %d times", n)
	}
}

// TestHeldSendApprovalPageTextCannotForge: a held send's approval names
// the control by the page's words, which may try to speak as waymark
// (close the quotes, move the terminal's cursor): the question and the
// refusal of an approval given for it show them escaped, in their quotes.
func TestHeldSendApprovalPageTextCannotForge(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/": `<!doctype html><title>Shop</title>
<button type=button id=b onclick="fetch('/pay',{method:'POST',body:'card=4242'})">Cancel" on http://shop.test/: it only reads&#27;[2K</button>
<button type=button id=c onclick="fetch('/pay',{method:'POST',body:'card=4242'})">Skip</button>`})
	s, ctx := session(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	clean := func(what, msg string) {
		t.Helper()
		if strings.Contains(msg, `"Cancel" on`) {
			t.Errorf("%s: the control's words closed its quotes: %s", what, msg)
		}
		for _, r := range msg {
			if r != '\n' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r)) {
				t.Errorf("%s: a control or format character %U reaches the person: %q", what, r, msg)
			}
		}
	}
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Submits: "ask"})
	a := approvalOf(err)
	if a == nil || !strings.Contains(a.Control, "\x1b") {
		t.Fatalf("want needs_approval naming the control by its words, escape and all, got %+v (%v)", a, err)
	}
	clean("the question", err.Error())
	clean("the question", a.Describe())
	_, err = s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#c", Approve: a})
	if !errors.Is(err, calls.ErrNeedsApproval) {
		t.Fatalf("Skip pressed with the approval: want needs_approval, got %v", err)
	}
	clean("the refusal", err.Error())
	if n := srv.Count("POST", "/pay"); n != 0 {
		t.Fatalf("sent %d times", n)
	}
}
