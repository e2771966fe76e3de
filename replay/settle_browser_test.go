package replay

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/routine"
)

// TestReplayEndsWhenItsLastRequestLanded: a replay whose last step sets a
// request going says ok only once that request has been answered, not
// while it is still on the wire (an action answers once what it did is
// known and leaves the rest of its settle to the tab; a replay that is
// the last command would otherwise never hear how it ended).
func TestReplayEndsWhenItsLastRequestLanded(t *testing.T) {
	var sent, answered atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>Note</title><button onclick="fetch('/save', {method: 'POST', body: 'x'}).then(() => { document.title = 'saved'; })">Save note</button>`)
	})
	mux.HandleFunc("/save", func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		// A slow server, slower than an action's answer.
		select {
		case <-time.After(time.Second):
		case <-r.Context().Done():
			return
		}
		answered.Add(1)
		io.WriteString(w, "ok")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	s, ctx := newSession(t, "last-request")
	rec := &recorder{t: t, s: s, ctx: ctx, r: &routine.Routine{Format: routine.Format, Name: "save", Version: 1}}
	rec.gotoStep("open", srv.URL+"/")
	// Recorded without pressing it: only the replay sends.
	rec.r.Steps = append(rec.r.Steps, routine.Step{ID: "save", Kind: routine.KindAct, Op: calls.ActClick,
		Instruction: "click Save note", Target: rec.target("button", "Save note")})

	res, err := Run(ctx, s, rec.r, Options{Submits: SubmitsAllow, NoHand: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusOK {
		t.Fatalf("replay = %s %s %q", res.Status, res.Cause, res.Message)
	}
	if n, a := sent.Load(), answered.Load(); n != 1 || a != 1 {
		t.Errorf("the replay said ok with %d request(s) sent and %d answered: want 1 and 1", n, a)
	}
}
