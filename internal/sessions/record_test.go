package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// fakePage answers Locate from evidence by target and fails the actions
// on the targets in fail; it counts what it was asked.
type fakePage struct {
	evidence map[string]calls.Evidence
	fail     map[string]bool
	notices  []calls.Notice
	acts     []calls.ActRequest
	locates  []string
}

func (p *fakePage) Open(_ context.Context, req calls.OpenRequest) (*calls.PageInfo, error) {
	if strings.Contains(req.URL, "down") {
		return nil, calls.Errorf(calls.ErrNavigation, "", "net::ERR_CONNECTION_REFUSED")
	}
	return &calls.PageInfo{URL: req.URL + "?from=home", Title: "Checkout", Status: 200}, nil
}
func (p *fakePage) Back(context.Context) (*calls.PageInfo, error) {
	return &calls.PageInfo{URL: "http://shop.test/cart", Title: "Cart"}, nil
}
func (p *fakePage) Forward(ctx context.Context) (*calls.PageInfo, error) { return p.Back(ctx) }
func (p *fakePage) Reload(ctx context.Context) (*calls.PageInfo, error)  { return p.Back(ctx) }
func (p *fakePage) Snapshot(context.Context, calls.SnapshotRequest) (*calls.Snapshot, error) {
	return &calls.Snapshot{Notices: p.notices}, nil
}
func (p *fakePage) Locate(_ context.Context, req calls.LocateRequest) (*calls.Evidence, error) {
	p.locates = append(p.locates, req.Target)
	ev, ok := p.evidence[req.Target]
	if !ok {
		return nil, calls.Errorf(calls.ErrStaleRef, "run waymark snapshot", "no element [ref=%s]", req.Target)
	}
	return &ev, nil
}
func (p *fakePage) Eval(context.Context, calls.EvalRequest) (*calls.EvalResult, error) {
	return nil, errors.New("the fake page runs no scripts")
}

func (p *fakePage) Act(_ context.Context, req calls.ActRequest) (*calls.Outcome, error) {
	p.acts = append(p.acts, req)
	if p.fail[req.Target] {
		return nil, calls.Errorf(calls.ErrNotInteractable, "", "%s is disabled", req.Target)
	}
	return &calls.Outcome{URL: "http://shop.test/checkout"}, nil
}

var _ page = (*driver.Session)(nil)

func field(role, name, typ string) calls.Evidence {
	loc := role + `[name="` + name + `"]`
	return calls.Evidence{
		Chosen:      "role=" + loc,
		Candidates:  []calls.Candidate{{Kind: calls.KindRole, Value: "role=" + loc, Matches: 1}, {Kind: calls.KindLabel, Value: "label=" + name, Matches: 1}},
		Fingerprint: calls.Fingerprint{Tag: "input", Role: role, Name: name, Label: name, Type: typ},
	}
}

func checkoutPage() *fakePage {
	dup := field("button", "Remove", "")
	dup.Chosen = ""
	dup.Candidates = []calls.Candidate{{Kind: calls.KindRole, Value: `role=button[name="Remove"]`, Matches: 3}}
	dup.Fingerprint.Index = 2
	leaky := field("textbox", "Confirm", "text")
	leaky.Fingerprint.Text = "s3cret-Pass-w0rd"
	leaky.Candidates = append(leaky.Candidates, calls.Candidate{Kind: calls.KindText, Value: "text=s3cret-Pass-w0rd", Matches: 1})
	return &fakePage{
		evidence: map[string]calls.Evidence{
			"@e1": field("textbox", "Full name", "text"),
			"@e2": field("textbox", "Email", "email"),
			"@e3": field("textbox", "Account password", "password"),
			"@e4": field("combobox", "Country", ""),
			"@e5": field("checkbox", "I accept the terms", "checkbox"),
			"@e6": field("button", "Place order", "submit"),
			"@e7": dup,
			"@e8": field("textbox", "Coupon", "text"),
			"@e9": leaky,
		},
		fail: map[string]bool{"@e8": true},
	}
}

func recCall(t *testing.T, ctx context.Context, rec *recording, p page, method string, req any) (any, error) {
	t.Helper()
	passed := false
	res, err := rec.handle(ctx, p, method, params(t, req), func() (any, error) {
		passed = true
		return &calls.Empty{}, nil
	})
	if passed != !recordsItself(method) {
		t.Errorf("%s: passed through = %v", method, passed)
	}
	return res, err
}

