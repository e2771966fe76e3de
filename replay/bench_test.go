package replay

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/routine"
)

// benchFields is how many fields the benchmark form has: with the goto,
// the click and the verify, the routine has 20 steps.
const benchFields = 17

func benchServer(b *testing.B) *httptest.Server {
	var form strings.Builder
	form.WriteString(`<!doctype html><html><head><title>Form</title></head><body><h1>Details</h1><form method="post" action="/saved">`)
	for i := 1; i <= benchFields; i++ {
		fmt.Fprintf(&form, `<p><label for="f%d">Field %d</label><input id="f%d" name="f%d"></p>`, i, i, i, i)
	}
	form.WriteString(`<button id="save" type="submit">Save</button></form></body></html>`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/saved" {
			io.WriteString(w, `<!doctype html><title>Saved</title><h1 id="done">Saved, thank you</h1>`)
			return
		}
		io.WriteString(w, form.String())
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkReplay20 replays a 20-step routine (goto, 17 fills, a click, a
// verify) with no model; BenchmarkChromedp20 does the same steps as a
// hand-written chromedp program. The goal: replay at most 1.3×.
// The replay sets NoHand: it measures the driver's speed against
// chromedp's, as the issue asks (pointer movement off), not a person's
// pace, which a replay uses by default. Submits are allowed, as the
// chromedp program presses Save without asking.
func BenchmarkReplay20(b *testing.B) {
	srv := benchServer(b)
	s, ctx := newSession(b, "bench-replay")
	rec := &recorder{t: b, s: s, ctx: ctx, r: &routine.Routine{Format: routine.Format, Name: "bench", Version: 1}}
	rec.gotoStep("open", srv.URL+"/form")
	for i := 1; i <= benchFields; i++ {
		rec.act(fmt.Sprintf("f%d", i), calls.ActFill, &routine.Value{Literal: fmt.Sprintf("value %d", i)}, fmt.Sprintf("value %d", i), "textbox", fmt.Sprintf("Field %d\"", i))
	}
	rec.act("save", calls.ActClick, nil, "", "button", "Save")
	rec.r.Steps = append(rec.r.Steps, routine.Step{ID: "done", Kind: routine.KindVerify, Check: &routine.Check{Text: "Saved, thank you"}})
	if len(rec.r.Steps) != 20 {
		b.Fatalf("%d steps", len(rec.r.Steps))
	}
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(ctx, s, rec.r, Options{NoHand: true, Submits: SubmitsAllow})
		if err != nil || res.Status != StatusOK || res.ModelCalls != 0 {
			b.Fatalf("replay: %v %+v", err, res)
		}
	}
}

func BenchmarkChromedp20(b *testing.B) {
	srv := benchServer(b)
	ctx := browsertest.Tab(b)
	for b.Loop() {
		steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(srv.URL + "/form")}
		for i := 1; i <= benchFields; i++ {
			steps = append(steps, chromedp.SendKeys(fmt.Sprintf("#f%d", i), fmt.Sprintf("value %d", i)))
		}
		steps = append(steps, chromedp.Click("#save"), chromedp.WaitVisible("#done"))
		if err := chromedp.Do(ctx, steps...); err != nil {
			b.Fatal(err)
		}
	}
}
