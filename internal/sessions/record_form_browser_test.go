package sessions

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// A form fill recorded by hand is one form step whose answers are
// variables (the card number a secret one); replayed with other values,
// it fills them, and nothing is ever sent.
func TestRecordFormFillThenReplay(t *testing.T) {
	t.Parallel()
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>Join</title><form method=post action=/join>
<label>Name <input name=name></label><label>Card number <input name=card autocomplete=cc-number></label>
<label>Plan <select name=plan onchange="this.form.submit()"><option>Basic</option><option>Pro</option><option>Team</option></select></label>
<button>Join</button></form>`))
	}))
	t.Cleanup(srv.Close) // after the harness closes its sessions
	h := newHarness(t, 120*time.Second)
	ctx := h.ctx
	handle := h.in("form-rec")
	handle(calls.MethodRecordStart, calls.RecordStartRequest{Name: "join"})
	handle(calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/"})
	handle(calls.MethodFormFill, calls.FormFillRequest{Answers: map[string]string{"name": "Ann", "plan": "Pro", "colour": "blue"},
		Secrets: map[string]string{"card_number": "4242424242424242"}})
	out := handle(calls.MethodRecordStop, calls.RecordStopRequest{}).(*calls.RecordStopResult)
	if strings.Contains(string(out.Routine), "4242") || strings.Contains(strings.Join(out.Notes, " "), "4242") {
		t.Fatalf("the secret is in the routine: %s", out.Routine)
	}
	r, err := routine.Parse(out.Routine)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.Routine)
	}
	var form *routine.Step
	for i := range r.Steps {
		if r.Steps[i].Kind == routine.KindForm {
			form = &r.Steps[i]
		}
	}
	if form == nil || len(form.Answers) != 3 || form.Answers["colour"] != nil {
		t.Fatalf("form step %+v in %s", form, out.Routine)
	}
	if a := form.Answers["card_number"]; a == nil || a.From != "secret" {
		t.Errorf("the card number is not a secret variable: %+v", a)
	}
	if out.Values["name"] != "Ann" || !strings.Contains(strings.Join(out.Notes, " "), "colour") {
		t.Errorf("values %v notes %v", out.Values, out.Notes)
	}

	// Replayed with other values, in a session of its own.
	s := h.session("form-replay")
	vars := map[string]string{"name": "Bo", "plan": "Team"}
	var secrets map[string]secret.Value
	for _, v := range r.Variables {
		if v.Secret {
			secrets = map[string]secret.Value{v.Name: secret.New(v.Name, "5555555555554444")}
		}
	}
	res, err := replay.Run(ctx, s, r, replay.Options{Vars: vars, Secrets: secrets, NoHand: true})
	if err != nil || res.Cause != replay.CauseNone {
		t.Fatalf("replay: %v %+v", err, res)
	}
	f, err := s.Form(ctx, calls.FormRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, x := range f.Fields {
		got[x.Key] = x.Value
	}
	if got["name"] != "Bo" || got["plan"] != "Team" || got["card_number"] != secret.Masked {
		t.Errorf("after the replay: %v", got)
	}
	if n := posts.Load(); n != 0 {
		t.Errorf("%d POSTs", n)
	}
	b2, _ := json.Marshal(res)
	if strings.Contains(string(b2), "5555") {
		t.Errorf("the secret is in the replay's result: %s", b2)
	}
}
