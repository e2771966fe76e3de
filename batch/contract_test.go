package batch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/routine"
)

// TestRowFillsAForm: a batch row whose routine fills a form runs the form
// step in the row's session, through the worker's journaling wrapper (it
// hid every call replay reaches beyond the pilot's seven: the row stopped
// with "this driver cannot fill forms"). The page echoes each value it is
// given to the server, so the test counts what the fill did, not what the
// result says.
func TestRowFillsAForm(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/seen" {
			mu.Lock()
			seen = append(seen, r.URL.Query().Get("name"))
			mu.Unlock()
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><title>Sign up</title><form method=post action="/done">
<label>Name <input name=name onchange="fetch('/seen?name='+encodeURIComponent(this.value))"></label>
<button>Sign up</button></form>`))
	}))
	t.Cleanup(srv.Close)
	r := routine.Routine{Format: routine.Format, Name: "signup", Version: 1, Variables: []routine.Variable{{Name: "name"}},
		Steps: []routine.Step{{ID: "open", Kind: routine.KindGoto, URL: srv.URL + "/"},
			{ID: "fill", Kind: routine.KindForm, Answers: map[string]*routine.Value{"name": {From: "input", Slot: "name"}}}}}
	rt, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	e, _, _ := testEngine(t, EngineOptions{})
	m := browserManager(t)
	ctx := context.Background()
	spec, err := e.Submit(ctx, Spec{Routine: rt, Submits: "ask"}, []map[string]json.RawMessage{{"name": json.RawMessage(`"Ann Row"`)}})
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, e, "form", []Endpoint{{Name: "local", Caller: m, Max: 1}}, WorkerOptions{Parallel: 1})
	waitDone(t, e, spec.ID, 2*time.Minute)
	res, err := e.Results(ctx, spec.ID)
	if err != nil || len(res) != 1 {
		t.Fatalf("results %v %v", res, err)
	}
	if res[0].Status != StatusOK {
		t.Fatalf("row %s %s at %s: %s", res[0].Status, res[0].Cause, res[0].Step, res[0].Message)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		got := strings.Join(seen, ",")
		mu.Unlock()
		if got == "Ann Row" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page told the server %q, want the row's name once", got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
