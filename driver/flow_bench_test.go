package driver_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo"
)

// BenchmarkShopFlow runs bench/flow.sh's 13 steps on the demo shop in the
// driver, without the CLI's processes: the daemon's own time per step,
// reported as the median over the iterations (ms/<step>). A look takes
// what bench/flow.sh's `snapshot -i --changes` takes.
//
//	go test -run '^$' -bench ShopFlow -benchtime 15x ./driver/
func BenchmarkShopFlow(b *testing.B) {
	s, ctx := drivertest.Session(b, b.Name(), 10*time.Minute)
	srv := httptest.NewServer(demo.New(nil))
	b.Cleanup(srv.Close)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
		b.Fatal(err)
	}
	var names []string
	times := map[string][]time.Duration{}
	for b.Loop() {
		for _, st := range shopFlow(b, ctx, s, srv.URL) {
			if _, ok := times[st.name]; !ok {
				names = append(names, st.name)
			}
			times[st.name] = append(times[st.name], st.d)
		}
	}
	for _, n := range names {
		ds := times[n]
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "ms/"+n)
	}
}

type flowStep struct {
	name string
	d    time.Duration
}

// shopFlow runs the flow once, taking each ref from the looks read so
// far, the last first, as an agent would (a --changes look prints only
// what changed and folds the regions that read as before; their refs are
// where the agent read them).
func shopFlow(b *testing.B, ctx context.Context, s *driver.Session, base string) []flowStep {
	return shopFlowAs(b, ctx, s, base, "")
}

// shopFlowAs is shopFlow with every action's Submits as given ("ask" as
// an MCP client's actions, "" or "allow" as the CLI's element commands).
// Asking, the press of "Add to cart" (a commit) is approved as a person
// would: pressed again with the approval its refusal carried; its time is
// both presses'.
func shopFlowAs(b *testing.B, ctx context.Context, s *driver.Session, base, submits string) []flowStep {
	var out []flowStep
	var looks []string
	timed := func(name string, f func() error) {
		driver.TraceMark(name)
		start := time.Now()
		if err := f(); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		out = append(out, flowStep{name, time.Since(start)})
	}
	look := func(name string) {
		timed(name, func() error {
			snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true, Changes: true})
			if err == nil {
				looks = append(looks, snap.Text)
			}
			return err
		})
	}
	ref := func(words ...string) string {
		for k := len(looks) - 1; k >= 0; k-- {
			for _, line := range strings.Split(looks[k], "\n") {
				ok := true
				for _, w := range words {
					ok = ok && strings.Contains(line, w)
				}
				if i := strings.Index(line, "[ref="); ok && i >= 0 {
					rest := line[i+5:]
					return "@" + rest[:strings.IndexByte(rest, ']')]
				}
			}
		}
		b.Fatalf("no ref for %q in:\n%s", words, strings.Join(looks, "\n"))
		return ""
	}
	do := func(name string, req calls.ActRequest) {
		req.Submits = submits
		timed(name, func() error {
			_, err := s.Act(ctx, req)
			if a, ok := calls.ApprovalOf(err); ok {
				req.Approve = &a
				_, err = s.Act(ctx, req)
			}
			return err
		})
	}
	timed("open", func() error { _, err := s.Open(ctx, calls.OpenRequest{URL: base + "/products"}); return err })
	look("look1")
	do("clickMug", calls.ActRequest{Kind: calls.ActClick, Target: ref(`link "Trail Mug"`)})
	look("look2")
	qty, add, checkout := ref(`spinbutton "Quantity"`), ref(`button "Add to cart"`), ref(`link "Checkout"`)
	do("fillQty", calls.ActRequest{Kind: calls.ActFill, Target: qty, Value: "2"})
	do("clickAdd", calls.ActRequest{Kind: calls.ActClick, Target: add})
	look("look3")
	do("clickCheckout", calls.ActRequest{Kind: calls.ActClick, Target: checkout})
	look("look4")
	name, email, pw := ref(`textbox "Full name"`), ref(`textbox "Email"`), ref(`textbox "Account password"`)
	do("fillName", calls.ActRequest{Kind: calls.ActFill, Target: name, Value: "Ann Example"})
	do("fillEmail", calls.ActRequest{Kind: calls.ActFill, Target: email, Value: "ann@example.com"})
	do("fillPassword", calls.ActRequest{Kind: calls.ActFill, Target: pw, Value: "demo-pass-123"})
	look("look5")
	return out
}

// BenchmarkClickThatStartsNothing clicks a button whose handler only
// changes a text (no request, no navigation, no download): the click's own
// time, with a look after it (which waits for what the click left).
func BenchmarkClickThatStartsNothing(b *testing.B) {
	s, ctx := drivertest.Session(b, b.Name(), 10*time.Minute)
	srv := serve(b, map[string]string{"/": `<!doctype html><title>Toggle</title><p id=out>0</p>
<button onclick="out.textContent = Number(out.textContent) + 1">Toggle</button>`})
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL}); err != nil {
		b.Fatal(err)
	}
	var click, look []time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Toggle"]`}); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		if _, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true}); err != nil {
			b.Fatal(err)
		}
		click, look = append(click, mid.Sub(start)), append(look, time.Since(mid))
	}
	for name, ds := range map[string][]time.Duration{"click": click, "look": look} {
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "ms/"+name)
	}
}

// BenchmarkAfterStepWatch is the cost of the submit gate's watch after an
// asking action's step (sendgate_after.go): the shop flow with every
// action allowed to send, then asking, in one session, each iteration
// both. Asking, the browser's requests are paused and judged during each
// step and for up to 10 s after it on the same page. Reported: the whole
// flow's median each way (ms/flow-allow, ms/flow-ask) and their ratio. The
// watch a flow leaves running is waited out before the next one starts.
//
//	go test -run '^$' -bench AfterStepWatch -benchtime 15x ./driver/
func BenchmarkAfterStepWatch(b *testing.B) {
	br := drivertest.Driver(b)
	s, ctx := drivertest.Session(b, b.Name(), 10*time.Minute)
	srv := httptest.NewServer(demo.New(nil))
	b.Cleanup(srv.Close)
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
		b.Fatal(err)
	}
	flows := map[string][]time.Duration{}
	var names []string
	steps := map[string][]time.Duration{}
	run := func(submits string) {
		for driver.Watchers(br) > 0 {
			time.Sleep(20 * time.Millisecond) // untimed: the last flow's watch ends
		}
		var total time.Duration
		for _, st := range shopFlowAs(b, ctx, s, srv.URL, submits) {
			total += st.d
			steps[st.name+"-"+submits] = append(steps[st.name+"-"+submits], st.d)
			if submits == "allow" {
				names = append(names, st.name)
			}
		}
		flows[submits] = append(flows[submits], total)
	}

	for b.Loop() {
		run("allow")
		run("ask")
	}
	med := map[string]float64{}
	for name, ds := range flows {
		slices.Sort(ds)
		med[name] = float64(ds[len(ds)/2].Microseconds()) / 1000
		b.ReportMetric(med[name], "ms/flow-"+name)
	}
	b.ReportMetric(med["ask"]/med["allow"], "ask/allow")
	median := func(ds []time.Duration) time.Duration { slices.Sort(ds); return ds[len(ds)/2] }
	for _, n := range slices.Compact(names[:len(names)/b.N]) {
		b.Logf("%-14s allow %7.1f ms  ask %7.1f ms", n, float64(median(steps[n+"-allow"]).Microseconds())/1000, float64(median(steps[n+"-ask"]).Microseconds())/1000)
	}
}