func recordsItself(method string) bool {
	switch method {
	case calls.MethodOpen, calls.MethodBack, calls.MethodForward, calls.MethodReload, calls.MethodAct:
		return true
	}
	return false
}

func TestRecorderTurnsCallsIntoSteps(t *testing.T) {
	ctx := context.Background()
	m := New(driver.Options{})
	if _, err := m.Handle(ctx, "a", calls.MethodRecordStart, params(t, calls.RecordStartRequest{Name: "checkout"})); err != nil {
		t.Fatal(err)
	}
	rec := m.rec.get("a")
	p := checkoutPage()
	do := func(method string, req any) {
		t.Helper()
		if _, err := recCall(t, ctx, rec, p, method, req); err != nil {
			t.Fatalf("%s %+v: %v", method, req, err)
		}
	}
	do(calls.MethodOpen, calls.OpenRequest{URL: "http://shop.test/checkout"})
	do(calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: "@e1", Value: "Ann Example"})
	do(calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: "@e2", Value: "ann@example.com"})
	do(calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: "@e3", Value: "s3cret-Pass-w0rd"})
	do(calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: "@e9", Value: "s3cret-Pass-w0rd"}) // confirmed: the same secret
	do(calls.MethodAct, calls.ActRequest{Kind: calls.ActSelect, Target: "@e4", Values: []string{"United Kingdom"}})
	do(calls.MethodAct, calls.ActRequest{Kind: calls.ActCheck, Target: "@e5"})
	if _, err := recCall(t, ctx, rec, p, calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: "@e8", Value: "SAVE10"}); !errors.Is(err, calls.ErrNotInteractable) {
		t.Fatalf("failed fill: %v", err)
	}
	if _, err := recCall(t, ctx, rec, p, calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: "@e99"}); !errors.Is(err, calls.ErrStaleRef) {
		t.Fatalf("stale ref: %v", err)
	}
	if _, err := recCall(t, ctx, rec, p, calls.MethodOpen, calls.OpenRequest{URL: "http://down.test/"}); !errors.Is(err, calls.ErrNavigation) {
		t.Fatalf("failed open: %v", err)
	}
	do(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: "@e7"})
	do(calls.MethodAct, calls.ActRequest{Kind: calls.ActPress, Key: "Enter"})
	do(calls.MethodAct, calls.ActRequest{Kind: calls.ActDrag, Target: "@e1", To: "@e2"})
	do(calls.MethodTab, calls.TabRequest{Op: "new"})
	do(calls.MethodTab, calls.TabRequest{Op: "list"})
	do(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: "@e6"})
	do(calls.MethodBack, nil)

	if n := len(p.acts); n != 11 {
		t.Errorf("%d actions done, want 11 (the stale ref is not pressed)", n)
	}
	res, err := m.Handle(ctx, "a", calls.MethodRecordStop, params(t, calls.RecordStopRequest{Name: "ignored"}))
	if err != nil {
		t.Fatal(err)
	}
	out := res.(*calls.RecordStopResult)
	if strings.Contains(string(out.Routine), "s3cret") {
		t.Errorf("the secret is in the routine: %s", out.Routine)
	}
	var r routine.Routine
	if err := json.Unmarshal(out.Routine, &r); err != nil {
		t.Fatal(err)
	}
	known := new(secret.Set)
	known.Add("password", out.Values["password"])
	if _, err := routine.Marshal(&r, known); err != nil {
		t.Fatalf("the routine does not save: %v\n%s", err, out.Routine)
	}
	if r.Name != "checkout" || r.Version != 1 {
		t.Errorf("name %q version %d", r.Name, r.Version)
	}
	wantVars := []routine.Variable{{Name: "full_name"}, {Name: "email"}, {Name: "password", Secret: true}, {Name: "country"}}
	if diff := cmp.Diff(wantVars, r.Variables); diff != "" {
		t.Errorf("variables (-want +got):\n%s", diff)
	}
	wantValues := map[string]string{"full_name": "Ann Example", "email": "ann@example.com", "password": "s3cret-Pass-w0rd", "country": "United Kingdom"}
	if diff := cmp.Diff(wantValues, out.Values); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}

	type brief struct{ ID, Kind, Op, Locator, From, Slot, Key string }
	var got []brief
	for _, s := range r.Steps {
		b := brief{ID: s.ID, Kind: s.Kind, Op: s.Op, Key: s.Key}
		if s.Target != nil {
			b.Locator = s.Target.Locator
		}
		if s.Value != nil {
			b.From, b.Slot = s.Value.From, s.Value.Slot
		}
		got = append(got, b)
	}
	want := []brief{
		{ID: "open", Kind: "goto"},
		{ID: "full_name", Kind: "act", Op: "fill", Locator: `role=textbox[name="Full name"]`, From: "input", Slot: "full_name"},
		{ID: "email", Kind: "act", Op: "fill", Locator: `role=textbox[name="Email"]`, From: "input", Slot: "email"},
		{ID: "password", Kind: "act", Op: "fill", Locator: `role=textbox[name="Account password"]`, From: "secret", Slot: "password"},
		{ID: "password_2", Kind: "act", Op: "fill", Locator: `role=textbox[name="Confirm"]`, From: "secret", Slot: "password"},
		{ID: "country", Kind: "act", Op: "select", Locator: `role=combobox[name="Country"]`, From: "input", Slot: "country"},
		{ID: "i_accept_the_terms", Kind: "act", Op: "check", Locator: `role=checkbox[name="I accept the terms"]`},
		{ID: "remove", Kind: "act", Op: "click"},
		{ID: "press", Kind: "act", Op: "press", Key: "Enter"},
		{ID: "place_order", Kind: "act", Op: "click", Locator: `role=button[name="Place order"]`},
		{ID: "open_2", Kind: "goto"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}

	open := r.Steps[0]
	if open.URL != "http://shop.test/checkout" || *open.Landed != (routine.Landed{Path: "/checkout", Title: "Checkout", Status: 200}) {
		t.Errorf("goto = %+v %+v", open, open.Landed)
	}
	if back := r.Steps[10]; back.URL != "http://shop.test/cart" || !strings.HasPrefix(back.Instruction, "back") {
		t.Errorf("back = %+v", back)
	}
	fill := r.Steps[1]
	if fill.Target.Fingerprint.Name != "Full name" || len(fill.Target.Candidates) != 2 || fill.Instruction != `fill textbox "Full name" with %full_name%` {
		t.Errorf("fill = %+v", fill)
	}
	if dup := r.Steps[7]; dup.Target.Fingerprint.Index != 2 || !strings.Contains(dup.Instruction, "fingerprint") {
		t.Errorf("a step with no unique locator: %+v", dup)
	}
	if leaky := r.Steps[4].Target; leaky.Fingerprint.Text != "" || len(leaky.Candidates) != 2 {
		t.Errorf("the secret was not scrubbed from %+v", leaky)
	}
	if len(out.Notes) != 2 || !strings.Contains(out.Notes[0], "drag") || !strings.Contains(out.Notes[1], "tab new") {
		t.Errorf("notes = %q", out.Notes)
	}
}

