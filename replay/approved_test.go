package replay

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
)

// approvedCheckout is checkoutJSON with the Place order step approved by
// the person who recorded it.
func approvedCheckout(t *testing.T) *routine.Routine {
	t.Helper()
	src := strings.Replace(checkoutJSON, `"fingerprint": {"role": "button", "name": "Place order"}}},`,
		`"fingerprint": {"role": "button", "name": "Place order"}},
     "approved": {"action": "click", "path": "/checkout", "control": "button \"Place order\"", "why": "submits the form", "fields": ["country", "email", "password"]}},`, 1)
	r, err := routine.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if r.Steps[4].Approved == nil {
		t.Fatal("no approved step")
	}
	return r
}

// gate makes the fake's Place order need approval, the page giving a for it.
func gate(d *fakeDriver, a calls.Approval) {
	data, _ := json.Marshal(a)
	d.actErr = map[string]error{"@e4": &calls.Error{Kind: calls.ErrNeedsApproval, Msg: `click button "Place order" submits the form: it needs approval; nothing was pressed`, Data: data}}
}

var onCheckout = calls.Approval{Action: "click", URL: "http://shop.test/checkout", Control: `button "Place order"`, Why: "submits the form",
	Form: map[string]string{"email": "bo@example.com", "password": "••••", "country": "GB"}, Token: "fresh"}

// TestApprovedSubmitReplays: a submit the person approved when recording
// is pressed (with the page's fresh approval) while found as recorded and
// the page matches; moved, or on a changed form, it asks again.
func TestApprovedSubmitReplays(t *testing.T) {
	t.Run("as recorded", func(t *testing.T) {
		d := shop()
		gate(d, onCheckout)
		res, err := Run(context.Background(), d, approvedCheckout(t), opts())
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != StatusOK {
			t.Fatalf("result %s %s %q", res.Status, res.Cause, res.Message)
		}
		if diff := cmp.Diff([]string{"fill @e1", "fill @e2", "select @e3", "click @e4"}, d.acted()); diff != "" {
			t.Errorf("acts (-want +got):\n%s", diff)
		}
		if a := d.acts[3]; a.Approve == nil || a.Approve.Token != "fresh" || a.Submits != SubmitsAsk {
			t.Errorf("pressed with %+v", a)
		}
	})
	for _, tt := range []struct {
		name    string
		edit    func(*fakeDriver)
		wantMsg string
	}{
		{"moved", func(d *fakeDriver) {
			d.find[`role=button[name="Place order"]`] = calls.Resolution{Status: calls.Moved, Ref: "e4", Locator: "text=Place order"}
			d.locate["e4"] = calls.Evidence{Chosen: "text=Place order", Fingerprint: calls.Fingerprint{Role: "button", Name: "Place order"}}
		}, "its element moved"},
		{"healed", func(d *fakeDriver) {
			delete(d.find, `role=button[name="Place order"]`)
			d.locate["e4"] = calls.Evidence{Chosen: "text=Order now", Fingerprint: calls.Fingerprint{Role: "button", Name: "Order now"}}
		}, "its element was chosen again by a model"},
		{"form changed", func(d *fakeDriver) {
			a := onCheckout
			a.Form = map[string]string{"email": "", "password": "", "country": "", "tip": "50"}
			gate(d, a)
		}, "the form changed: new fields tip"},
		{"another page", func(d *fakeDriver) {
			a := onCheckout
			a.URL = "http://shop.test/delete-account"
			gate(d, a)
		}, "the page is /delete-account"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := shop()
			gate(d, onCheckout)
			tt.edit(d)
			o := opts()
			if tt.name == "healed" {
				o.Model = scripted.New(scripted.Data(pilot.PurposeHeal, `{"action":"click","ref":"e4"}`))
			}
			res, err := Run(context.Background(), d, approvedCheckout(t), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Cause != CauseNeedsApproval || !strings.Contains(res.Message, "you approved it when recording, but "+tt.wantMsg) {
				t.Fatalf("result %s %s %q", res.Status, res.Cause, res.Message)
			}
			for _, a := range d.acts {
				if a.Kind == "click" {
					t.Errorf("pressed: %+v", a)
				}
			}
		})
	}
}

// TestReplayAsksPerson: a submit no one approved is put to Options.Approve;
// yes presses it with the page's approval, no stops with nothing pressed.
func TestReplayAsksPerson(t *testing.T) {
	for _, yes := range []bool{true, false} {
		d := shop()
		gate(d, onCheckout)
		var asked []string
		o := opts()
		o.Approve = func(_ context.Context, step string, a calls.Approval) (bool, error) {
			asked = append(asked, step+": "+a.Control)
			return yes, nil
		}
		res, err := Run(context.Background(), d, checkoutRoutine(t), o)
		if err != nil {
			t.Fatal(err)
		}
		if len(asked) != 1 || asked[0] != `place: button "Place order"` {
			t.Errorf("asked %q", asked)
		}
		clicked := slices.ContainsFunc(d.acts, func(a calls.ActRequest) bool {
			return a.Kind == "click" && a.Approve != nil && a.Approve.Token == "fresh"
		})
		if yes && (res.Status != StatusOK || !clicked) {
			t.Errorf("yes: %s %s %q, clicked %v", res.Status, res.Cause, res.Message, clicked)
		}
		if !yes && (res.Cause != CauseNeedsApproval || !strings.Contains(res.Message, "the person said no") || clicked) {
			t.Errorf("no: %s %s %q, clicked %v", res.Status, res.Cause, res.Message, clicked)
		}
	}
	// A step the person approved when recording is not asked about.
	d := shop()
	gate(d, onCheckout)
	o := opts()
	o.Approve = func(context.Context, string, calls.Approval) (bool, error) {
		t.Error("asked about an approved step")
		return false, nil
	}
	if res, err := Run(context.Background(), d, approvedCheckout(t), o); err != nil || res.Status != StatusOK {
		t.Errorf("approved step: %v %+v", err, res)
	}
}
