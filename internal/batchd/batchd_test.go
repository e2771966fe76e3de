package batchd

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/batch"
	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/config"
)

func TestParseEndpoint(t *testing.T) {
	for _, c := range []struct {
		in   string
		ep   string
		max  int
		fail bool
	}{
		{"local", "local", 4, false},
		{"local max=2", "local", 2, false},
		{"ws://10.0.0.5:9222/devtools/browser/x max=8", "ws://10.0.0.5:9222/devtools/browser/x", 8, false},
		{"ws://h:1 max=0", "", 0, true},
		{"ws://h:1 most=3", "", 0, true},
		{"", "", 0, true},
	} {
		ep, max, err := ParseEndpoint(c.in)
		if (err != nil) != c.fail || ep != c.ep || max != c.max {
			t.Errorf("ParseEndpoint(%q) = %q, %d, %v", c.in, ep, max, err)
		}
		if err != nil && calls.Code(err) != "bad_input" {
			t.Errorf("%q: code %s", c.in, calls.Code(err))
		}
	}
}

func TestDefaultDir(t *testing.T) {
	run := t.TempDir()
	env := func(k string) string {
		switch k {
		case "XDG_STATE_HOME":
			return "/state"
		case "XDG_RUNTIME_DIR":
			return run
		}
		return ""
	}
	for _, c := range []struct{ socket, want string }{
		{"", "/state/waymark/batch"},
		{"/tmp/x/d.sock", "/tmp/x/batch-d"}, // named by hand, in a folder of its own
		// The runtime folder is emptied at logout and reboot: the store
		// of a daemon there goes to the state folder.
		{filepath.Join(run, "waymark", "daemon.sock"), "/state/waymark/batch"},
		{filepath.Join(run, "waymark", "second.sock"), "/state/waymark/batch-second"},
	} {
		if got := DefaultDir(c.socket, env); got != c.want {
			t.Errorf("DefaultDir(%q) = %s, want %s", c.socket, got, c.want)
		}
	}
}

// TestServiceAnswers: the service starts its embedded server on
// the first call and refuses a bad row, an unknown batch and an unknown
// method with bad_input.
func TestServiceAnswers(t *testing.T) {
	svc := New(Options{Dir: t.TempDir(), Batch: config.Batch{}, Local: noBrowser{}})
	t.Cleanup(func() { _ = svc.Close() })
	ctx := context.Background()
	if svc.Busy() {
		t.Fatal("busy before anything")
	}
	rt := json.RawMessage(`{"format":"waymark.routine/1","name":"r","version":1,"variables":[{"name":"pw","secret":true}],
		"steps":[{"id":"open","kind":"goto","url":"http://127.0.0.1:1/"}]}`)
	p, _ := json.Marshal(SubmitParams{Spec: batch.Spec{Routine: rt}, Rows: []map[string]json.RawMessage{{"pw": json.RawMessage(`"hunter22"`)}}})
	if _, err := svc.Handle(ctx, MethodSubmit, p); calls.Code(err) != "bad_input" {
		t.Fatalf("a secret by value: %v", err)
	}
	if _, err := svc.Handle(ctx, MethodStatus, json.RawMessage(`{"id":"nope"}`)); calls.Code(err) != "bad_input" {
		t.Fatalf("status of no batch: %v", err)
	}
	if _, err := svc.Handle(ctx, "batch.bogus", nil); calls.Code(err) != "bad_input" {
		t.Fatalf("unknown method: %v", err)
	}
	list, err := svc.Handle(ctx, MethodStatus, nil)
	if err != nil || len(list.(StatusList).Batches) != 0 {
		t.Fatalf("list = %v, %v", list, err)
	}
}

// noBrowser refuses every call: the service's tests start no browser.
type noBrowser struct{}

func (noBrowser) Call(context.Context, string, string, any, any) error {
	return calls.Errorf(calls.ErrUnavailable, "", "no browser in this test")
}

// TestParallelFollowsTheBatch: the worker runs as many rows at a time as
// the batch asks; a later batch with another --parallel gets its own once
// the rows before it are done.
func TestParallelFollowsTheBatch(t *testing.T) {
	svc := New(Options{Dir: t.TempDir(), Local: noBrowser{}})
	t.Cleanup(func() { _ = svc.Close() })
	ctx := context.Background()
	rt := json.RawMessage(`{"format":"waymark.routine/1","name":"r","version":1,"steps":[{"id":"open","kind":"goto","url":"http://127.0.0.1:1/"}]}`)
	submit := func(parallel int) string {
		p, _ := json.Marshal(SubmitParams{Spec: batch.Spec{Routine: rt}, Rows: []map[string]json.RawMessage{{}, {}}, Parallel: parallel})
		res, err := svc.Handle(ctx, MethodSubmit, p)
		if err != nil {
			t.Fatal(err)
		}
		return res.(*batch.Status).ID
	}
	wait := func(id string) {
		deadline := time.Now().Add(20 * time.Second)
		for {
			res, err := svc.Handle(ctx, MethodStatus, json.RawMessage(`{"id":"`+id+`"}`))
			if err != nil {
				t.Fatal(err)
			}
			if res.(*batch.Status).State != batch.StateRunning {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("batch %s never ended", id)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	wait(submit(1))
	if svc.parallel != 1 {
		t.Fatalf("parallel %d, want 1", svc.parallel)
	}
	wait(submit(3))
	if svc.parallel != 3 {
		t.Fatalf("parallel %d, want 3", svc.parallel)
	}
}
