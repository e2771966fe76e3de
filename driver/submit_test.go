package driver_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

const shopForm = `<!doctype html><title>Pay</title>
<form onsubmit="event.preventDefault(); document.title = 'sent'">
<label>Name <input name=name></label><label>Card <input name=card></label>
<button>Pay now</button></form>
<button id=de onclick="document.title='de'">Jetzt kaufen</button>
<button id=fr onclick="document.title='fr'">Supprimer le compte</button>
<button id=pl onclick="document.title='pl'">Zamów</button>
<button id=sv onclick="document.title='sv'">Ta bort</button>
<button id=safe onclick="document.title='safe'">Show details</button>`

func approvalOf(t *testing.T, err error) *calls.Approval {
	t.Helper()
	if !errors.Is(err, calls.ErrNeedsApproval) {
		t.Fatalf("want needs approval, got %v", err)
	}
	var a calls.Approval
	if err := json.Unmarshal(calls.DataOf(err), &a); err != nil {
		t.Fatalf("no approval data: %v", err)
	}
	return &a
}

func TestSubmitsNeedApproval(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": shopForm})
	open(t, s, ctx, srv.URL)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Name", Value: "Ann"})

	// A form submit, and commit words in four languages: asked, not pressed.
	for _, target := range []string{`role=button[name="Pay now"]`, "css=#de", "css=#fr", "css=#pl", "css=#sv"} {
		_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: target, Submits: "ask"})
		approvalOf(t, err)
		if info, _ := s.PageInfo(ctx); info.Title != "Pay" {
			t.Fatalf("%s was pressed although it needs approval (title %q)", target, info.Title)
		}
	}
	// Enter in a form field submits: asked too. Its Why stays the words
	// routines recorded (a replay compares them); the message says it as
	// every front does, the line the person reads.
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActPress, Target: "label=Name", Key: "Enter", Submits: "ask"})
	a := approvalOf(t, err)
	if want := "press Enter input on " + a.URL + ": it submits the form, so it needs approval; nothing was pressed"; a.Why != "Enter in a form field submits the form" || err.Error() != want {
		t.Errorf("Enter in a field: Why %q, message\n %s\nwant\n %s", a.Why, err, want)
	}
	_, err = s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#fr", Submits: "ask"})
	a = approvalOf(t, err)
	if want := `click button "Supprimer le compte" on ` + a.URL + ": it is worded to send, pay, delete or confirm, so it needs approval; nothing was pressed"; a.Why != `its words commit: "Supprimer le compte"` || err.Error() != want {
		t.Errorf("commit words: Why %q, message\n %s\nwant\n %s", a.Why, err, want)
	}
	// A harmless control goes through.
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#safe", Submits: "ask"})

	// An approval whose form changed since is refused.
	open(t, s, ctx, srv.URL)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Name", Value: "Ann"})
	_, err = s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Pay now"]`, Submits: "ask"})
	a = approvalOf(t, err)
	if a.Form["name"] != "Ann" || a.URL == "" || a.Control == "" {
		t.Fatalf("approval %+v", a)
	}
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Card", Value: "4242"})
	_, err = s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Pay now"]`, Approve: a})
	approvalOf(t, err)
	if info, _ := s.PageInfo(ctx); info.Title != "Pay" {
		t.Fatalf("a stale approval pressed the button")
	}
	// The approval of the page as it is now goes through.
	_, err = s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Pay now"]`, Submits: "ask"})
	a = approvalOf(t, err)
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Pay now"]`, Approve: a})
	if info, _ := s.PageInfo(ctx); info.Title != "sent" {
		t.Fatalf("the approved submit did not happen: %q", info.Title)
	}
}
