package replay

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

const checkoutJSON = `{
  "format": "waymark.routine/1", "name": "checkout", "version": 1,
  "variables": [{"name": "email"}, {"name": "password", "secret": true}],
  "steps": [
    {"id": "open", "kind": "goto", "url": "http://shop.test/checkout", "landed": {"path": "/checkout"}},
    {"id": "email", "kind": "act", "op": "fill", "instruction": "fill in the email",
     "target": {"locator": "label=Email", "fingerprint": {"role": "textbox", "name": "Email"}}, "value": {"from": "input", "slot": "email"}},
    {"id": "password", "kind": "act", "op": "fill",
     "target": {"locator": "label=Password", "fingerprint": {"role": "textbox", "name": "Password"}}, "value": {"from": "secret", "slot": "password"}},
    {"id": "country", "kind": "act", "op": "select",
     "target": {"locator": "label=Country", "fingerprint": {"role": "combobox", "name": "Country"}}, "value": {"literal": "United Kingdom"}},
    {"id": "place", "kind": "act", "op": "click", "instruction": "place the order",
     "target": {"locator": "role=button[name=\"Place order\"]", "fingerprint": {"role": "button", "name": "Place order"}}},
    {"id": "thanks", "kind": "verify", "check": {"text": "Thank you"}}
  ]}`

func checkoutRoutine(t *testing.T) *routine.Routine {
	t.Helper()
	r, err := routine.Parse([]byte(checkoutJSON))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// shop is a fake page where every element of the checkout is found.
func shop() *fakeDriver {
	return &fakeDriver{
		pages: map[string]fakePage{
			"http://shop.test/checkout": {Title: "Checkout", Text: "- heading \"Checkout\"\n- textbox \"Email\" [ref=e1]\n- button \"Place order\" [ref=e4]\nThank you"},
		},
		find: map[string]calls.Resolution{
			"label=Email":                     {Status: calls.Found, Ref: "e1"},
			"label=Password":                  {Status: calls.Found, Ref: "e2"},
			"label=Country":                   {Status: calls.Found, Ref: "e3"},
			`role=button[name="Place order"]`: {Status: calls.Found, Ref: "e4"},
		},
		locate: map[string]calls.Evidence{},
	}
}

func opts() Options {
	return Options{
		Vars:         map[string]string{"email": "ann@example.com"},
		Secrets:      map[string]secret.Value{"password": secret.New("password", "s3cret-Pass-w0rd")},
		CheckTimeout: -1,
		Now:          func() time.Time { return time.Date(2030, 6, 15, 10, 0, 0, 0, time.UTC) },
	}
}

func TestReplayAllFound(t *testing.T) {
	d := shop()
	m := scripted.New() // any call fails the test
	o := opts()
	o.Model = m
	var events []StepEvent
	o.Progress = func(e StepEvent) { events = append(events, e) }
	res, err := Run(context.Background(), d, checkoutRoutine(t), o)
	if err != nil {
		t.Fatal(err)
	}
	m.Verify(t)
	if res.Status != StatusOK || res.Cause != CauseNone || res.ModelCalls != 0 {
		t.Fatalf("result = %+v", res)
	}
	want := []string{"fill @e1", "fill @e2", "select @e3", "click @e4"}
	if diff := cmp.Diff(want, d.acted()); diff != "" {
		t.Errorf("acts (-want +got):\n%s", diff)
	}
	if d.acts[0].Value != "ann@example.com" || d.acts[1].Value != "s3cret-Pass-w0rd" || d.acts[2].Values[0] != "United Kingdom" {
		t.Errorf("values = %+v", d.acts)
	}
	if len(events) != 6 || events[5].N != 6 || events[5].Of != 6 || len(res.Steps) != 6 || res.Routine != nil {
		t.Errorf("events %d, steps %d, routine %v", len(events), len(res.Steps), res.Routine)
	}
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), "s3cret-Pass-w0rd") {
		t.Errorf("the secret is in the result: %s", b)
	}
}

