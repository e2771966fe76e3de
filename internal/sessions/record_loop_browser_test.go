package sessions

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/model/scripted"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/recipe"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// loopSite is a table of users, each row with a Note field and a Save
// button that posts the row's name and its note; it counts the posts.
type loopSite struct {
	mu    sync.Mutex
	users [][2]string // name, sku
	wrap  bool        // a wrapper around the table: a recipe learned before no longer fits
	got   map[string]int
}

func (s *loopSite) set(wrap bool, users ...[2]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users, s.wrap = users, wrap
}

func (s *loopSite) posts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.got {
		out[k] = v
	}
	return out
}

func (s *loopSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.URL.Path {
	case "/users":
		var b strings.Builder
		b.WriteString(`<!doctype html><html lang="en"><title>Users</title><body><h1>Users</h1>`)
		if s.wrap {
			b.WriteString(`<section>`)
		}
		b.WriteString(`<table><tr><th>Name</th><th>SKU</th><th>Note</th><th>Actions</th></tr>`)
		for _, u := range s.users {
			name := html.EscapeString(u[0])
			fmt.Fprintf(&b, `<tr><td>%s</td><td>%s</td><td><input aria-label="Note"></td><td><button onclick="save(this, %s)">Save</button></td></tr>`,
				name, html.EscapeString(u[1]), html.EscapeString(fmt.Sprintf("%q", u[0])))
		}
		b.WriteString(`</table>`)
		if s.wrap {
			b.WriteString(`</section>`)
		}
		b.WriteString(`<script>function save(b, who){const note=b.closest('tr').querySelector('input').value;fetch('/save?what='+encodeURIComponent(who+' '+note),{method:'POST'})}</script></body></html>`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, b.String())
	case "/save":
		if r.Method == http.MethodPost {
			s.got[r.URL.Query().Get("what")]++
		}
	default:
		http.NotFound(w, r)
	}
}

