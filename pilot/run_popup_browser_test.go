package pilot_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/pilot"
)

// TestRunRecordsAPopupDismissal: in the agent loop's recording, a click on
// the popup's "No thanks" right after the popup covered a step is
// recorded as its dismissal (routine.MarkDismissal, the rule recording
// by hand uses too); the steps before and after it are not.
func TestRunRecordsAPopupDismissal(t *testing.T) {
	s, ctx := drivertest.Session(t, "popup", 60*time.Second)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Reading list</title><h1>Reading list</h1>
<button onclick="document.getElementById('extra').hidden = false; setTimeout(() => document.body.insertAdjacentHTML('beforeend', document.getElementById('tpl').innerHTML), 0)">Show more</button>
<div id=extra hidden><button onclick="document.getElementById('done').textContent = 'Added'">Add to list</button></div><p id=done></p>
<template id=tpl><div id=pop style="position:fixed;inset:0;background:#fff"><p>Join our newsletter</p>
<button onclick="document.getElementById('pop').remove()">No thanks</button></div></template>`)
	}))
	defer srv.Close()

	click := func(name, expect string) func(string) string {
		return func(o string) string {
			return fmt.Sprintf(`{"thought":"click %s","action":{"type":"act","op":"click","ref":%q,"expect":%s}}`, name, refOf(t, o, "button", name), expect)
		}
	}
	m := &outlineModel{t: t, steps: []func(string) string{
		func(string) string {
			return fmt.Sprintf(`{"thought":"open the list","action":{"type":"act","op":"goto","url":%q}}`, srv.URL+"/")
		},
		click("Show more", `{"appears":{"role":"button","name":"Add to list"}}`),
		click("Add to list", `{"text_appears":"Added"}`), // the popup covers it
		click("No thanks", `{"disappears":{"role":"button","name":"No thanks"}}`),
		click("Add to list", `{"text_appears":"Added"}`),
		func(string) string {
			return `{"thought":"added","action":{"type":"done","expect":{"text_appears":"Added"}}}`
		},
	}}
	var ev events
	res, err := pilot.New(s, m, nil).Run(ctx, "Add the book to the list", pilot.RunOptions{OnEvent: ev.on, Record: true, NoHand: true})
	if err != nil {
		t.Fatalf("run: %v\nevents: %s", err, ev.json(t))
	}
	// Read as the file says it, so the test says the same of a routine
	// written before the field.
	out, _ := json.Marshal(res.Routine)
	var file struct {
		Steps []struct {
			Dismisses *struct{ Popup string } `json:"dismisses"`
			Target    *struct {
				Fingerprint struct{ Name string }
			}
		}
	}
	if err := json.Unmarshal(out, &file); err != nil {
		t.Fatal(err)
	}
	var marked []string
	for _, st := range file.Steps {
		if st.Dismisses != nil && st.Target != nil {
			marked = append(marked, st.Target.Fingerprint.Name+": "+st.Dismisses.Popup)
		}
	}
	if len(marked) != 1 || !strings.HasPrefix(marked[0], "no thanks: ") || !strings.Contains(marked[0], "Join our newsletter") {
		t.Fatalf("dismissals %q, want the No thanks step alone, naming the popup:\n%s", marked, out)
	}
}
