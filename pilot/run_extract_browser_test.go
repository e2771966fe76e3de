package pilot_test

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/pilot"
	"github.com/waymark-dev/waymark/replay"
	"github.com/waymark-dev/waymark/routine"
)

// TestRunRecordsTheListItRead: a run told to read a list once its task is
// done gives the rows and records them as an extract step holding the
// recipe learned from them; the routine replays with no model (any call
// would fail: there is none) and reads the same rows on a new load, whose
// class names are new.
func TestRunRecordsTheListItRead(t *testing.T) {
	s, ctx := drivertest.Session(t, "runlist", 60*time.Second)
	srv := httptest.NewServer(&shop{})
	defer srv.Close()
	reload(t, ctx, s, srv.URL)
	m := &outlineModel{t: t, steps: []func(string) string{
		func(string) string {
			return `{"thought":"the products are shown","action":{"type":"done","expect":{"appears":{"role":"heading","name":"Products"}}}}`
		},
		func(string) string { return listRows }, // the extract
	}}
	res, err := pilot.New(s, m, nil).Run(ctx, "show the products", pilot.RunOptions{Record: true,
		Extract: &pilot.RunExtract{Instruction: "every product", Schema: json.RawMessage(listSchema)}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ModelCalls != 2 || res.Recipe == nil || len(res.Data) == 0 {
		t.Fatalf("run: %d model calls, recipe %v (%s), data %s", res.ModelCalls, res.Recipe, res.RecipeNote, res.Data)
	}
	rt := res.Routine
	last := rt.Steps[len(rt.Steps)-1]
	if last.Kind != routine.KindExtract || last.Recipe == nil || last.Into != "data" {
		t.Fatalf("the routine ends with %+v", last)
	}
	b, err := routine.Marshal(rt, nil)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := routine.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := replay.Run(ctx, s, loaded, replay.Options{NoHand: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != replay.StatusOK || rep.ModelCalls != 0 || string(rep.Data["data"]) != string(res.Data) {
		t.Fatalf("replay = %s %s %q, %d model calls, data %s, want %s", rep.Status, rep.Cause, rep.Message, rep.ModelCalls, rep.Data["data"], res.Data)
	}
}
