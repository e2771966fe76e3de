package replay

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// formVersions are one sign-up form as the site changes it: as recorded,
// with the phone field gone, and with the plan the routine chose gone.
var formVersions = map[string]string{
	"v1": `<label>Name <input name=name></label><label>Phone <input name=phone></label>
<label>Card number <input name=card autocomplete=cc-number></label>
<label>Plan <select name=plan onchange="this.form.submit()"><option>Basic</option><option>Pro</option></select></label>`,
	"no-phone": `<label>Name <input name=name></label>
<label>Card number <input name=card autocomplete=cc-number></label>
<label>Plan <select name=plan><option>Basic</option><option>Pro</option></select></label>`,
	"no-pro": `<label>Name <input name=name></label><label>Phone <input name=phone></label>
<label>Card number <input name=card autocomplete=cc-number></label>
<label>Plan <select name=plan><option>Basic</option><option>Team</option></select></label>`,
}

func TestReplayFormStep(t *testing.T) {
	t.Parallel()
	var version atomic.Value
	version.Store("v1")
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>Sign up</title><form method=post action="/done">` + formVersions[version.Load().(string)] + `<button>Sign up</button></form>`))
	}))
	defer srv.Close()
	r := &routine.Routine{Format: routine.Format, Name: "signup",
		Variables: []routine.Variable{{Name: "name"}, {Name: "card", Secret: true}},
		Steps: []routine.Step{
			{ID: "open", Kind: routine.KindGoto, URL: srv.URL + "/"},
			{ID: "fill", Kind: routine.KindForm, Answers: map[string]*routine.Value{
				"name": {From: "input", Slot: "name"}, "phone": {Literal: "0113 496 0000"},
				"card_number": {From: "secret", Slot: "card"}, "plan": {Literal: "Pro"},
			}},
		}}
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := routine.Parse(raw); err != nil {
		t.Fatalf("the routine does not load: %v", err)
	}
	opts := Options{Vars: map[string]string{"name": "Ann"}, Secrets: map[string]secret.Value{"card": secret.New("card", "4242424242424242")}, NoHand: true}
	for _, c := range []struct {
		version string
		cause   Cause
		names   string
	}{
		{"v1", CauseNone, ""},
		{"no-phone", CauseMissing, "phone"},
		{"no-pro", CauseFailed, "plan"},
	} {
		t.Run(c.version, func(t *testing.T) {
			version.Store(c.version)
			s, ctx := newSession(t, t.Name())
			res, err := Run(ctx, s, r, opts)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := json.Marshal(res)
			if strings.Contains(string(out), "4242") {
				t.Errorf("the card number shows in the result: %s", out)
			}
			if res.Cause != c.cause {
				t.Fatalf("cause %q, want %q: %s", res.Cause, c.cause, out)
			}
			if c.names != "" && !strings.Contains(res.Steps[len(res.Steps)-1].Error, c.names) {
				t.Errorf("the stop does not name %s: %s", c.names, out)
			}
			if c.version == "v1" {
				v, err := s.Get(ctx, calls.GetRequest{What: "value", Target: "label=Plan"})
				if err != nil || v.Value != "Pro" {
					t.Errorf("plan %+v %v", v, err)
				}
			}
		})
	}
	if n := posts.Load(); n != 0 {
		t.Errorf("%d POSTs reached the site", n)
	}
}