// TestRecordALoopOverRowsThenReplay records by hand a loop over a table's
// rows read by a recipe: the first row's Note filled with its SKU and its
// Save pressed. A Save pressed in another row while recording is refused
// with nothing sent. Replayed with no model on other rows, each row's Save
// is pressed once with that row's SKU (counted on the server) and no model
// is called; with the markup changed, the replay stops as needs-model with
// no model, and with one it relearns the recipe with one call and presses
// each row's Save.
func TestRecordALoopOverRowsThenReplay(t *testing.T) {
	t.Parallel()
	site := &loopSite{got: map[string]int{}}
	site.set(false, [2]string{"Ann Lee", "A-1"}, [2]string{"Bob Ray", "B-2"}, [2]string{"Cem Oz", "C-3"})
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close) // after the harness closes its sessions
	h := newHarness(t, 150*time.Second)
	ctx := h.ctx
	call := func(method string, req any) (any, error) { return h.call("loop", method, req) }
	handle := h.in("loop")
	nth := func(n int, words string) string { t.Helper(); return h.ref("loop", n, words) }
	waitFor := func(want map[string]int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; {
			got := site.posts()
			if fmt.Sprint(got) == fmt.Sprint(want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the server received %v, want %v", got, want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	rows := `[{"name":"Ann Lee","sku":"A-1"},{"name":"Bob Ray","sku":"B-2"},{"name":"Cem Oz","sku":"C-3"}]`
	schema := json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"sku":{"type":"string"}},"required":["name","sku"]}}`)

	handle(calls.MethodRecordStart, calls.RecordStartRequest{Name: "notes"})
	handle(calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/users"})
	// The recipe, learned from a model's rows on the session's page (not
	// through the recorder: reading is not a step).
	s := h.session("loop")
	learn := scripted.New(scripted.Data(pilot.PurposeExtract, rows))
	learned, err := pilot.New(s, learn, nil).ExtractWith(ctx, "every user", schema, pilot.ExtractOptions{Learn: true})
	if err != nil || learned.Recipe == nil {
		t.Fatalf("no recipe: %v %+v", err, learned)
	}
	rb, _ := learned.Recipe.Marshal()
	started := handle(calls.MethodRecordRows, calls.RecordRowsRequest{Op: "start", Recipe: rb, Instruction: "every user"}).(*calls.RecordRowsResult)
	if len(started.Rows) != 3 || started.Rows[0]["sku"] != "A-1" {
		t.Fatalf("rows start read %v", started.Rows)
	}
	// A Save in the second row is refused: nothing is pressed.
	if _, err := call(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: nth(1, `button "Save"`), Submits: "allow"}); err == nil || !strings.Contains(err.Error(), "row 2") {
		t.Fatalf("a Save in row 2 while recording the loop: %v", err)
	}
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: nth(0, `textbox "Note"`), Value: "A-1"})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: nth(0, `button "Save"`), Submits: "allow"})
	waitFor(map[string]int{"Ann Lee A-1": 1})
	stopped := handle(calls.MethodRecordRows, calls.RecordRowsRequest{Op: "stop"}).(*calls.RecordRowsResult)
	if stopped.Steps != 2 {
		t.Fatalf("the loop holds %d steps", stopped.Steps)
	}
	out := handle(calls.MethodRecordStop, calls.RecordStopRequest{}).(*calls.RecordStopResult)
	r, err := routine.Parse(out.Routine)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.Routine)
	}
	each := r.Steps[len(r.Steps)-1]
	if each.Kind != routine.KindEach || each.Recipe == nil || len(each.Do) != 2 ||
		each.Do[0].Value == nil || each.Do[0].Value.Template != "%row.sku%" || each.Do[1].Target.Place == "" || !each.Do[1].Target.Positional {
		t.Fatalf("the loop was recorded as:\n%s", out.Routine)
	}
	if len(r.Variables) != 0 {
		t.Errorf("a row's field became a variable: %+v", r.Variables)
	}

	run := func(name string, model pilot.Model) *replay.Result {
		t.Helper()
		name = "loop-" + name
		s := h.session(name)
		defer h.closeSession(name)
		res, err := replay.Run(ctx, s, r, replay.Options{Submits: "allow", NoHand: true, Model: model})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// Other rows, in another order: each row's Save once, with its SKU,
	// and no model call (any would fail: there is no model).
	site.set(false, [2]string{"Dee Ho", "D-4"}, [2]string{"Ann Lee", "A-1"}, [2]string{"Eve Fay", "E-5"})
	if res := run("replay", nil); res.Status != replay.StatusOK || res.ModelCalls != 0 {
		t.Fatalf("replay = %s %s %q (%d model calls)", res.Status, res.Cause, res.Message, res.ModelCalls)
	}
	want := map[string]int{"Ann Lee A-1": 2, "Dee Ho D-4": 1, "Eve Fay E-5": 1}
	waitFor(want)

	// The markup changed: no model, no press; one model call relearns.
	site.set(true, [2]string{"Gus Ng", "G-7"}, [2]string{"Hal Ito", "H-8"})
	if res := run("nomodel", nil); res.Status != replay.StatusStopped || res.Cause != replay.CauseNeedsModel {
		t.Fatalf("replay on changed markup with no model = %s %s %q", res.Status, res.Cause, res.Message)
	}
	heal := scripted.New(scripted.Data(pilot.PurposeExtract, `[{"name":"Gus Ng","sku":"G-7"},{"name":"Hal Ito","sku":"H-8"}]`))
	res := run("heal", heal)
	if res.Status != replay.StatusOK || res.ModelCalls != 1 || len(res.Heals) != 1 || res.Heals[0].How != replay.HealRecipe || res.Routine == nil {
		t.Fatalf("replay with a model on changed markup = %s %s %q, %d model calls, heals %+v", res.Status, res.Cause, res.Message, res.ModelCalls, res.Heals)
	}
	heal.Verify(t)
	want["Gus Ng G-7"], want["Hal Ito H-8"] = 1, 1
	waitFor(want)
	var healed *recipe.Recipe
	for _, st := range res.Routine.Steps {
		if st.Kind == routine.KindEach {
			healed = st.Recipe
		}
	}
	if healed == nil || healed.Container == each.Recipe.Container {
		t.Fatalf("the healed version's recipe: %+v (was %+v)", healed, each.Recipe)
	}
}
