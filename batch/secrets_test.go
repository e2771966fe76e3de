package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
	"github.com/waymark-dev/waymark/secret"
)

// TestRowsWaitForTheirSecrets: a worker whose vault lacks a row's secret
// (a daemon started again mid-batch) holds the row as needs_secret, never
// failed, and runs nothing for it; the batch ends needs_secret. Once the
// value is handed over, Resume puts those rows back and they run, each
// once, with the value; the stream, the buckets and the results never
// hold it.
func TestRowsWaitForTheirSecrets(t *testing.T) {
	e, _, dir := testEngine(t, EngineOptions{})
	const pinA, pinB = "PIN-4821-alpha", "PIN-9917-beta"
	var mu sync.Mutex
	typed := map[string][]string{} // row id → secrets it ran with
	fake := func(ctx context.Context, d calls.Session, r *routine.Routine, o replay.Options) (*replay.Result, error) {
		mu.Lock()
		typed[o.Vars["id"]] = append(typed[o.Vars["id"]], o.Secrets["password"].Reveal())
		mu.Unlock()
		return &replay.Result{Status: replay.StatusOK}, nil
	}
	vault := &Vault{}
	startWorker(t, e, "w1", []Endpoint{{Name: "fake", Caller: newFakeCaller()}}, WorkerOptions{Replay: fake, Secrets: vault,
		Getenv: func(string) string { return pinA }}) // never read: Secrets wins
	ctx := context.Background()
	rows := rowsOf(3, func(i int, f map[string]json.RawMessage) {
		ref := `{"secret":"env:PIN_A"}`
		if i == 2 {
			ref = `{"secret":"env:PIN_B"}`
		}
		f["password"] = json.RawMessage(ref)
	})
	// The submitter handed over PIN_A only.
	id := NewID()
	vault.Put(id, map[string]secret.Value{"env:PIN_A": secret.New("env:PIN_A", pinA)})
	if _, err := e.Submit(ctx, Spec{ID: id, Routine: testRoutine(t, true)}, rows); err != nil {
		t.Fatal(err)
	}
	st := waitDone(t, e, id, 20*time.Second)
	if st.State != StateNeedsSecret || st.OK != 2 || st.NeedsSecret != 1 || st.Failed != 0 {
		t.Fatalf("status %+v; want 2 ok, 1 needs_secret, state needs_secret", st)
	}
	res, _ := e.Results(ctx, id)
	if r := res[2]; r.Status != StatusNeedsSecret || r.Cause != CauseSecret || r.Hint == "" {
		t.Errorf("row 3: %+v", r)
	}
	refs, err := e.HeldRefs(ctx, id)
	if err != nil || len(refs) != 1 || refs[0].String() != "env:PIN_B" {
		t.Fatalf("held refs %v, %v", refs, err)
	}
	mu.Lock()
	if len(typed["row-3"]) != 0 {
		t.Errorf("row 3 ran without its secret: %v", typed["row-3"])
	}
	mu.Unlock()

	vault.Put(id, map[string]secret.Value{"env:PIN_B": secret.New("env:PIN_B", pinB)})
	if _, err := e.Resume(ctx, id); err != nil {
		t.Fatal(err)
	}
	st = waitDone(t, e, id, 20*time.Second)
	if st.State != StateDone || st.OK != 3 || st.NeedsSecret != 0 {
		t.Fatalf("after resume: %+v", st)
	}
	mu.Lock()
	if got := typed["row-3"]; len(got) != 1 || got[0] != pinB {
		t.Errorf("row 3 ran with %q", got)
	}
	if got := typed["row-1"]; len(got) != 1 || got[0] != pinA {
		t.Errorf("row 1 ran with %q", got)
	}
	mu.Unlock()
	if refs, _ := e.HeldRefs(ctx, id); len(refs) != 0 {
		t.Errorf("still held: %v", refs)
	}
	res, _ = e.Results(ctx, id)
	b, _ := json.Marshal(res)
	for _, v := range []string{pinA, pinB} {
		if bytes.Contains(b, []byte(v)) {
			t.Errorf("the results hold %s", v)
		}
		assertNotInFiles(t, dir, v)
	}
}

// TestWorkerMissingEnvIsNeedsSecret: `waymark worker` reads its own
// environment; a variable it lacks holds the row, it does not fail it.
func TestWorkerMissingEnvIsNeedsSecret(t *testing.T) {
	e, _, _ := testEngine(t, EngineOptions{})
	startWorker(t, e, "w1", []Endpoint{{Name: "fake", Caller: newFakeCaller()}}, WorkerOptions{Replay: fakeReplay(nil),
		Getenv: func(string) string { return "" }})
	ctx := context.Background()
	spec, err := e.Submit(ctx, Spec{Routine: testRoutine(t, true)}, rowsOf(1, func(_ int, f map[string]json.RawMessage) {
		f["password"] = json.RawMessage(`{"secret":"file:/nonexistent/pw"}`)
	}))
	if err != nil {
		t.Fatal(err)
	}
	st := waitDone(t, e, spec.ID, 20*time.Second)
	if st.NeedsSecret != 1 || st.Failed != 0 {
		t.Fatalf("status %+v", st)
	}
}

// TestSignInVariables: a row gives the variables of the routine and of
// the sign-in routine it bundles; a name secret in one and plain in the
// other is refused before any row runs.
func TestSignInVariables(t *testing.T) {
	api := `{"format": "waymark.api/1", "site": "http://127.0.0.1:1", "page": "http://127.0.0.1:1/", "relogin": "signin.json",
 "request": {"method": "GET", "url": "http://127.0.0.1:1/api"}, "rows": "/items", "fields": [{"name": "name", "path": "/name"}]}`
	main := func(vars string) json.RawMessage {
		return json.RawMessage(`{"format": "waymark.routine/1", "name": "items", "version": 1, "variables": [` + vars + `],
 "steps": [{"id": "items", "kind": "api", "into": "items", "api": ` + api + `}]}`)
	}
	signIn := SignIn{Routine: json.RawMessage(`{"format": "waymark.routine/1", "name": "signin", "version": 1,
 "variables": [{"name": "user"}, {"name": "pw", "secret": true}], "steps": [{"id": "open", "kind": "goto", "url": "http://127.0.0.1:1/login"}]}`)}
	spec := Spec{Routine: main(`{"name": "id"}`), SignIns: map[string]SignIn{"signin.json": signIn}}
	vars, err := spec.Variables()
	if err != nil || len(vars) != 3 || vars[0].Name != "id" || vars[1].Name != "user" || vars[2].Name != "pw" || !vars[2].Secret {
		t.Fatalf("variables %+v, %v", vars, err)
	}
	refs, err := RowRefs(&spec, []map[string]json.RawMessage{{"id": json.RawMessage(`"1"`), "user": json.RawMessage(`"ann"`), "pw": json.RawMessage(`{"secret": "env:PW"}`)}})
	if err != nil || len(refs) != 1 || refs[0].String() != "env:PW" {
		t.Errorf("refs %v, %v", refs, err)
	}
	if _, err := RowRefs(&spec, []map[string]json.RawMessage{{"id": json.RawMessage(`"1"`), "user": json.RawMessage(`"ann"`), "pw": json.RawMessage(`"hunter2"`)}}); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("the sign-in's secret given by value: %v", err)
	}
	spec.Routine = main(`{"name": "pw"}`)
	if _, err := spec.Variables(); !errors.Is(err, calls.ErrBadInput) || !strings.Contains(err.Error(), `"pw"`) {
		t.Errorf("pw plain in the routine and secret in its sign-in: %v", err)
	}
}
