package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestClickAtAndDragBy: click with at and drag with by reach the session
// as the driver's click-at and drag by an offset, with the submit gate
// asking as for every click; a point that is no point is bad input, and
// nothing is called for it.
func TestClickAtAndDragBy(t *testing.T) {
	c := &fakeCaller{}
	cs := connect(t, Options{Caller: c})
	if text, isErr, _ := callTool(t, cs, "click", map[string]any{"at": "420, 310.5"}); isErr {
		t.Fatalf("click at: %s", text)
	}
	if text, isErr, _ := callTool(t, cs, "drag", map[string]any{"source": "e4", "by": "-40,12"}); isErr {
		t.Fatalf("drag by: %s", text)
	}
	var acts []calls.ActRequest
	for _, call := range c.seen() {
		if call.Method == calls.MethodAct {
			var r calls.ActRequest
			if err := json.Unmarshal([]byte(call.Params), &r); err != nil {
				t.Fatal(err)
			}
			acts = append(acts, r)
		}
	}
	if len(acts) != 2 {
		t.Fatalf("%d act calls: %+v", len(acts), acts)
	}
	if a := acts[0]; a.Kind != calls.ActClickAt || a.At == nil || *a.At != (calls.Point{X: 420, Y: 310.5}) || a.Target != "" || a.Submits != SubmitsAsk {
		t.Errorf("click at sent %+v", a)
	}
	if a := acts[1]; a.Kind != calls.ActDrag || a.By == nil || *a.By != (calls.Point{X: -40, Y: 12}) || a.To != "" {
		t.Errorf("drag by sent %+v", a)
	}
	n := len(c.seen())
	for _, args := range []map[string]any{{"at": "left"}, {"at": "1,2,3"}, {"at": "NaN,1"}} {
		text, isErr, _ := callTool(t, cs, "click", args)
		if !isErr || !strings.Contains(text, "bad_input") {
			t.Errorf("click %v: %s", args, text)
		}
	}
	if text, isErr, _ := callTool(t, cs, "drag", map[string]any{"source": "e4", "by": "far"}); !isErr || !strings.Contains(text, "bad_input") {
		t.Errorf("drag by far: %s", text)
	}
	if m := len(c.seen()); m != n {
		t.Errorf("%d calls made for points that are none", m-n)
	}
}
