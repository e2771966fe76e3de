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
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// rowsSite is a table of users with a Delete per row and a pricing page
// with a Choose per card, in an order the test sets; it counts what each
// button sends.
type rowsSite struct {
	mu    sync.Mutex
	users []string
	plans []string
	got   map[string]int // "delete Bob Ray", "choose Pro" → times received
}

func (s *rowsSite) set(users, plans []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users, s.plans = users, plans
}

func (s *rowsSite) count(what string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got[what]
}

func (s *rowsSite) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, v := range s.got {
		n += v
	}
	return n
}

func (s *rowsSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch r.URL.Path {
	case "/users":
		var b strings.Builder
		b.WriteString("<!doctype html><title>Users</title><h1>Users</h1><table><tr><th>Name</th><th>Actions</th></tr>")
		for _, u := range s.users {
			q := html.EscapeString(fmt.Sprintf("%q", "delete "+u))
			fmt.Fprintf(&b, `<tr><td>%s</td><td><button onclick='send(%s)'>Edit</button> <button onclick='send(%s)'>Delete</button></td></tr>`,
				html.EscapeString(u), html.EscapeString(fmt.Sprintf("%q", "edit "+u)), q)
		}
		b.WriteString(`</table><script>function send(what){fetch('/send?what='+encodeURIComponent(what),{method:'POST'})}</script>`)
		fmt.Fprint(w, b.String())
	case "/pricing":
		var b strings.Builder
		b.WriteString("<!doctype html><title>Pricing</title><h1>Plans</h1>")
		for _, p := range s.plans {
			fmt.Fprintf(&b, `<section><h2>%s</h2><p>Monthly</p><button onclick='send(%s)'>Choose</button></section>`,
				html.EscapeString(p), html.EscapeString(fmt.Sprintf("%q", "choose "+p)))
		}
		b.WriteString(`<script>function send(what){fetch('/send?what='+encodeURIComponent(what),{method:'POST'})}</script>`)
		fmt.Fprint(w, b.String())
	case "/send":
		s.got[r.URL.Query().Get("what")]++
	default:
		http.NotFound(w, r)
	}
}

// TestRecordRowsThenReplay records, by hand through the sessions
// recorder, a click on one row's Delete and one card's Choose; reorders
// the rows and cards and replays: the same row's and card's buttons are
// pressed (counted on the server). With the row and the card gone, the
// replay stops as missing and presses nothing, with no model and with one
// (a row that is gone is not healed into another row's control).
func TestRecordRowsThenReplay(t *testing.T) {
	t.Parallel()
	site := &rowsSite{got: map[string]int{}}
	site.set([]string{"Ann Lee", "Bob Ray", "Cem Oz"}, []string{"Basic", "Pro", "Team"})
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close) // after the harness closes its sessions
	h := newHarness(t, 120*time.Second)
	ctx := h.ctx

	handle := h.in("rows-rec")
	nth := func(n int, words string) string { t.Helper(); return h.ref("rows-rec", n, words) }
	// wait polls the server until it has received want sends in all.
	wait := func(want int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); site.total() < want; {
			if time.Now().After(deadline) {
				t.Fatalf("the server received %d sends, want %d: %v", site.total(), want, site.got)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	handle(calls.MethodRecordStart, calls.RecordStartRequest{Name: "rows"})
	handle(calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/users"})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: nth(1, `button "Delete"`), Submits: "allow"})
	wait(1)
	handle(calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/pricing"})
	handle(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: nth(1, `button "Choose"`), Submits: "allow"})
	wait(2)
	if site.count("delete Bob Ray") != 1 || site.count("choose Pro") != 1 {
		t.Fatalf("recording sent %v", site.got)
	}
	out := handle(calls.MethodRecordStop, calls.RecordStopRequest{}).(*calls.RecordStopResult)
	var r routine.Routine
	if err := json.Unmarshal(out.Routine, &r); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, s := range r.Steps {
		if s.Target != nil && s.Target.Fingerprint.Row != nil {
			keys = append(keys, s.Target.Fingerprint.Row.Key)
		}
	}
	if strings.Join(keys, ",") != "bob ray,pro" {
		t.Fatalf("row keys %q; routine:\n%s", keys, out.Routine)
	}

	run := func(name string, model pilot.Model) *replay.Result {
		t.Helper()
		name = "rows-" + name
		s := h.session(name)
		defer h.closeSession(name)
		res, err := replay.Run(ctx, s, &r, replay.Options{Submits: "allow", NoHand: true, Model: model})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	// Reordered: the same row's Delete and the same card's Choose.
	site.set([]string{"Cem Oz", "Bob Ray", "Ann Lee"}, []string{"Team", "Basic", "Pro"})
	if res := run("reordered", nil); res.Status != replay.StatusOK {
		t.Fatalf("replay on reordered rows = %s %s %q", res.Status, res.Cause, res.Message)
	}
	wait(4)
	if site.count("delete Bob Ray") != 2 || site.count("choose Pro") != 2 || site.total() != 4 {
		t.Fatalf("after the replay the server has %v; want Bob's Delete and Pro's Choose twice, nothing else", site.got)
	}

	// Bob's row gone: missing, nothing pressed; with a model too, which
	// is not asked to heal a row that is gone.
	site.set([]string{"Cem Oz", "Ann Lee"}, []string{"Team", "Basic"})
	for _, model := range []pilot.Model{nil, scripted.New()} {
		res := run("gone", model)
		if res.Status != replay.StatusStopped || res.Cause != replay.CauseMissing || res.ModelCalls != 0 {
			t.Errorf("replay with the row gone (model %v) = %s %s %q, %d model calls", model != nil, res.Status, res.Cause, res.Message, res.ModelCalls)
		}
	}
	if site.total() != 4 {
		t.Errorf("with the row gone the server received %v", site.got)
	}
}
