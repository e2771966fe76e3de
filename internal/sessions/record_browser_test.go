package sessions

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// TestRecordDemoCheckoutThenReplay records the demo shop's checkout by
// hand through the daemon's handler, as the CLI's commands reach it, saves
// the routine and replays it with other values in a fresh session.
func TestRecordDemoCheckoutThenReplay(t *testing.T) {
	t.Parallel()
	site := demo.New(nil)
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close) // after the harness closes its sessions
	h := newHarness(t, 120*time.Second)
	ctx := h.ctx

	handle := h.in("checkout-rec")
	// ref finds the ref of the outline line holding all words, as an agent
	// reads it from waymark snapshot -i.
	ref := func(words ...string) string { t.Helper(); return h.ref("checkout-rec", 0, words...) }
	const password = "Tr0ub4dor-and-3"

	handle(calls.MethodRecordStart, calls.RecordStartRequest{Name: "demo checkout"})
	handle(calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/checkout"})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: ref("textbox", "Full name"), Value: "Ann Example"})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: ref("textbox", `"Email"`), Value: "ann@example.com"})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: ref("textbox", "Account password"), Value: password})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActSelect, Target: ref("combobox", "Country"), Values: []string{"United Kingdom"}})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActCheck, Target: ref("radio", "Standard")})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActCheck, Target: ref("checkbox", "terms")})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: ref("button", "Place order")})
	first, ok := site.LastOrder()
	if !ok || first.Name != "Ann Example" {
		t.Fatalf("recording placed no order: %+v", first)
	}
	out := handle(calls.MethodRecordStop, calls.RecordStopRequest{}).(*calls.RecordStopResult)

	var r routine.Routine
	if err := json.Unmarshal(out.Routine, &r); err != nil {
		t.Fatal(err)
	}
	known := new(secret.Set)
	for _, v := range r.Variables {
		if v.Secret {
			known.Add(v.Name, out.Values[v.Name])
		}
	}
	file := filepath.Join(t.TempDir(), "checkout.json")
	if err := routine.Save(file, &r, known); err != nil {
		t.Fatalf("save: %v\n%s", err, out.Routine)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), password) || strings.Contains(string(b), "ann@example.com") {
		t.Fatalf("a value is in the routine file:\n%s", b)
	}
	loaded, err := routine.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Steps) != 8 {
		t.Fatalf("%d steps, want 8:\n%s", len(loaded.Steps), b)
	}
	wantLocators := map[string]string{
		"full_name": `role=textbox[name="Full name"]`,
		"email":     `role=textbox[name="Email"]`,
		"password":  `role=textbox[name="Account password"]`,
		"country":   `role=combobox[name="Country"]`,
	}
	for _, s := range loaded.Steps[1:] {
		if s.Target == nil || s.Target.Fingerprint.Role == "" || len(s.Target.Candidates) == 0 {
			t.Errorf("step %s has no evidence: %+v", s.ID, s.Target)
			continue
		}
		if want, ok := wantLocators[s.ID]; ok && s.Target.Locator != want {
			t.Errorf("step %s: locator %q, want %q", s.ID, s.Target.Locator, want)
		}
	}
	if in := loaded.Steps[1].Instruction; in != `fill textbox "Full name" with %full_name%` {
		t.Errorf("instruction = %q", in)
	}
	vars := map[string]bool{}
	for _, v := range loaded.Variables {
		vars[v.Name] = v.Secret
	}
	if len(vars) != 4 || vars["full_name"] || vars["email"] || !vars["password"] || vars["country"] {
		t.Errorf("variables = %+v", loaded.Variables)
	}
	if out.Values["full_name"] != "Ann Example" || out.Values["password"] != password || out.Values["country"] != "United Kingdom" {
		t.Errorf("values = %v", out.Values)
	}
	if g := loaded.Steps[0]; g.Kind != routine.KindGoto || g.Landed == nil || g.Landed.Path != "/checkout" || g.Landed.Title == "" {
		t.Errorf("goto = %+v", g)
	}

	// Replay with other values in a fresh session, with no model.
	s2 := h.session("checkout-replay")
	res, err := replay.Run(ctx, s2, loaded, replay.Options{
		Vars:    map[string]string{"full_name": "Bo Other", "email": "bo@example.com", "country": "Germany"},
		Secrets: map[string]secret.Value{"password": secret.New("password", "an0ther-Pass-9")},
		Submits: "allow",
		NoHand:  true, // the driver's speed: a person's pace would make this test take 15 s
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != replay.StatusOK || res.ModelCalls != 0 {
		t.Fatalf("replay = %s %s %q, %d model calls; steps %+v", res.Status, res.Cause, res.Message, res.ModelCalls, res.Steps)
	}
	o, _ := site.LastOrder()
	if o.Number == first.Number || o.Name != "Bo Other" || o.Email != "bo@example.com" || o.Password != "an0ther-Pass-9" ||
		o.Country != "DE" || o.Shipping != "standard" || !o.Terms {
		t.Errorf("replayed order = %+v", o)
	}
}