func TestReplayMovedHealsWithNoModel(t *testing.T) {
	d := shop()
	d.find["label=Email"] = calls.Resolution{Status: calls.Moved, Ref: "e9", Locator: "placeholder=Your email", Reason: "label changed"}
	d.locate["e9"] = calls.Evidence{Chosen: "placeholder=Your email", Fingerprint: calls.Fingerprint{Role: "textbox", Placeholder: "Your email"}}
	m := scripted.New()
	o := opts()
	o.Model, o.KeepHeals = m, KeepAlways
	res, err := Run(context.Background(), d, checkoutRoutine(t), o)
	if err != nil {
		t.Fatal(err)
	}
	m.Verify(t)
	if res.Status != StatusOK || res.ModelCalls != 0 {
		t.Fatalf("result = %+v", res)
	}
	wantHeal := Heal{Step: "email", Path: "steps[1]", How: HealMoved, Before: "label=Email", After: "placeholder=Your email", Reason: "label changed"}
	if diff := cmp.Diff([]Heal{wantHeal}, res.Heals); diff != "" {
		t.Errorf("heals (-want +got):\n%s", diff)
	}
	if res.Steps[1].Status != "healed" || res.Steps[1].Ref != "e9" {
		t.Errorf("step = %+v", res.Steps[1])
	}
	next := res.Routine
	if next == nil || next.Version != 2 || next.Pending || next.Steps[1].Target.Locator != "placeholder=Your email" || next.Steps[1].Target.Fingerprint.Placeholder != "Your email" {
		t.Fatalf("next = %+v", next)
	}
	wantHist := []routine.Change{{Version: 2, At: time.Date(2030, 6, 15, 10, 0, 0, 0, time.UTC), Note: "healed: found by its fingerprint (no model)", Step: "email", Before: "label=Email", After: "placeholder=Your email"}}
	if diff := cmp.Diff(wantHist, next.History); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
	if err := routine.Validate(next); err != nil {
		t.Errorf("healed version does not validate: %v", err)
	}
}

func TestReplayMissingHealsWithOneCall(t *testing.T) {
	d := shop()
	delete(d.find, `role=button[name="Place order"]`)
	d.pages["http://shop.test/checkout"] = fakePage{Text: "- textbox \"Email\" [ref=e1]\n- button \"Complete purchase\" [ref=e7]\nThank you"}
	d.locate["e7"] = calls.Evidence{Chosen: `role=button[name="Complete purchase"]`, Fingerprint: calls.Fingerprint{Role: "button", Name: "Complete purchase"}}
	m := scripted.New(scripted.Step{Purpose: pilot.PurposeHeal, Check: func(turn pilot.Turn) error {
		text := turn.Messages[0].Text
		if !strings.Contains(text, "place the order") || !strings.Contains(text, "<page_content>") || !strings.Contains(text, "[ref=e7]") {
			return errors.New("the heal prompt lacks the instruction or the fenced outline")
		}
		if strings.Contains(text, "s3cret-Pass-w0rd") {
			return errors.New("the secret is in the prompt")
		}
		return nil
	}, Reply: pilot.Reply{Data: json.RawMessage(`{"action":"click","ref":"e7","reason":"renamed"}`)}})
	o := opts()
	o.Model = m
	res, err := Run(context.Background(), d, checkoutRoutine(t), o)
	if err != nil {
		t.Fatal(err)
	}
	m.Verify(t)
	if res.Status != StatusOK || res.ModelCalls != 1 || len(m.Calls()) != 1 {
		t.Fatalf("result = %+v, calls %d", res, len(m.Calls()))
	}
	if got := d.acted(); got[len(got)-1] != "click @e7" {
		t.Errorf("acts = %v", got)
	}
	h := res.Heals[0]
	if h.How != HealModel || h.Before != `role=button[name="Place order"]` || h.After != `role=button[name="Complete purchase"]` {
		t.Errorf("heal = %+v", h)
	}
	next := res.Routine
	if next == nil || next.Version != 2 || !next.Pending || len(next.History) != 1 || next.History[0].Step != "place" {
		t.Fatalf("next = %+v", next)
	}

	// The healed version replays with no model call.
	d.find[`role=button[name="Complete purchase"]`] = calls.Resolution{Status: calls.Found, Ref: "e7"}
	m2 := scripted.New()
	o.Model = m2
	next.Pending = false
	res, err = Run(context.Background(), d, next, o)
	if err != nil {
		t.Fatal(err)
	}
	m2.Verify(t)
	if res.Status != StatusOK || res.ModelCalls != 0 || len(res.Heals) != 0 || res.Routine != nil {
		t.Errorf("healed replay = %+v", res)
	}
}

