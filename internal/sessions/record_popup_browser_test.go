package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// popupSite is a reading list whose newsletter popup the server decides
// on each load (the day's mode), and which counts what reaches it: the
// task's press (GET /add) and the popup's sign-up (POST /signup).
type popupSite struct {
	mu      sync.Mutex
	mode    string // none, load, late, nag, hostile
	adds    atomic.Int32
	signups atomic.Int32
}

func (p *popupSite) day(mode string) {
	p.mu.Lock()
	p.mode = mode
	p.mu.Unlock()
	p.adds.Store(0)
	p.signups.Store(0)
}

func (p *popupSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/add":
		p.adds.Add(1)
		fmt.Fprint(w, "ok")
		return
	case "/signup":
		p.signups.Add(1)
		fmt.Fprint(w, "<!doctype html><title>Signed up</title><p>You are signed up.</p>")
		return
	case "/list":
	default:
		http.NotFound(w, r)
		return
	}
	p.mu.Lock()
	mode := p.mode
	p.mu.Unlock()
	close := `<button onclick="document.getElementById('pop').remove()">No thanks</button>`
	switch mode {
	case "nag": // closed, it is back at once
		close = `<button onclick="document.getElementById('pop').remove(); setTimeout(showPop, 0)">No thanks</button>`
	case "hostile": // its "No thanks" signs you up
		close = `<form method=post action=/signup><input type=hidden name=list value=offers><button>No thanks</button></form>`
	}
	late := ""
	if mode == "late" {
		late = "setTimeout(showPop, 0);"
	}
	atLoad := ""
	if mode == "load" || mode == "nag" || mode == "hostile" {
		atLoad = "<script>showPop()</script>"
	}
	fmt.Fprintf(w, `<!doctype html><title>Reading list</title>
<h1>Reading list</h1>
<button id=more onclick="document.getElementById('extra').hidden = false; %s">Show more</button>
<div id=extra hidden><button id=add onclick="fetch('/add').then(() => { document.getElementById('done').textContent = 'Added' })">Add to list</button></div>
<p id=done></p>
<template id=tpl><div id=pop style="position:fixed;inset:0;background:#fff;border:1px solid #333">
<p>Join our newsletter for 10%% off your next order</p>%s</div></template>
<script>function showPop() { document.body.insertAdjacentHTML('beforeend', document.getElementById('tpl').innerHTML) }</script>
%s`, late, close, atLoad)
}

