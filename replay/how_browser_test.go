package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/routine"
)

// howPages serves a long, wide page that opens scrolled to (2000, 3000),
// and a button that counts its mouse events.
func howPages() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/long", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html><head><title>Long</title></head><body style="margin:0">
<div style="width:6000px;height:8000px"><h1>A long page</h1></div>
<script>scrollTo(2000, 3000)</script></body></html>`)
	})
	mux.HandleFunc("/clicks", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html><head><title>Clicks</title></head><body>
<button id="b" style="margin:40px;padding:20px">Count me</button>
<script>
window.counts = {click: 0, dblclick: 0, contextmenu: 0, auxclick: 0};
for (const k of Object.keys(counts)) {
  b.addEventListener(k, e => { counts[k]++; if (k === "contextmenu") e.preventDefault(); });
}
</script></body></html>`)
	})
	return mux
}

// scrolled reads the page's scroll position once it has left from and
// stopped moving: a wheel may scroll after the event was sent, and
// smoothly.
func scrolled(t *testing.T, s *driver.Session, ctx context.Context, from [2]float64) (x, y float64) {
	t.Helper()
	last := from
	for i := 0; i < 50; i++ {
		res, err := s.Eval(ctx, calls.EvalRequest{Expression: "[scrollX, scrollY]"})
		if err != nil {
			t.Fatal(err)
		}
		var now [2]float64
		if err := json.Unmarshal(res.Value, &now); err != nil {
			t.Fatalf("%s: %v", res.Value, err)
		}
		if now != from && now == last {
			break
		}
		last = now
		time.Sleep(100 * time.Millisecond)
	}
	return last[0], last[1]
}

// TestReplayScrollsAsRecorded replays a scroll step of each direction on a
// page that opens scrolled to the middle: the page moves the way the step
// says, and a step recorded before steps kept a direction scrolls down.
func TestReplayScrollsAsRecorded(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(howPages())
	t.Cleanup(srv.Close)
	tests := []struct {
		name         string
		step         routine.Step
		wantX, wantY float64
	}{
		{"up 600", routine.Step{Direction: "up", Pixels: 600}, 2000, 2400},
		{"left 500", routine.Step{Direction: "left", Pixels: 500}, 1500, 3000},
		{"old step", routine.Step{}, 2000, 3600}, // the driver's default: 600 px down
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, ctx := newSession(t, fmt.Sprintf("scroll-%d", i))
			st := tt.step
			st.ID, st.Kind, st.Op = "scroll", routine.KindAct, calls.ActScroll
			r := &routine.Routine{Format: routine.Format, Name: "scroll", Version: 1, Steps: []routine.Step{
				{ID: "open", Kind: routine.KindGoto, URL: srv.URL + "/long"}, st}}
			b, err := routine.Marshal(r, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r, err = routine.Parse(b); err != nil { // as a file would load
				t.Fatal(err)
			}
			res, err := Run(ctx, s, r, Options{CheckTimeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusOK {
				t.Fatalf("replay = %s %s %q", res.Status, res.Cause, res.Message)
			}
			if x, y := scrolled(t, s, ctx, [2]float64{2000, 3000}); x != tt.wantX || y != tt.wantY {
				t.Errorf("scrolled to (%v, %v), want (%v, %v)", x, y, tt.wantX, tt.wantY)
			}
		})
	}
}

// TestReplayClicksAsRecorded replays a double click (a click with count 2)
// and a right click: the page sees a dblclick and a contextmenu.
func TestReplayClicksAsRecorded(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(howPages())
	t.Cleanup(srv.Close)
	tests := []struct {
		name string
		op   string
		how  routine.Step
		want map[string]int
	}{
		{"count 2", calls.ActClick, routine.Step{Count: 2}, map[string]int{"click": 2, "dblclick": 1, "contextmenu": 0, "auxclick": 0}},
		{"right", calls.ActClick, routine.Step{Button: "right"}, map[string]int{"click": 0, "dblclick": 0, "contextmenu": 1, "auxclick": 1}},
		{"dblclick", calls.ActDblClick, routine.Step{}, map[string]int{"click": 2, "dblclick": 1, "contextmenu": 0, "auxclick": 0}},
		{"old click", calls.ActClick, routine.Step{}, map[string]int{"click": 1, "dblclick": 0, "contextmenu": 0, "auxclick": 0}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, ctx := newSession(t, fmt.Sprintf("clicks-%d", i))
			rec := &recorder{t: t, s: s, ctx: ctx, r: &routine.Routine{Format: routine.Format, Name: "clicks", Version: 1}}
			rec.gotoStep("open", srv.URL+"/clicks")
			st := tt.how
			st.ID, st.Kind, st.Op, st.Target = "press", routine.KindAct, tt.op, rec.target("button", "Count me")
			rec.r.Steps = append(rec.r.Steps, st)
			b, err := routine.Marshal(rec.r, nil)
			if err != nil {
				t.Fatal(err)
			}
			r, err := routine.Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			// The goto loads the page afresh. The hand stays on, as a
			// replay's default: the clicks go through a person's moves.
			res, err := Run(ctx, s, r, Options{CheckTimeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != StatusOK {
				t.Fatalf("replay = %s %s %q", res.Status, res.Cause, res.Message)
			}
			ev, err := s.Eval(ctx, calls.EvalRequest{Expression: "counts", MainWorld: true})
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]int
			if err := json.Unmarshal(ev.Value, &got); err != nil {
				t.Fatalf("%s: %v", ev.Value, err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("events = %v, want %v", got, tt.want)
			}
		})
	}
}