func TestReplayStops(t *testing.T) {
	approval := calls.Errorf(calls.ErrNeedsApproval, "approve it", "clicking \"Place order\" submits the form")
	tests := []struct {
		name      string
		edit      func(d *fakeDriver)
		model     *scripted.Model
		wantCause Cause
		wantMsg   string
		wantActs  []string // nil: none
	}{
		{name: "missing without a model", edit: func(d *fakeDriver) { delete(d.find, `role=button[name="Place order"]`) },
			wantCause: CauseMissing, wantMsg: `place: button "Place order" is not on the page`, wantActs: []string{"fill @e1", "fill @e2", "select @e3"}},
		{name: "replaced", edit: func(d *fakeDriver) {
			d.find["label=Email"] = calls.Resolution{Status: calls.Replaced, Reason: "a search box stands in its place"}
		}, wantCause: CauseReplaced, wantMsg: "a search box stands in its place"},
		{name: "ambiguous", edit: func(d *fakeDriver) {
			d.find["label=Email"] = calls.Resolution{Status: calls.Ambiguous, Reason: "two fit"}
		}, wantCause: CauseAmbiguous, wantMsg: "two fit"},
		{name: "landed elsewhere", edit: func(d *fakeDriver) {
			d.pages["http://shop.test/checkout"] = fakePage{URL: "http://shop.test/maintenance"}
		}, wantCause: CauseLandedAway, wantMsg: "landed on /maintenance, not on /checkout"},
		{name: "error status", edit: func(d *fakeDriver) { d.pages["http://shop.test/checkout"] = fakePage{Status: 404} },
			wantCause: CauseLandedAway, wantMsg: "HTTP 404"},
		{name: "site down", edit: func(d *fakeDriver) { delete(d.pages, "http://shop.test/checkout") },
			wantCause: CauseLandedAway, wantMsg: "could not open"},
		{name: "sign-in notice", edit: func(d *fakeDriver) {
			d.pages["http://shop.test/checkout"] = fakePage{URL: "http://shop.test/login", Notices: []calls.Notice{{Kind: "sign-in", Message: "a sign-in form"}}}
		}, wantCause: CauseSignIn, wantMsg: "sign-in page"},
		{name: "verify", edit: func(d *fakeDriver) { d.pages["http://shop.test/checkout"] = fakePage{Text: "Payment declined"} },
			wantCause: CauseVerify, wantMsg: `thanks: the page does not show "Thank you"`, wantActs: []string{"fill @e1", "fill @e2", "select @e3", "click @e4"}},
		{name: "needs approval", edit: func(d *fakeDriver) { d.actErr = map[string]error{"@e4": approval} },
			wantCause: CauseNeedsApproval, wantMsg: "submits the form", wantActs: []string{"fill @e1", "fill @e2", "select @e3"}},
		{name: "driver failure", edit: func(d *fakeDriver) {
			d.actErr = map[string]error{"@e1": calls.Errorf(calls.ErrNotInteractable, "scroll it into view", "e1 is hidden")}
		}, wantCause: CauseFailed, wantMsg: "e1 is hidden"},
		{name: "heal picks another kind of control", edit: func(d *fakeDriver) {
			delete(d.find, `role=button[name="Place order"]`)
			d.pages["http://shop.test/checkout"] = fakePage{Text: "- link \"Delete account\" [ref=e8]"}
			d.locate["e8"] = calls.Evidence{Chosen: "text=Delete account", Fingerprint: calls.Fingerprint{Role: "link", Name: "Delete account"}}
		}, model: scripted.New(scripted.Data(pilot.PurposeHeal, `{"action":"click","ref":"e8"}`)),
			wantCause: CauseReplaced, wantMsg: `the model chose a link "Delete account"`, wantActs: []string{"fill @e1", "fill @e2", "select @e3"}},
		{name: "heal names a ref not on the page", edit: func(d *fakeDriver) { delete(d.find, `role=button[name="Place order"]`) },
			model: scripted.New(scripted.Data(pilot.PurposeHeal, `{"action":"click","ref":"e99"}`)), wantCause: CauseMissing,
			wantActs: []string{"fill @e1", "fill @e2", "select @e3"}},
		{name: "heal call fails", edit: func(d *fakeDriver) { delete(d.find, `role=button[name="Place order"]`) },
			model: scripted.New(scripted.Fail(pilot.PurposeHeal, pilot.ErrRateLimited)), wantCause: CauseMissing, wantMsg: "rate limited",
			wantActs: []string{"fill @e1", "fill @e2", "select @e3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := shop()
			tt.edit(d)
			o := opts()
			if tt.model != nil {
				o.Model = tt.model
			}
			res, err := Run(context.Background(), d, checkoutRoutine(t), o)
			if err != nil {
				t.Fatal(err)
			}
			if tt.model != nil {
				tt.model.Verify(t)
			}
			if res.Status != StatusStopped || res.Cause != tt.wantCause {
				t.Fatalf("result = %s %s %q", res.Status, res.Cause, res.Message)
			}
			if !strings.Contains(res.Message, tt.wantMsg) {
				t.Errorf("message = %q, want %q in it", res.Message, tt.wantMsg)
			}
			if res.Hint == "" {
				t.Errorf("no hint")
			}
			if diff := cmp.Diff(tt.wantActs, d.acted()); diff != "" {
				t.Errorf("acts (-want +got):\n%s", diff)
			}
			last := res.Steps[len(res.Steps)-1]
			if last.Status != "stopped" || last.Error == "" {
				t.Errorf("last step = %+v", last)
			}
			if tt.model == nil && res.ModelCalls != 0 {
				t.Errorf("model calls = %d", res.ModelCalls)
			}
		})
	}
}