// TestRecordedPopupDismissal records by hand, on a day the site shows its
// newsletter popup at load, a task the popup covered: the click on the
// popup's "No thanks" right after is recorded as its dismissal. Replayed
// on a day with no popup, the dismissal is skipped; on a day the popup
// shows late, over a later step, it is closed with the dismissal and the
// step taken again (the server counts one task press); a popup that
// comes back, or one the routine has no dismissal for, stops the replay
// as popup with nothing pressed; a "No thanks" that is a form's submit is
// never pressed as a dismissal.
func TestRecordedPopupDismissal(t *testing.T) {
	t.Parallel()
	site := &popupSite{}
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close) // after the harness closes its sessions
	h := newHarness(t, 120*time.Second)
	ctx := h.ctx

	call, handle := h.call, h.do
	ref := func(session string, words ...string) string { t.Helper(); return h.ref(session, 0, words...) }
	// record records the task on a day: Show more, which the popup stops
	// or covers when it is there, then its No thanks, Show more again and
	// Add to list.
	record := func(session, mode string) (routine.Routine, string) {
		t.Helper()
		site.day(mode)
		handle(session, calls.MethodRecordStart, calls.RecordStartRequest{Name: "reading list"})
		handle(session, calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/list"})
		_, err := call(session, calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: ref(session, "Show more")})
		if !errors.Is(err, calls.ErrNotInteractable) && !errors.Is(err, calls.ErrPopup) {
			t.Fatalf("%s day: Show more under the popup: %v, want it covered", mode, err)
		}
		handle(session, calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: ref(session, "No thanks")})
		if mode != "hostile" {
			handle(session, calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: ref(session, "Show more")})
			handle(session, calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: ref(session, "Add to list")})
		}
		out := handle(session, calls.MethodRecordStop, calls.RecordStopRequest{}).(*calls.RecordStopResult)
		var r routine.Routine
		if err := json.Unmarshal(out.Routine, &r); err != nil {
			t.Fatal(err)
		}
		return r, string(out.Routine)
	}

	r, raw := record("popup-rec", "load")
	if n := strings.Count(raw, `"dismisses"`); n != 1 || len(r.Steps) != 4 {
		t.Fatalf("want 4 steps, the No thanks one marked as a dismissal (%d marked):\n%s", n, raw)
	}
	// The routine, as a file, loads again (schema and checks).
	if _, err := routine.Parse([]byte(raw)); err != nil {
		t.Fatalf("the recorded routine does not load: %v\n%s", err, raw)
	}

	days := 0
	run := func(mode string, rt routine.Routine, submits string) (*replay.Result, string) {
		t.Helper()
		site.day(mode)
		days++
		s := h.session(fmt.Sprintf("popup-day%d", days))
		res, err := replay.Run(ctx, s, &rt, replay.Options{NoHand: true, Submits: submits})
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(res)
		return res, string(js)
	}
	// adds is the task presses the server counted, once the page's request
	// has had its time to arrive.
	adds := func(want int32) int32 {
		deadline := time.Now().Add(3 * time.Second)
		for site.adds.Load() < want && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		return site.adds.Load()
	}

	t.Run("no popup today: the dismissal is skipped", func(t *testing.T) {
		res, js := run("none", r, "")
		if res.Status != replay.StatusOK {
			t.Fatalf("replay: %s %s %q\n%s", res.Status, res.Cause, res.Message, js)
		}
		if res.Steps[1].Status != "skipped" || !strings.Contains(res.Steps[1].Detail, "not open") {
			t.Errorf("the dismissal: %+v, want skipped as not open", res.Steps[1])
		}
		if n := adds(1); n != 1 {
			t.Errorf("the server counted %d presses of Add to list, want 1", n)
		}
	})
	t.Run("the popup at load, as recorded", func(t *testing.T) {
		res, js := run("load", r, "")
		if res.Status != replay.StatusOK || res.Steps[1].Status != "ok" {
			t.Fatalf("replay: %s %s %q\n%s", res.Status, res.Cause, res.Message, js)
		}
		if n := adds(1); n != 1 {
			t.Errorf("the server counted %d presses, want 1", n)
		}
	})
	t.Run("the popup shows late, over a later step", func(t *testing.T) {
		res, js := run("late", r, "")
		if res.Status != replay.StatusOK {
			t.Fatalf("replay: %s %s %q\n%s", res.Status, res.Cause, res.Message, js)
		}
		if res.Steps[1].Status != "skipped" || !strings.Contains(js, `"closed":`) {
			t.Errorf("want the dismissal skipped at its place and the popup closed at the step it met:\n%s", js)
		}
		if n := adds(1); n != 1 {
			t.Errorf("the server counted %d presses of Add to list, want 1", n)
		}
	})
	t.Run("a popup that comes back stops the replay", func(t *testing.T) {
		res, js := run("nag", r, "")
		if res.Status != replay.StatusStopped || string(res.Cause) != "popup" || !strings.Contains(res.Message, "again") {
			t.Fatalf("replay: %s %s %q, want stopped as popup\n%s", res.Status, res.Cause, res.Message, js)
		}
		if n := site.adds.Load(); n != 0 {
			t.Errorf("the server counted %d presses of Add to list, want none", n)
		}
	})
	t.Run("a popup with no recorded dismissal stops the replay", func(t *testing.T) {
		plain := r
		plain.Steps = append([]routine.Step{plain.Steps[0]}, plain.Steps[2:]...)
		res, js := run("late", plain, "")
		if res.Status != replay.StatusStopped || string(res.Cause) != "popup" || !strings.Contains(res.Message, "no dismissal") {
			t.Fatalf("replay: %s %s %q, want stopped as popup\n%s", res.Status, res.Cause, res.Message, js)
		}
		if n := site.adds.Load(); n != 0 {
			t.Errorf("the server counted %d presses of Add to list, want none", n)
		}
	})
	t.Run("a No thanks that submits a form is never pressed as a dismissal", func(t *testing.T) {
		// Even with submits allowed for the replay.
		res, js := run("hostile", r, replay.SubmitsAllow)
		if res.Status != replay.StatusStopped || string(res.Cause) != "popup" {
			t.Fatalf("replay: %s %s %q, want stopped as popup\n%s", res.Status, res.Cause, res.Message, js)
		}
		if n := site.signups.Load(); n != 0 {
			t.Errorf("the server counted %d sign-ups, want none", n)
		}
		// Recorded on that day, the person's press of it is theirs, and is
		// no dismissal.
		_, raw := record("popup-rec2", "hostile")
		if strings.Contains(raw, `"dismisses"`) || !strings.Contains(raw, `"approved"`) {
			t.Errorf("a No thanks that submits a form was recorded as a dismissal, or not as the person's submit:\n%s", raw)
		}
	})
}
