package adversarial

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// A submit a person approved when recording by hand, replayed against a
// page that changed under it: a replay presses it without asking only
// while the page still matches what the person approved — where the form
// goes, what it carries unseen, the words on the control — and otherwise
// asks again (stops needs-approval) with nothing sent.

// orderPage is the checkout the person approved: a form that posts an
// amount and a recipient they cannot see to /order. %s is replaced by
// what a hostile version changes.
const orderPage = `<!doctype html><title>Checkout</title><h1>Checkout</h1>
<form id=f method=post action=/order>
<input type=hidden name=csrf_token value=%s>
<input type=hidden name=amount value=10>
<input type=hidden name=account value=GB11-ANN>
<label>Note <input name=note value=hi></label>
<button id=pay>Place order</button>
</form>`

// orderAt is orderPage with a fresh csrf token, then each replacement
// of old by new made.
func orderAt(token string, repl ...string) string {
	p := fmt.Sprintf(orderPage, token)
	for i := 0; i+1 < len(repl); i += 2 {
		if !strings.Contains(p, repl[i]) {
			panic("no " + repl[i])
		}
		p = strings.Replace(p, repl[i], repl[i+1], 1)
	}
	return p
}

// approvedOrder records, as a person's press would (internal/sessions:
// the gate's approval, then routine.ApprovedOf), the Place order step on
// the page as served, saves it as record stop does, and returns the
// routine as a replay loads it, with the approval authority's word.
func approvedOrder(t *testing.T, srv *Server) (*routine.Routine, *approval.Trust) {
	t.Helper()
	s, ctx := session(t)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/checkout")}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#pay", Submits: "ask"})
	a := approvalOf(err)
	if a == nil {
		t.Fatalf("the gate gave no approval: %v", err)
	}
	ap, _ := json.Marshal(routine.ApprovedOf(*a))
	rt := fmt.Sprintf(`{"format": "waymark.routine/1", "name": "order", "version": 1, "steps": [
	  {"id": "open", "kind": "goto", "url": %q, "landed": {"path": "/checkout"}},
	  {"id": "pay", "kind": "act", "op": "click",
	   "target": {"locator": "role=button[name=\"Place order\"]", "fingerprint": {"role": "button", "name": "place order"}},
	   "approved": %s}]}`, srv.URL("/checkout"), ap)
	r, trust := savedByPerson(t, rt)
	if !trust.Holds(r) {
		t.Fatalf("the saved routine's approval is not the person's: %s", trust.Why(r))
	}
	return r, trust
}

func TestApprovedSubmitAsksAgainWhenThePageChanged(t *testing.T) {
	t.Parallel()
	other := NewServerOn(t, "127.0.0.2:0", map[string]string{"/order": "<title>elsewhere</title>"})
	srv := NewServer(t, map[string]string{"/checkout": orderAt("t0"), "/checkout2": orderAt("t2"), "/order": "<title>ordered</title>",
		"/order-all": "<title>ordered</title>", "/delete-account": "<title>gone</title>"})
	r, trust := approvedOrder(t, srv)
	if a := r.Steps[1].Approved; a.Target != "POST /order" || a.Fixed["amount"] != "10" || a.Fixed["csrf_token"] != "*" {
		t.Fatalf("the approval keeps %+v, want where the form goes and its hidden values", a)
	}
	for _, tt := range []struct {
		name string
		page string
		want string // in the stop's message; "" for a press without asking
	}{
		{"as approved, with a new csrf token", orderAt("t1"), ""},
		{"the form posts to another path", orderAt("t1", "action=/order", "action=/order-all"), "the form goes to"},
		{"the form posts to another origin", orderAt("t1", "action=/order", "action="+other.URL("/order")), "the form goes to"},
		{"the form now sends GET", orderAt("t1", "method=post", "method=get"), "the form goes to"},
		{"the button has a formaction", orderAt("t1", "<button id=pay>", "<button id=pay formaction=/delete-account>"), "the form goes to"},
		{"the hidden amount is a thousand times more", orderAt("t1", "value=10>", "value=10000>"), `hidden amount is "10000"`},
		{"the hidden recipient changed", orderAt("t1", "GB11-ANN", "GB99-EVE"), `hidden account`},
		{"a visible field turned readonly with a set value", orderAt("t1", "name=note value=hi", "name=note readonly value=hi"), "new hidden note"},
		{"a button of the same name that fetches instead", orderAt("t1", "<button id=pay>Place order</button>",
			`<button id=pay type=button onclick="fetch('/delete-account', {method: 'POST'})">Place order</button>`), "asks again"},
		{"the same form on another path", `<!doctype html><title>Checkout</title><script>location.replace('/checkout2')</script>`, "checkout2"},
		{"the button's words changed", orderAt("t1", "Place order</button>", "Place order ($10,000)</button>"), "asks again"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv.Handle("/checkout", tt.page)
			other.Reset()
			s, ctx := session(t)
			srv.Reset()
			res, err := replay.Run(ctx, s, r, replay.Options{CheckTimeout: -1, Submits: replay.SubmitsAsk, Approvals: trust})
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			sent := srv.Sent() + other.Sent()
			if tt.want == "" {
				if res.Status != replay.StatusOK || srv.Count("POST", "/order") != 1 || sent != 1 {
					t.Fatalf("as approved: %s %q, %d sends (%v)", res.Status, res.Message, sent, srv.Requests())
				}
				return
			}
			if res.Status != replay.StatusStopped || !strings.Contains(res.Message, tt.want) {
				t.Errorf("replay %s %s %q, want needs-approval saying %q", res.Status, res.Cause, res.Message, tt.want)
			}
			if sent != 0 {
				t.Errorf("%d requests that send reached the servers: %v %v", sent, srv.Requests(), other.Requests())
			}
		})
	}
}