func TestReplayKeepHeals(t *testing.T) {
	for _, keep := range []string{KeepAlways, KeepAsk, "", KeepNever} {
		t.Run(keep, func(t *testing.T) {
			d := shop()
			d.find["label=Email"] = calls.Resolution{Status: calls.Moved, Ref: "e9", Locator: "placeholder=Email"}
			o := opts()
			o.KeepHeals = keep
			res, err := Run(context.Background(), d, checkoutRoutine(t), o)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Heals) != 1 {
				t.Fatalf("heals = %v", res.Heals)
			}
			switch keep {
			case KeepNever:
				if res.Routine != nil {
					t.Errorf("a routine came back with never")
				}
			default:
				if res.Routine == nil || res.Routine.Pending != (keep != KeepAlways) {
					t.Errorf("routine = %+v", res.Routine)
				}
			}
		})
	}
}

func TestReplayBadInput(t *testing.T) {
	o := opts()
	delete(o.Secrets, "password")
	_, err := Run(context.Background(), shop(), checkoutRoutine(t), o)
	if !errors.Is(err, calls.ErrBadInput) || !strings.Contains(calls.Hint(err), "--secret password=env:VAR") {
		t.Errorf("err = %v (hint %q)", err, calls.Hint(err))
	}
	o = opts()
	o.KeepHeals = "sometimes"
	if _, err := Run(context.Background(), shop(), checkoutRoutine(t), o); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("err = %v", err)
	}
}

func TestReplayCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	o := opts()
	o.Progress = func(e StepEvent) {
		if e.N == 2 {
			cancel()
		}
	}
	d := shop()
	res, err := Run(ctx, d, checkoutRoutine(t), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusCanceled || res.Cause != CauseCanceled {
		t.Errorf("result = %+v", res)
	}
	if len(d.acted()) != 1 {
		t.Errorf("acts after cancel: %v", d.acted())
	}
}

const rowsJSON = `{
  "format": "waymark.routine/1", "name": "rows",
  "variables": [{"name": "people", "list": true}],
  "steps": [
    {"kind": "goto", "url": "http://shop.test/list"},
    {"kind": "if", "check": {"text": "Accept cookies"},
     "then": [{"id": "accept", "kind": "act", "op": "click", "target": {"locator": "role=button[name=\"Accept\"]", "fingerprint": {"role": "button", "name": "Accept"}}}],
     "else": [{"id": "no-banner", "kind": "verify", "check": {"text": "Accept cookies", "absent": true}}]},
    {"id": "each", "kind": "each", "over": "people", "do": [
      {"id": "name", "kind": "act", "op": "fill", "target": {"locator": "label=Name", "fingerprint": {"role": "textbox", "name": "Name"}, "positional": true},
       "value": {"template": "%row.first% %row.last%"}}
    ]},
    {"id": "read", "kind": "extract", "instruction": "the names saved", "schema": {"type": "array", "items": {"type": "string"}}, "into": "saved"},
    {"id": "each-saved", "kind": "each", "over": "saved", "do": [
      {"kind": "verify", "check": {"text": "%row%"}}
    ]}
  ]}`

