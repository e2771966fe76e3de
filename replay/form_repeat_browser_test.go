package replay

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// seaTime shows one copy of its section and an "Add another vessel" that
// adds up to three.
const seaTime = `<!doctype html><title>Crew</title><form method=post action=/done>
<h2>Sea time</h2><div class=box><div class=voyage><label>Vessel <input name=vessel></label><label>Role <input name=role></label></div>
<button type=button id=add>Add another vessel</button></div><button>Send</button></form>
<script>document.getElementById('add').onclick = () => {
  const all = document.querySelectorAll('.voyage'), c = all[all.length - 1].cloneNode(true);
  for (const i of c.querySelectorAll('input')) i.value = '';
  all[all.length - 1].after(c);
  if (all.length + 1 >= 3) document.getElementById('add').hidden = true;
}</script>`

// A routine's form step (and so a batch row's answers) for later copies
// of a section shown once presses its adder on replay; a copy past the
// page's cap stops the replay as missing, naming it.
func TestReplayFormStepAddsCopies(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(seaTime))
	}))
	defer srv.Close()
	step := func(answers map[string]*routine.Value) *routine.Routine {
		return &routine.Routine{Format: routine.Format, Name: "crew", Variables: []routine.Variable{{Name: "ship"}},
			Steps: []routine.Step{{ID: "open", Kind: routine.KindGoto, URL: srv.URL + "/"}, {ID: "fill", Kind: routine.KindForm, Answers: answers}}}
	}
	s, ctx := newSession(t, t.Name())
	res, err := Run(ctx, s, step(map[string]*routine.Value{
		"sea_time[1].vessel": {From: "input", Slot: "ship"}, "sea_time[2].vessel": {Literal: "Blue Heron"}, "sea_time[2].role": {Literal: "Mate"},
	}), Options{Vars: map[string]string{"ship": "Northern Star"}, NoHand: true})
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := json.Marshal(res); res.Cause != CauseNone {
		t.Fatalf("cause %q: %s", res.Cause, out)
	}
	v, err := s.Eval(ctx, calls.EvalRequest{Expression: `[...document.querySelectorAll('input')].map(i => i.value).join('|')`})
	if err != nil || !strings.Contains(string(v.Value), "Northern Star||Blue Heron|Mate") {
		t.Errorf("page holds %s %v", v.Value, err)
	}
	res, err = Run(ctx, s, step(map[string]*routine.Value{"sea_time[4].vessel": {Literal: "Kittiwake"}}), Options{Vars: map[string]string{"ship": "x"}, NoHand: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cause != CauseMissing || !strings.Contains(res.Steps[len(res.Steps)-1].Error, "sea_time[4].vessel") {
		out, _ := json.Marshal(res)
		t.Errorf("cause %q: %s", res.Cause, out)
	}
}
