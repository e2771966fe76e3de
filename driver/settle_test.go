package driver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// settlePage changes #out after a click in each of the ways a page defers
// its work; /slow answers after 150 ms.
const settlePage = `<!doctype html><title>Settle</title>
<p id=out>start</p>
<button onclick="setTimeout(() => out.textContent = 'timer done', 0)">Timer</button>
<button onclick="Promise.resolve().then(() => out.textContent = 'microtask done')">Microtask</button>
<button onclick="const c = new MessageChannel(); c.port1.onmessage = () => out.textContent = 'message done'; c.port2.postMessage(0)">Message</button>
<button onclick="let n = 0; const step = () => { out.textContent = 'step ' + n; if (++n < 12) setTimeout(step, 0); else out.textContent = 'chain done'; }; setTimeout(step, 0)">Chain</button>
<button onclick="fetch('/slow').then(r => r.text()).then(t => { out.textContent = 'fetched ' + t; })">Fetch</button>
<button onclick="setTimeout(() => fetch('/slow').then(r => r.json()).then(j => setTimeout(() => { out.textContent = 'late ' + j.word; }, 0)), 0)">Late fetch</button>
<label>Query <input oninput="const v = this.value; Promise.resolve().then(() => setTimeout(() => { out.textContent = 'typed ' + v; }, 0))"></label>
<a href="/next">Next</a> <a href="/next" target=_blank>Elsewhere</a>`

// A look right after an action sees the page as the action left it: the
// work its handlers deferred to a microtask, a zero-delay timer, a message
// task, a chain of timers, or a fetch answered 150 ms later (itself started
// from a timer) has run, and the outline shows the last state, never one
// half drawn.
func TestALookRightAfterAnActionSeesTheFinalState(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(settlePage))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(150 * time.Millisecond)
		w.Write([]byte(`{"word": "ok"}`))
	})
	mux.HandleFunc("/next", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><title>Next</title><p id=out>next page</p>
<script>setTimeout(() => { out.textContent = 'next page drawn'; }, 0)</script>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	open(t, s, ctx, srv.URL+"/")

	for _, tt := range []struct {
		button, want string
	}{
		{"Timer", "timer done"},
		{"Microtask", "microtask done"},
		{"Message", "message done"},
		{"Chain", "chain done"},
		{"Fetch", `fetched {"word": "ok"}`},
		{"Late fetch", "late ok"},
	} {
		evalString(t, s, ctx, `out.textContent = 'start'; 'ok'`)
		act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="` + tt.button + `"]`})
		if out := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true}); !strings.Contains(out, tt.want) {
			t.Errorf("a look right after clicking %s does not show %q:\n%s", tt.button, tt.want, out)
		}
	}

	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Query", Value: "mugs"})
	if out := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true}); !strings.Contains(out, "typed mugs") {
		t.Errorf("a look right after a fill does not show what its input handler drew:\n%s", out)
	}

	// The outcome still says what the action did: a new tab, a navigation
	// (and the next page is drawn when the click returns).
	// A tab the action opened becomes current; the outcome is where it is.
	out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=link[name="Elsewhere"]`})
	if !out.Navigated || !strings.HasSuffix(out.URL, "/next") {
		t.Errorf("a click that opens a tab: outcome %+v", out)
	}
	list, err := s.Tab(ctx, calls.TabRequest{Op: "switch", Index: 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tabs) != 2 {
		t.Errorf("after a click that opens a tab: tabs %+v", list.Tabs)
	}
	out = act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=link[name="Next"]`})
	// Its title is the next look's to tell when the page is still loading.
	if !out.Navigated || !strings.HasSuffix(out.URL, "/next") || (out.Title != "Next" && out.Title != "") {
		t.Errorf("a click that navigates: outcome %+v", out)
	}
	if got := getText(t, s, ctx, "css=#out"); got != "next page drawn" {
		t.Errorf("right after the navigating click the page says %q", got)
	}
	// A fill that changes nothing else says it did not navigate.
	open(t, s, ctx, srv.URL+"/")
	if out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Query", Value: "x"}); out.Navigated || len(out.NewTabs) > 0 {
		t.Errorf("a fill: outcome %+v", out)
	}
}

// answerPage draws what a fetch answers in the ways that reach the page
// after the browser has told of the response's end: at the next frame,
// while the page's main thread is busy when it arrives, in two parts, and
// after the page cleared its resource timings (the record settle waits
// for) with a 20 ms timer; /answer answers after 100 ms.
const answerPage = `<!doctype html><title>Answers</title>
<p id=out>start</p>
<button onclick="fetch('/answer?frame').then(r => r.text()).then(t => requestAnimationFrame(() => { out.textContent = 'framed ' + t; }))">Frame</button>
<button onclick="setTimeout(() => { const end = performance.now() + 150; while (performance.now() < end); }, 70); fetch('/answer?busy').then(r => r.text()).then(t => setTimeout(() => { out.textContent = 'busy ' + t; }, 0))">Busy</button>
<button onclick="fetch('/answer?parts').then(async r => { const rd = r.body.getReader(), dec = new TextDecoder(); let s = ''; for (;;) { const {done, value} = await rd.read(); if (done) break; s += dec.decode(value); out.textContent = 'part ' + s; } out.textContent = 'parts ' + s; })">Parts</button>
<button onclick="fetch('/answer?cleared').then(r => r.text()).then(t => { performance.clearResourceTimings(); setTimeout(() => { out.textContent = 'cleared ' + t; }, 20); })">Cleared</button>`

// A look right after a click whose fetch is answered shows what the page
// drew of the answer, however it reached the page: settle waits for the
// page's own record of the response, then a frame, then quiet tasks; a
// page without the record is waited on until its DOM stays still.
func TestALookAfterAFetchSeesWhatItsAnswerDrew(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(answerPage))
	})
	mux.HandleFunc("/answer", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(100 * time.Millisecond)
		if r.URL.RawQuery == "parts" {
			w.Write([]byte("one "))
			w.(http.Flusher).Flush()
			time.Sleep(60 * time.Millisecond)
		}
		w.Write([]byte("ok"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	open(t, s, ctx, srv.URL+"/")
	for _, tt := range []struct {
		button, want string
	}{
		{"Frame", "framed ok"},
		{"Busy", "busy ok"},
		{"Parts", "parts one ok"},
		{"Cleared", "cleared ok"},
	} {
		// A frame comes at its own pace: a few tries, so a wait that
		// misses it is caught.
		for range 4 {
			evalString(t, s, ctx, `out.textContent = 'start'; 'ok'`)
			act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="` + tt.button + `"]`})
			if out := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true}); !strings.Contains(out, tt.want) {
				t.Errorf("a look right after clicking %s does not show %q:\n%s", tt.button, tt.want, out)
				break
			}
		}
	}
}