func TestReplayRowsIfExtract(t *testing.T) {
	r, err := routine.Parse([]byte(rowsJSON))
	if err != nil {
		t.Fatal(err)
	}
	for _, banner := range []bool{true, false} {
		d := &fakeDriver{
			pages:  map[string]fakePage{"http://shop.test/list": {Text: "- list\n  - textbox \"Name\" [ref=e1]\n  - textbox \"Name\" [ref=e2]\nAnn Lee\nBo Chen"}},
			find:   map[string]calls.Resolution{`role=button[name="Accept"]`: {Status: calls.Found, Ref: "e5"}},
			rows:   map[int]string{0: "e1", 1: "e2"},
			locate: map[string]calls.Evidence{},
		}
		if banner {
			p := d.pages["http://shop.test/list"]
			p.Text += "\nAccept cookies"
			d.pages["http://shop.test/list"] = p
		}
		m := scripted.New(scripted.Data(pilot.PurposeExtract, `["Ann Lee", "Bo Chen"]`))
		o := Options{Vars: map[string]string{"people": `[{"first": "Ann", "last": "Lee"}, {"first": "Bo", "last": "Chen"}]`}, Model: m, CheckTimeout: -1}
		res, err := Run(context.Background(), d, r, o)
		if err != nil {
			t.Fatal(err)
		}
		m.Verify(t)
		if res.Status != StatusOK || res.ModelCalls != 1 {
			t.Fatalf("banner %v: result = %+v", banner, res)
		}
		want := []string{"fill @e1", "fill @e2"}
		if banner {
			want = append([]string{"click @e5"}, want...)
		}
		if diff := cmp.Diff(want, d.acted()); diff != "" {
			t.Errorf("banner %v: acts (-want +got):\n%s", banner, diff)
		}
		if d.acts[len(d.acts)-2].Value != "Ann Lee" || d.acts[len(d.acts)-1].Value != "Bo Chen" {
			t.Errorf("row values = %+v", d.acts)
		}
		if string(res.Data["saved"]) != `["Ann Lee","Bo Chen"]` {
			t.Errorf("data = %s", res.Data["saved"])
		}
		var rows []int
		for _, s := range res.Steps {
			if s.Row != nil {
				rows = append(rows, *s.Row)
			}
		}
		if diff := cmp.Diff([]int{0, 1, 0, 1}, rows); diff != "" {
			t.Errorf("rows (-want +got):\n%s", diff)
		}
	}
}