func TestRecordStartStopErrors(t *testing.T) {
	ctx := context.Background()
	m := New(driver.Options{})
	if _, err := m.Handle(ctx, "a", calls.MethodRecordStop, nil); !errors.Is(err, calls.ErrBadInput) || !strings.Contains(err.Error(), "not recording") || calls.Hint(err) == "" {
		t.Errorf("stop without start: %v", err)
	}
	if _, err := m.Handle(ctx, "a", calls.MethodRecordStart, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Handle(ctx, "a", calls.MethodRecordStart, nil); !errors.Is(err, calls.ErrBadInput) || !strings.Contains(err.Error(), "already recording") {
		t.Errorf("start twice: %v", err)
	}
	// Another session records on its own.
	if _, err := m.Handle(ctx, "b", calls.MethodRecordStart, nil); err != nil {
		t.Errorf("start b: %v", err)
	}
	if !m.recording("a", calls.MethodAct) || m.recording("a", calls.MethodSnapshot) || m.recording("c", calls.MethodAct) {
		t.Error("recording() claims the wrong calls")
	}
	rec := m.rec.get("a")
	res, err := m.Handle(ctx, "a", calls.MethodRecordStop, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out := res.(*calls.RecordStopResult); !strings.Contains(string(out.Routine), `"steps":[]`) || !strings.Contains(string(out.Routine), `"name":"recording"`) {
		t.Errorf("empty recording: %s", out.Routine)
	}
	// A call that raced the stop is done, not recorded.
	p := checkoutPage()
	if _, err := rec.handle(ctx, p, calls.MethodAct, params(t, calls.ActRequest{Kind: calls.ActClick, Target: "@e6"}), nil); err != nil {
		t.Fatal(err)
	}
	if len(rec.steps) != 0 || len(p.acts) != 1 || len(p.locates) != 0 {
		t.Errorf("after stop: %d steps, %d acts, %d locates", len(rec.steps), len(p.acts), len(p.locates))
	}
	if _, err := m.Handle(ctx, "a", calls.MethodRecordStop, nil); err == nil {
		t.Error("stop twice: no error")
	}
	if m.current() != nil {
		t.Error("record start or stop started a browser")
	}
}

func TestVariablesAreNamedApart(t *testing.T) {
	rec := &recording{secrets: new(secret.Set), values: map[string]string{}, ids: map[string]bool{}}
	fp := &calls.Fingerprint{Label: "Email"}
	a := rec.variable(fp, "ann@example.com", "")
	b := rec.variable(fp, "ann@example.com", "") // typed again
	c := rec.variable(fp, "bo@example.com", "")
	d := rec.variable(&calls.Fingerprint{Label: "Notes"}, "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "")
	e := rec.variable(&calls.Fingerprint{Label: "Row"}, "3", "")
	got := []string{a.Slot, b.Slot, c.Slot, d.From + ":" + d.Slot, e.Slot}
	want := []string{"email", "email", "email_2", "secret:notes", "row_2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("slots (-want +got):\n%s", diff)
	}
}

// TestVariableSecretByField: the by-hand recorder calls a value a secret
// by the same rule as the agent loop (secret.Field), and by the name a
// caller gave it (act --secret), however plain the value looks.
func TestVariableSecretByField(t *testing.T) {
	rec := &recording{secrets: new(secret.Set), values: map[string]string{}, ids: map[string]bool{}}
	tests := []struct {
		fp         *calls.Fingerprint
		value      string
		secretName string
		want       string
	}{
		{&calls.Fingerprint{Label: "CVC"}, "123", "", "secret:cvc"},
		{&calls.Fingerprint{Label: "One-time code"}, "482913", "", "secret:one_time_code"},
		{&calls.Fingerprint{Label: "Postal code"}, "SW1A 1AA", "", "input:postal_code"},
		{&calls.Fingerprint{Label: "Answer"}, "482", "code", "secret:code"},
	}
	for _, tt := range tests {
		v := rec.variable(tt.fp, tt.value, tt.secretName)
		if got := v.From + ":" + v.Slot; got != tt.want {
			t.Errorf("variable(%+v, %q, %q) = %s, want %s", tt.fp, tt.value, tt.secretName, got, tt.want)
		}
	}
}

// TestRecordHowItActs: a recorded step keeps how a scroll scrolled and how
// a click clicked, in its fields and its words, and loads as a routine.
func TestRecordHowItActs(t *testing.T) {
	tests := []struct {
		name            string
		req             calls.ActRequest
		wantOp          string
		wantDir         string
		wantPx          int
		wantBtn         string
		wantCount       int
		wantInstruction string
	}{
		{"scroll the page up", calls.ActRequest{Kind: calls.ActScroll, Direction: "up", Pixels: 600}, "scroll", "up", 600, "", 0, "scroll up 600 px"},
		{"scroll the page, no direction", calls.ActRequest{Kind: calls.ActScroll}, "scroll", "down", 0, "", 0, "scroll down"},
		{"scroll an element left", calls.ActRequest{Kind: calls.ActScroll, Target: "@e1", Direction: "Left", Pixels: 50}, "scroll", "left", 50, "", 0, `scroll textbox "Full name" left 50 px`},
		{"scroll into view", calls.ActRequest{Kind: calls.ActScroll, Target: "@e6", Direction: "intoview"}, "scroll", "into-view", 0, "", 0, `scroll button "Place order" into view`},
		{"right-click", calls.ActRequest{Kind: calls.ActClick, Target: "@e6", Button: "right", Count: 1}, "click", "", 0, "right", 0, `right-click button "Place order"`},
		{"double-click", calls.ActRequest{Kind: calls.ActClick, Target: "@e6", Button: "left", Count: 2}, "click", "", 0, "", 2, `double-click button "Place order"`},
		{"triple-click", calls.ActRequest{Kind: calls.ActClick, Target: "@e6", Count: 3}, "click", "", 0, "", 3, `triple-click button "Place order"`},
		{"middle-click 4 times", calls.ActRequest{Kind: calls.ActClick, Target: "@e6", Button: "middle", Count: 4}, "click", "", 0, "middle", 4, `middle-click button "Place order" 4 times`},
		{"dblclick", calls.ActRequest{Kind: calls.ActDblClick, Target: "@e6", Count: 5}, "dblclick", "", 0, "", 0, `double-click button "Place order"`},
		{"right dblclick", calls.ActRequest{Kind: calls.ActDblClick, Target: "@e6", Button: "right"}, "dblclick", "", 0, "right", 0, `double-right-click button "Place order"`},
		{"plain click", calls.ActRequest{Kind: calls.ActClick, Target: "@e6"}, "click", "", 0, "", 0, `click button "Place order"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recording{secrets: new(secret.Set), values: map[string]string{}, ids: map[string]bool{}}
			p := checkoutPage()
			if _, err := rec.act(context.Background(), p, tt.req); err != nil {
				t.Fatal(err)
			}
			if len(rec.steps) != 1 || len(rec.notes) != 0 {
				t.Fatalf("steps %+v, notes %q", rec.steps, rec.notes)
			}
			st := rec.steps[0]
			if st.Op != tt.wantOp || st.Direction != tt.wantDir || st.Pixels != tt.wantPx || st.Button != tt.wantBtn || st.Count != tt.wantCount {
				t.Errorf("step = op %q direction %q pixels %d button %q count %d, want %q %q %d %q %d",
					st.Op, st.Direction, st.Pixels, st.Button, st.Count, tt.wantOp, tt.wantDir, tt.wantPx, tt.wantBtn, tt.wantCount)
			}
			if st.Instruction != tt.wantInstruction {
				t.Errorf("instruction = %q, want %q", st.Instruction, tt.wantInstruction)
			}
			res, err := rec.result("how")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := routine.Parse(res.Routine); err != nil {
				t.Errorf("the recorded routine does not load: %v\n%s", err, res.Routine)
			}
		})
	}
}

// TestRecordStopKeep: a stop with Keep returns the routine so far and the
// session goes on recording, so the CLI can write the file before the
// recording ends.
func TestRecordStopKeep(t *testing.T) {
	ctx := context.Background()
	m := New(driver.Options{})
	keep := params(t, calls.RecordStopRequest{Keep: true})
	if _, err := m.Handle(ctx, "a", calls.MethodRecordStop, keep); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("keep without start: %v", err)
	}
	if _, err := m.Handle(ctx, "a", calls.MethodRecordStart, nil); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := m.Handle(ctx, "a", calls.MethodRecordStop, keep); err != nil {
			t.Fatalf("keep %d: %v", i, err)
		}
		if !m.recording("a", calls.MethodAct) {
			t.Fatalf("keep %d ended the recording", i)
		}
	}
	if _, err := m.Handle(ctx, "a", calls.MethodRecordStop, nil); err != nil {
		t.Fatal(err)
	}
	if m.recording("a", calls.MethodAct) {
		t.Error("stop did not end the recording")
	}
}

// An extract done while recording becomes an extract step with its recipe
// (a session that does not record takes it and records nothing).
func TestRecordExtract(t *testing.T) {
	ctx := context.Background()
	m := New(driver.Options{})
	req := calls.RecordExtractRequest{Instruction: "every product", Schema: json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}}`),
		Recipe: json.RawMessage(`{"format":"waymark.recipe/1","container":"ul","row":"li","fields":[{"name":"name","type":"string","by":"role","select":"h3"}]}`)}
	if _, err := m.Handle(ctx, "x", calls.MethodRecordExtract, params(t, req)); err != nil {
		t.Fatalf("not recording: %v", err)
	}
	if _, err := m.Handle(ctx, "x", calls.MethodRecordStart, params(t, calls.RecordStartRequest{})); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := m.Handle(ctx, "x", calls.MethodRecordExtract, params(t, req)); err != nil {
			t.Fatal(err)
		}
		req.List = json.RawMessage(`{"pages":5,"key":"name"}`) // the second read over pages
	}
	bad := req
	bad.Recipe = json.RawMessage(`{"format":"waymark.recipe/9"}`)
	if _, err := m.Handle(ctx, "x", calls.MethodRecordExtract, params(t, bad)); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("a bad recipe: %v", err)
	}
	out, err := m.Handle(ctx, "x", calls.MethodRecordStop, params(t, calls.RecordStopRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	r, err := routine.Parse(out.(*calls.RecordStopResult).Routine)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Steps) != 2 || r.Steps[0].Kind != routine.KindExtract || r.Steps[0].Recipe == nil || r.Steps[0].Into != "extract" || r.Steps[1].Into != "extract_2" ||
		r.Steps[0].List != nil || r.Steps[1].List == nil || r.Steps[1].List.Pages != 5 || r.Steps[1].List.Key != "name" {
		t.Fatalf("steps %+v", r.Steps)
	}
}
