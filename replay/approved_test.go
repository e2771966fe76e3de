package replay

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/approval"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
)

// approvedCheckout is checkoutJSON with the Place order step approved by
// the person who recorded it, saved by them: the routine as loaded from
// its file, and the approval authority's word on it.
func approvedCheckout(t *testing.T) (*routine.Routine, *approval.Trust) {
	t.Helper()
	return savedByPerson(t, unsavedCheckout(t))
}

// savedByPerson saves r as a person's recording does (the file, and the
// authority's record of it), and loads it back as a replay does.
func savedByPerson(t *testing.T, r *routine.Routine) (*routine.Routine, *approval.Trust) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "checkout.json")
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
	return r, trust
}

// unsavedCheckout is approvedCheckout's routine before it was saved: no
// person's file.
func unsavedCheckout(t *testing.T) *routine.Routine {
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
	d.actErr = map[string]error{"@e4": &calls.Error{Kind: calls.ErrNeedsApproval, Msg: `click button "Place order" on http://shop.test/checkout: it submits the form, so it needs approval; nothing was pressed`, Data: data}}
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
		r, trust := approvedCheckout(t)
		o := opts()
		o.Approvals = trust
		res, err := Run(context.Background(), d, r, o)
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
			r, trust := approvedCheckout(t)
			o.Approvals = trust
			res, err := Run(context.Background(), d, r, o)
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
	r, trust := approvedCheckout(t)
	o.Approvals = trust
	if res, err := Run(context.Background(), d, r, o); err != nil || res.Status != StatusOK {
		t.Errorf("approved step: %v %+v", err, res)
	}
}

// TestApprovedNeedsAPersonsFile: a recorded approval is pressed without
// asking only when the approval authority says the routine is the file a
// person saved, as saved. A routine of no file, one changed in memory
// after it was loaded, or a file edited since it was saved asks again,
// saying why and how to approve it again.
func TestApprovedNeedsAPersonsFile(t *testing.T) {
	edited := func(t *testing.T) (*routine.Routine, *approval.Trust) {
		file := filepath.Join(t.TempDir(), "checkout.json")
		if err := routine.Save(file, unsavedCheckout(t), nil); err != nil {
			t.Fatal(err)
		}
		auth := approval.New(t.TempDir())
		if err := auth.Grant(file, "record stop"); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(file)
		b = []byte(strings.Replace(string(b), `"literal": "United Kingdom"`, `"literal": "France"`, 1))
		if err := os.WriteFile(file, b, 0o600); err != nil {
			t.Fatal(err)
		}
		r, trust, err := auth.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		return r, trust
	}
	for _, tt := range []struct {
		name string
		load func(t *testing.T) (*routine.Routine, *approval.Trust)
		want string
	}{
		{"no file", func(t *testing.T) (*routine.Routine, *approval.Trust) { return unsavedCheckout(t), nil }, "did not come from a file a person saved"},
		{"changed in memory", func(t *testing.T) (*routine.Routine, *approval.Trust) {
			r, trust := approvedCheckout(t)
			r.Steps[3].Value.Literal = "France"
			return r, trust
		}, "changed after it was loaded"},
		{"file edited", edited, "changed after it was saved: step country (steps[3]) changed; check it, then approve it again with `waymark routine approve "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := shop()
			gate(d, onCheckout)
			r, trust := tt.load(t)
			o := opts()
			o.Approvals = trust
			res, err := Run(context.Background(), d, r, o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Cause != CauseNeedsApproval || !strings.Contains(res.Message, tt.want) {
				t.Fatalf("result %s %s %q, want needs-approval saying %q", res.Status, res.Cause, res.Message, tt.want)
			}
			for _, a := range d.acts {
				if a.Kind == "click" {
					t.Errorf("pressed: %+v", a)
				}
			}
		})
	}
}