func TestReplayExtractNeedsModel(t *testing.T) {
	r, err := routine.Parse([]byte(rowsJSON))
	if err != nil {
		t.Fatal(err)
	}
	d := &fakeDriver{pages: map[string]fakePage{"http://shop.test/list": {}}, rows: map[int]string{0: "e1"}}
	res, err := Run(context.Background(), d, r, Options{Vars: map[string]string{"people": `[]`}, CheckTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cause != CauseNeedsModel || res.ModelCalls != 0 {
		t.Errorf("result = %+v", res)
	}
}

// TestEveryCauseHasAHint: a stop always says what to do.
func TestEveryCauseHasAHint(t *testing.T) {
	for _, c := range []Cause{CauseLandedAway, CauseSignIn, CauseVerify, CauseReplaced, CauseAmbiguous,
		CauseMissing, CauseNeedsApproval, CauseNeedsModel, CausePopup, CauseFailed, CauseCanceled} {
		if c.Hint() == "" {
			t.Errorf("%s has no hint", c)
		}
	}
}

// TestReplayHowItActs: a step's direction and pixels, button and count
// reach the driver; a step without them replays as before they existed.
func TestReplayHowItActs(t *testing.T) {
	tg := `"target": {"locator": "label=Email", "fingerprint": {"role": "textbox", "name": "Email"}}`
	tests := []struct {
		name string
		step string
		want calls.ActRequest
	}{
		{"scroll up", `{"kind": "act", "op": "scroll", "direction": "up", "pixels": 600}`, calls.ActRequest{Kind: "scroll", Direction: "up", Pixels: 600}},
		{"scroll an element left", `{"kind": "act", "op": "scroll", "direction": "left", ` + tg + `}`, calls.ActRequest{Kind: "scroll", Target: "@e1", Direction: "left"}},
		{"old scroll of the page", `{"kind": "act", "op": "scroll"}`, calls.ActRequest{Kind: "scroll", Direction: "down"}},
		{"old scroll of an element", `{"kind": "act", "op": "scroll", ` + tg + `}`, calls.ActRequest{Kind: "scroll", Target: "@e1", Direction: "into-view"}},
		{"right-click", `{"kind": "act", "op": "click", "button": "right", ` + tg + `}`, calls.ActRequest{Kind: "click", Target: "@e1", Button: "right"}},
		{"triple-click", `{"kind": "act", "op": "click", "count": 3, ` + tg + `}`, calls.ActRequest{Kind: "click", Target: "@e1", Count: 3}},
		{"middle dblclick", `{"kind": "act", "op": "dblclick", "button": "middle", ` + tg + `}`, calls.ActRequest{Kind: "dblclick", Target: "@e1", Button: "middle"}},
		{"old click", `{"kind": "act", "op": "click", ` + tg + `}`, calls.ActRequest{Kind: "click", Target: "@e1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := routine.Parse([]byte(`{"format": "waymark.routine/1", "name": "t", "steps": [
				{"kind": "goto", "url": "http://shop.test/checkout"}, ` + tt.step + `]}`))
			if err != nil {
				t.Fatal(err)
			}
			d := shop()
			res, err := Run(context.Background(), d, r, opts())
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusOK || len(d.acts) != 1 {
				t.Fatalf("replay = %s %q, acts %+v", res.Status, res.Message, d.acts)
			}
			want := tt.want
			want.Submits, want.Hand = SubmitsAsk, true // a replay's defaults
			if diff := cmp.Diff(want, d.acts[0]); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReplayWithAHand: a replay acts with a person's moves by default;
// NoHand turns them off.
func TestReplayWithAHand(t *testing.T) {
	r, err := routine.Parse([]byte(`{"format": "waymark.routine/1", "name": "t", "steps": [
		{"kind": "goto", "url": "http://shop.test/checkout"},
		{"kind": "act", "op": "click", "target": {"locator": "label=Email", "fingerprint": {"role": "textbox", "name": "Email"}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, noHand := range []bool{false, true} {
		d := shop()
		o := opts()
		o.NoHand = noHand
		if res, err := Run(context.Background(), d, r, o); err != nil || res.Status != StatusOK || len(d.acts) != 1 {
			t.Fatalf("replay: %+v %v", res, err)
		}
		if d.acts[0].Hand != !noHand {
			t.Errorf("Options.NoHand %v: the act asked for Hand %v", noHand, d.acts[0].Hand)
		}
	}
}

// TestReplaySubmits: a replay asks before a submit unless told to allow
// it; the driver reads an empty Submits as allow, so ask is sent.
func TestReplaySubmits(t *testing.T) {
	for _, tt := range []struct{ opt, want string }{{"", SubmitsAsk}, {SubmitsAsk, SubmitsAsk}, {SubmitsAllow, SubmitsAllow}} {
		d := shop()
		o := opts()
		o.Submits = tt.opt
		res, err := Run(context.Background(), d, checkoutRoutine(t), o)
		if err != nil || res.Status != StatusOK {
			t.Fatalf("Submits %q: %+v %v", tt.opt, res, err)
		}
		for _, a := range d.acts {
			if a.Submits != tt.want {
				t.Errorf("Submits %q: %s %s asked with %q, want %q", tt.opt, a.Kind, a.Target, a.Submits, tt.want)
			}
		}
	}
	o := opts()
	o.Submits = "sometimes"
	if _, err := Run(context.Background(), shop(), checkoutRoutine(t), o); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("Submits %q: err = %v", o.Submits, err)
	}
}

// signInPage is a sign-in page as a driver that notices one shows it.
var signInPage = fakePage{Title: "Sign in", Text: "- heading \"Sign in\"\n- textbox \"Email\" [ref=e20]\n- textbox \"Password\" [ref=e21]\n- button \"Sign in\" [ref=e22]",
	Notices: []calls.Notice{{Kind: "sign-in", Message: "a sign-in form"}}}

// TestReplaySignInAfterAClick: a click that lands on a sign-in wall stops
// the replay as sign-in at the next step whose element is not found,
// with no model call even with a model configured. A step the routine
// recorded on a sign-in form is not stopped so: its element is missing.
func TestReplaySignInAfterAClick(t *testing.T) {
	const doc = `{
  "format": "waymark.routine/1", "name": "pay", "version": 1,
  "variables": [{"name": "password", "secret": true}],
  "steps": [
    {"id": "open", "kind": "goto", "url": "http://shop.test/checkout", "landed": {"path": "/checkout"}},
    {"id": "continue", "kind": "act", "op": "click", "target": {"locator": "role=button[name=\"Place order\"]", "fingerprint": {"role": "button", "name": "Place order"}}},
    NEXT
  ]}`
	card := `{"id": "card", "kind": "act", "op": "fill", "instruction": "fill in the card number",
     "target": {"locator": "label=Card number", "fingerprint": {"role": "textbox", "name": "Card number"}}, "value": {"literal": "4"}}`
	password := `{"id": "password", "kind": "act", "op": "fill",
     "target": {"locator": "label=Password", "fingerprint": {"role": "textbox", "name": "Password", "type": "password"}}, "value": {"from": "secret", "slot": "password"}}`
	inForm := `{"id": "go", "kind": "act", "op": "click",
     "target": {"locator": "role=button[name=\"Continue\"]", "fingerprint": {"role": "button", "name": "Continue", "ancestors": ["form \"Log in\""]}}}`
	tests := []struct {
		name      string
		next      string
		status    string // what find answers for the next step's element
		model     bool
		wantCause Cause
		wantMsg   string
	}{
		{name: "missing, no model", next: card, status: calls.Missing, wantCause: CauseSignIn, wantMsg: `card: the page is a sign-in page (/login "Sign in")`},
		{name: "missing, a model", next: card, status: calls.Missing, model: true, wantCause: CauseSignIn, wantMsg: "card:"},
		{name: "replaced", next: card, status: calls.Replaced, model: true, wantCause: CauseSignIn},
		{name: "ambiguous", next: card, status: calls.Ambiguous, wantCause: CauseSignIn},
		{name: "a password field", next: password, status: calls.Missing, wantCause: CauseMissing},
		{name: "in a sign-in form", next: inForm, status: calls.Missing, wantCause: CauseMissing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := routine.Parse([]byte(strings.Replace(doc, "NEXT", tt.next, 1)))
			if err != nil {
				t.Fatal(err)
			}
			d := shop()
			d.pages["http://shop.test/login"] = signInPage
			d.nav = map[string]string{"@e4": "http://shop.test/login"}
			for _, loc := range []string{"label=Card number", "label=Password", `role=button[name="Continue"]`} {
				d.find[loc] = calls.Resolution{Status: tt.status, Reason: "not like it"}
			}
			o := opts()
			m := scripted.New() // any call fails the test
			if tt.model {
				o.Model = m
			}
			res, err := Run(context.Background(), d, r, o)
			if err != nil {
				t.Fatal(err)
			}
			m.Verify(t)
			if res.Cause != tt.wantCause || res.ModelCalls != 0 || !strings.Contains(res.Message, tt.wantMsg) {
				t.Fatalf("result = %s %s %q, %d model calls", res.Status, res.Cause, res.Message, res.ModelCalls)
			}
			if diff := cmp.Diff([]string{"click @e4"}, d.acted()); diff != "" {
				t.Errorf("acts (-want +got):\n%s", diff)
			}
			if tt.wantCause == CauseSignIn && !strings.Contains(res.Hint, "sign") {
				t.Errorf("hint %q", res.Hint)
			}
		})
	}
}

// TestReplaySignInRecorded: a routine that recorded its sign-in page
// (landed.sign_in) and misses an element there is missing, not stopped as
// sign-in; a click on it leaves the page, and a sign-in wall after it is
// sign-in again.
func TestReplaySignInRecorded(t *testing.T) {
	const doc = `{
  "format": "waymark.routine/1", "name": "in", "version": 1,
  "steps": [
    {"id": "open", "kind": "goto", "url": "http://shop.test/login", "landed": {"path": "/login", "sign_in": true}},
    {"id": "email", "kind": "act", "op": "fill", "target": {"locator": "label=Email", "fingerprint": {"role": "textbox", "name": "Email"}}, "value": {"literal": "ann@example.com"}},
    {"id": "send", "kind": "act", "op": "click", "target": {"locator": "role=button[name=\"Place order\"]", "fingerprint": {"role": "button", "name": "Place order"}}},
    {"id": "orders", "kind": "act", "op": "click", "target": {"locator": "text=Orders", "fingerprint": {"role": "link", "name": "Orders"}}}
  ]}`
	r, err := routine.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, emailFound := range []bool{false, true} {
		d := shop()
		d.pages["http://shop.test/login"] = signInPage
		if !emailFound {
			delete(d.find, "label=Email")
		}
		res, err := Run(context.Background(), d, r, opts())
		if err != nil {
			t.Fatal(err)
		}
		want, step := CauseSignIn, "orders" // the click left the recorded sign-in page; its answer is a sign-in page again
		if !emailFound {
			want, step = CauseMissing, "email"
		}
		if res.Cause != want || !strings.HasPrefix(res.Message, step+":") {
			t.Errorf("email found %v: %s %q, want %s at %s", emailFound, res.Cause, res.Message, want, step)
		}
	}
}

// TestReplayEachOverAFieldOfAnExtract: an extract answering an object with
// several lists is gone over by naming one with a dot; naming the whole
// object stops with the lists to choose from.
func TestReplayEachOverAFieldOfAnExtract(t *testing.T) {
	const doc = `{
  "format": "waymark.routine/1", "name": "fields",
  "steps": [
    {"kind": "goto", "url": "http://shop.test/list"},
    {"id": "read", "kind": "extract", "instruction": "the page's lists", "schema": {"type": "object"}, "into": "page"},
    {"id": "each", "kind": "each", "over": "OVER", "do": [{"kind": "verify", "check": {"text": "%row%"}}]}
  ]}`
	answer := `{"related": ["Cy Diaz"], "saved": {"names": ["Ann Lee", "Bo Chen"]}, "count": 2, "tags": ["x"]}`
	tests := []struct {
		over, wantStatus, wantMsg string
		wantRows                  int
	}{
		{over: "page.saved.names", wantStatus: StatusOK, wantRows: 2},
		{over: "page.related", wantStatus: StatusOK, wantRows: 1},
		{over: "page", wantStatus: StatusStopped, wantMsg: `holds 2 lists (related, tags): name one, as in "over": "page.related"`},
		{over: "page.nope", wantStatus: StatusStopped, wantMsg: `has no field "nope" (it has: count, related, saved, tags)`},
	}
	for _, tt := range tests {
		t.Run(tt.over, func(t *testing.T) {
			r, err := routine.Parse([]byte(strings.Replace(doc, "OVER", tt.over, 1)))
			if err != nil {
				t.Fatal(err)
			}
			d := &fakeDriver{pages: map[string]fakePage{"http://shop.test/list": {Text: "Ann Lee\nBo Chen\nCy Diaz"}}}
			m := scripted.New(scripted.Data(pilot.PurposeExtract, answer))
			res, err := Run(context.Background(), d, r, Options{Model: m, CheckTimeout: -1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tt.wantStatus || !strings.Contains(res.Message, tt.wantMsg) {
				t.Fatalf("status %s %q, want %s %q", res.Status, res.Message, tt.wantStatus, tt.wantMsg)
			}
			rows := 0
			for _, s := range res.Steps {
				if s.Row != nil {
					rows++
				}
			}
			if rows != tt.wantRows {
				t.Errorf("%d rows gone over, want %d", rows, tt.wantRows)
			}
		})
	}
	// A dotted name must start at an extract.
	bad := strings.Replace(strings.Replace(doc, "OVER", "people.names", 1), `"steps"`, `"variables": [{"name": "people", "list": true}], "steps"`, 1)
	if _, err := routine.Parse([]byte(bad)); err == nil || !strings.Contains(err.Error(), "dotted name") {
		t.Errorf("a dotted name on a list variable: %v", err)
	}
}

// TestReplayLandsOnAQuery replays gotos whose page has a query string, as
// each recorder wrote them: the agent loop put the query in landed.path,
// by hand the path alone, and now the path and the counted query apart.
// Each replays; a landing that lost the goto's own parameter stops.
func TestReplayLandsOnAQuery(t *testing.T) {
	const search = "http://shop.test/search?q=lamp"
	tests := []struct {
		name    string
		landed  string
		landsOn string // where the site sends the goto now
		cause   Cause
	}{
		{name: "recorded by the agent loop", landed: `{"path": "/search?q=lamp"}`},
		{name: "recorded by hand", landed: `{"path": "/search"}`},
		{name: "recorded now", landed: `{"path": "/search", "query": "q=lamp"}`},
		{name: "the site added a parameter", landed: `{"path": "/search", "query": "q=lamp"}`, landsOn: "http://shop.test/search?q=lamp&page=1"},
		{name: "the site lost the search", landed: `{"path": "/search", "query": "q=lamp"}`, landsOn: "http://shop.test/search", cause: CauseLandedAway},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := routine.Parse([]byte(`{"format": "waymark.routine/1", "name": "find", "version": 1, "steps": [
			  {"id": "open", "kind": "goto", "url": "` + search + `", "landed": ` + tt.landed + `},
			  {"id": "lamp", "kind": "verify", "check": {"text": "Lamp", "url": "/search?q=*"}}]}`))
			if err != nil {
				t.Fatal(err)
			}
			d := &fakeDriver{pages: map[string]fakePage{search: {URL: tt.landsOn, Title: "Search", Text: `- link "Lamp" [ref=e1]`}}}
			res, err := Run(context.Background(), d, r, opts())
			if err != nil {
				t.Fatal(err)
			}
			if res.Cause != tt.cause {
				t.Errorf("cause = %q (%s), want %q", res.Cause, res.Message, tt.cause)
			}
		})
	}
}
