// Command cdpfloor measures the floor under bench/flow.sh's shop flow: the
// flow's three navigations and its Add-to-cart fetch done the cheapest way
// CDP allows, on the same Chromium with the same flags as the benchmark,
// against the same demo shop (internal/demo, served on loopback in this
// process, as bench/cmd/demoserve serves it). No Fetch interception, no
// proxy, no settle: a click is a mouse press and release at a point found
// beforehand (untimed), and it ends at the event that says the effect is
// there (the load event, or the fetch's response read to its end).
//
// It prints, per step, the median and quartiles of -runs runs in ms, so a
// waymark step can be set against what Chromium itself needs for it:
//
//	go run ./bench/cmd/cdpfloor -runs 15
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"iter"
	"log"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/domsnapshot"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/internal/browser"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/internal/outline/build"
)

// benchFlags are bench/lib/env.sh's CHROME_FLAGS (the flags every tool of
// the benchmark gets), on top of waymark's own (internal/browser.Flags).
var benchFlags = []string{
	"no-sandbox", "disable-background-networking", "disable-component-update", "disable-sync",
	"no-first-run", "disable-quic", "proxy-server=http://127.0.0.1:9",
	"host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
}

func main() {
	runs := flag.Int("runs", 11, "runs of the flow per mode")
	modes := flag.String("modes", "plain", "comma-separated modes, run in turn: plain (the floor), fetch (document requests paused and let go, on the tab and browser-wide, as waymark's guards do), fetch1 (browser-wide only), fetchtab (the tab only), fetchidle (browser-wide, and the tab's interception on pausing nothing: waymark since issue 32), fetch0 (browser-wide, with a pattern no request matches: the interception's cost without a pause), attach (the browser auto-attaches new targets held until resumed, no Fetch), lean (chromedp's DOM and CSS domains disabled after attach), lean+fetch")
	chromium := flag.String("chromium", os.Getenv("CHROMIUM"), "the browser (default: as waymark finds it)")
	serve := flag.Bool("serve", false, "run one flow (the first mode) per line read on stdin, and print its steps as a JSON line (bench/js/flow.mjs runs the floor so, interleaved with the tools)")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go func() { _ = http.Serve(ln, demo.New(nil)) }()
	base := "http://" + ln.Addr().String()

	path, err := browser.Find(*chromium)
	if err != nil {
		log.Fatal(err)
	}
	ms := strings.Split(*modes, ",")
	tabs := map[string]*tab{}
	for _, m := range ms {
		// A browser of its own per mode: the browser-wide pause of one
		// mode must not touch another's.
		t, stop, err := newTab(path, m)
		if err != nil {
			log.Fatalf("%s: %v", m, err)
		}
		defer stop()
		// As in bench/flow.sh, the tab has a page of the shop open
		// before the first run, and each run starts where the last ended.
		if _, err := cdp.Call(t.ctx, t.sess, page.Navigate, page.NavigateParams{URL: base + "/"}); err != nil {
			log.Fatal(err)
		}
		if err := t.until(isLoad); err != nil {
			log.Fatal(err)
		}
		tabs[m] = t
	}
	if *serve {
		serveFlows(tabs[ms[0]], base)
		return
	}
	times := map[string]map[string][]time.Duration{} // mode → step → times
	var order []string
	for _, m := range ms {
		times[m] = map[string][]time.Duration{}
	}
	for i := 0; i < *runs+1; i++ { // the first run warms up and is not counted
		for k := range ms {
			m := ms[(i+k)%len(ms)] // rotate, so no mode always runs first
			cpu := treeCPU(tabs[m].pid)
			got, err := flow(tabs[m], base)
			if err != nil {
				log.Fatalf("run %d, %s: %v", i, m, err)
			}
			got = append(got, step{cpuRow, treeCPU(tabs[m].pid) - cpu})
			if i == 0 {
				continue
			}
			var navs time.Duration
			for _, s := range got {
				if !slices.Contains(order, s.name) {
					order = append(order, s.name)
				}
				times[m][s.name] = append(times[m][s.name], s.d)
				if isNav(s.name) {
					navs += s.d
				}
			}
			times[m][navsRow] = append(times[m][navsRow], navs)
		}
	}
	// The load of a shared machine moves from run to run more than a
	// guard costs: each mode's navigations less the first mode's of the
	// same run (the modes of a run follow each other) cancel most of it.
	const pairedRow, pairedCPU = "  less the first mode's, same run", "  less the first mode's, same run "
	for _, m := range ms {
		for i, d := range times[m][navsRow] {
			times[m][pairedRow] = append(times[m][pairedRow], d-times[ms[0]][navsRow][i])
		}
		for i, d := range times[m][cpuRow] {
			times[m][pairedCPU] = append(times[m][pairedCPU], d-times[ms[0]][cpuRow][i])
		}
	}
	order = slices.DeleteFunc(order, func(n string) bool { return n == cpuRow })
	order = append(order, navsRow, pairedRow, cpuRow, pairedCPU)
	la, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("cdpfloor: median of %d runs per mode, ms; load %s\n", *runs, strings.Join(strings.Fields(string(la))[:3], " "))
	fmt.Printf("%-44s", "")
	for _, m := range ms {
		fmt.Printf(" %11s", m)
	}
	fmt.Println()
	for _, name := range order {
		fmt.Printf("%-44s", name)
		for _, m := range ms {
			ds := times[m][name]
			slices.Sort(ds)
			fmt.Printf(" %11.1f", float64(ds[len(ds)/2].Microseconds())/1000)
		}
		fmt.Println()
	}
}

// docPatterns are waymark's guard's: documents only (driver/sendgate.go).
var docPatterns = []*fetch.RequestPattern{{URLPattern: "*", ResourceType: network.ResourceTypeDocument, RequestStage: fetch.RequestStageRequest}}

// navsRow sums, per run, the flow's three navigations (the steps isNav
// names): what a guard of documents costs shows there.
const navsRow = "the 3 navigations, summed per run"

// isNav says a step is one of the flow's navigations, from its start to
// the load event.
func isNav(name string) bool {
	return strings.HasPrefix(name, "open ") || strings.HasSuffix(name, ": move → load")
}

// cpuRow is the CPU time the browser's processes spent over a run: unlike
// the wall time, it hardly moves with the load of a shared machine.
const cpuRow = "browser CPU over the flow (all processes)"

// treeCPU sums the CPU time of every thread of pid and its descendants
// (/proc/PID/task/TID/schedstat: ns on a CPU), or 0 off Linux.
func treeCPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	parent := map[int]int{}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		var id int
		if _, err := fmt.Sscan(p.Name(), &id); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + p.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parens.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 {
			var pp int
			_, _ = fmt.Sscan(f[1], &pp)
			parent[id] = pp
		}
	}
	in := func(id int) bool {
		for range 16 {
			if id == pid {
				return true
			}
			if id = parent[id]; id <= 1 {
				return false
			}
		}
		return false
	}
	var sum time.Duration
	for id := range parent {
		if !in(id) {
			continue
		}
		tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", id))
		for _, task := range tasks {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", id, task.Name()))
			if err != nil {
				continue
			}
			var ns int64
			_, _ = fmt.Sscan(string(b), &ns)
			sum += time.Duration(ns)
		}
	}
	return sum
}

// nonePatterns match no request the flow makes.
var nonePatterns = []*fetch.RequestPattern{{URLPattern: "waymark-none:*", RequestStage: fetch.RequestStageRequest}}

// pauseDocuments pauses document requests on the tab (unless tab is nil)
// and on the browser target and lets each go at once, as waymark's tab
// guard and its browser-wide guard of new tabs do (with a policy that
// allows all).
func pauseDocuments(ctx context.Context, tab, br cdp.Session) error {
	for _, s := range []cdp.Session{tab, br} {
		if s == nil {
			continue
		}
		var events iter.Seq2[fetch.EventRequestPaused, error]
		if s == br {
			events = chromedp.BrowserEvents(ctx, fetch.RequestPaused)
		} else {
			events = chromedp.Events(ctx, fetch.RequestPaused)
		}
		if _, err := cdp.Call(ctx, s, fetch.Enable, fetch.EnableParams{Patterns: docPatterns}); err != nil {
			return err
		}
		go func() {
			for ev, err := range events {
				if err != nil {
					return
				}
				go func() {
					_, _ = cdp.Call(ctx, s, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
				}()
			}
		}()
	}
	return nil
}

type step struct {
	name string
	d    time.Duration
}

// tab is one page target with the events the flow waits for.
type tab struct {
	ctx    context.Context
	sess   *chromedp.Target
	events chan any
	// pid is the browser's process, whose tree's CPU time a run reads.
	pid int
}

func (t *tab) listen() error {
	return chromedp.Listen(t.ctx, func(ev any) {
		switch ev.(type) {
		case *page.EventLoadEventFired, *page.EventFrameNavigated, *page.EventDomContentEventFired,
			*network.EventResponseReceived, *network.EventLoadingFinished:
			select {
			case t.events <- ev:
			default:
			}
		}
	})
}

// drain forgets the events seen so far.
func (t *tab) drain() {
	for {
		select {
		case <-t.events:
		default:
			return
		}
	}
}

// until waits for the first event ok accepts.
func (t *tab) until(ok func(any) bool) error {
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-t.events:
			if ok(ev) {
				return nil
			}
		case <-timeout:
			return errors.New("timed out")
		}
	}
}

func isLoad(ev any) bool   { _, ok := ev.(*page.EventLoadEventFired); return ok }
func isCommit(ev any) bool { _, ok := ev.(*page.EventFrameNavigated); return ok }

// newTab starts a browser for the mode (the benchmark's flags on top of
// waymark's), and opens a tab in a browser context of its own, as a
// waymark session does.
func newTab(path, mode string) (*tab, func(), error) {
	var extra []chromedp.ExecAllocatorOption
	for _, f := range benchFlags {
		name, val, ok := strings.Cut(f, "=")
		if ok {
			extra = append(extra, chromedp.Flag(name, val))
		} else {
			extra = append(extra, chromedp.Flag(name, true))
		}
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), browser.Flags(path, true, extra...)...)
	bctx, bcancel := chromedp.NewContext(actx)
	stop := func() { bcancel(); acancel() }
	if err := chromedp.Do(bctx); err != nil {
		stop()
		return nil, nil, err
	}
	bc, err := chromedp.CallBrowser(bctx, target.CreateBrowserContext, target.CreateBrowserContextParams{})
	if err != nil {
		stop()
		return nil, nil, err
	}
	tctx, _ := chromedp.NewContext(bctx, chromedp.WithExistingBrowserContext(bc.BrowserContextID))
	if err := chromedp.Do(tctx); err != nil { // attaches; chromedp enables Page, Network, DOM, CSS, as for waymark's tabs
		stop()
		return nil, nil, err
	}
	c := chromedp.FromContext(tctx)
	t := &tab{ctx: tctx, sess: c.Target, events: make(chan any, 256)}
	if p := c.Browser.Process(); p != nil {
		t.pid = p.Pid
	}
	if err := t.listen(); err != nil {
		stop()
		return nil, nil, err
	}
	if strings.Contains(mode, "lean") {
		// chromedp enables them at attach and fetches the document at each
		// DOM.documentUpdated; waymark uses neither.
		if _, err := cdp.Call(tctx, t.sess, dom.Disable, cdp.Empty{}); err != nil {
			stop()
			return nil, nil, err
		}
		if _, err := cdp.Call(tctx, t.sess, css.Disable, cdp.Empty{}); err != nil {
			stop()
			return nil, nil, err
		}
	}
	switch {
	case strings.Contains(mode, "fetchidle"):
		// As waymark's guard pauses documents since issue 32: on the
		// browser target only, the tab's interception on but pausing
		// nothing.
		if _, err := cdp.Call(tctx, t.sess, fetch.Enable, fetch.EnableParams{Patterns: nonePatterns}); err != nil {
			stop()
			return nil, nil, err
		}
		if err := pauseDocuments(tctx, nil, c.Browser); err != nil {
			stop()
			return nil, nil, err
		}
	case strings.Contains(mode, "fetch0"):
		// Interception on, but nothing paused: what the interception
		// costs by itself, beside the pause.
		if _, err := cdp.Call(tctx, c.Browser, fetch.Enable, fetch.EnableParams{Patterns: nonePatterns}); err != nil {
			stop()
			return nil, nil, err
		}
	case strings.Contains(mode, "fetch"):
		var tabSess, brSess cdp.Session = t.sess, c.Browser
		if strings.Contains(mode, "fetch1") {
			tabSess = nil // the browser-wide pause alone
		}
		if strings.Contains(mode, "fetchtab") {
			brSess = nil // the tab's pause alone
		}
		if err := pauseDocuments(tctx, tabSess, brSess); err != nil {
			stop()
			return nil, nil, err
		}
	}
	if strings.Contains(mode, "attach") {
		// What Playwright does for popups: the browser attaches every new
		// target and holds it until Runtime.runIfWaitingForDebugger. The
		// flow opens no tab, so this measures what holding costs the
		// tab's own navigations.
		if _, err := cdp.Call(tctx, c.Browser, target.SetAutoAttach, target.SetAutoAttachParams{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: new(true)}); err != nil {
			stop()
			return nil, nil, err
		}
	}
	return t, stop, nil
}

// flow runs the steps once on the tab and returns their times.
func flow(t *tab, base string) ([]step, error) {
	tctx, sess := t.ctx, t.sess
	var out []step
	timed := func(name string, f func() error) error {
		start := time.Now()
		if err := f(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, step{name, time.Since(start)})
		return nil
	}
	// A trivial round trip, for scale.
	if err := timed("round trip (Runtime.evaluate 1)", func() error {
		_, err := cdp.Call(tctx, sess, runtime.Evaluate, runtime.EvaluateParams{Expression: "1"})
		return err
	}); err != nil {
		return nil, err
	}
	navigate := func(name, url string) error {
		t.drain()
		return timed(name, func() error {
			if _, err := cdp.Call(tctx, sess, page.Navigate, page.NavigateParams{URL: url}); err != nil {
				return err
			}
			return t.until(isLoad)
		})
	}
	look := func(name string) error {
		return timed(name, func() error {
			_, err := cdp.Call(tctx, sess, domsnapshot.CaptureSnapshot, build.Params())
			return err
		})
	}
	// at finds the centre of the element a JavaScript expression gives
	// (untimed).
	at := func(el string) (x, y float64, err error) {
		expr := fmt.Sprintf(`(() => { const b = (%s).getBoundingClientRect(); return [b.x + b.width/2, b.y + b.height/2]; })()`, el)
		r, err := cdp.Call(tctx, sess, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ReturnByValue: new(true)})
		if err != nil {
			return 0, 0, err
		}
		if r.ExceptionDetails != nil {
			return 0, 0, errors.New(r.ExceptionDetails.Text)
		}
		var xy [2]float64
		if err := json.Unmarshal(r.Result.Value, &xy); err != nil {
			return 0, 0, err
		}
		return xy[0], xy[1], nil
	}
	mouse := func(typ input.DispatchMouseEventType, x, y float64) error {
		p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y}
		if typ != input.DispatchMouseEventTypeMouseMoved {
			p.Button, p.ClickCount = input.MouseButtonLeft, 1
		}
		if typ == input.DispatchMouseEventTypeMousePressed {
			p.Buttons = 1
		}
		_, err := cdp.Call(tctx, sess, input.DispatchMouseEvent, p)
		return err
	}
	click := func(x, y float64) error {
		if err := mouse(input.DispatchMouseEventTypeMousePressed, x, y); err != nil {
			return err
		}
		return mouse(input.DispatchMouseEventTypeMouseReleased, x, y)
	}
	// clickNav clicks a link and waits for the commit, then the load.
	clickNav := func(name, sel string) error {
		x, y, err := at(sel)
		if err != nil {
			return err
		}
		t.drain()
		start := time.Now()
		if err := timed(name+": move", func() error { return mouse(input.DispatchMouseEventTypeMouseMoved, x, y) }); err != nil {
			return err
		}
		pressed := time.Now()
		if err := timed(name+": press+release", func() error { return click(x, y) }); err != nil {
			return err
		}
		if err := t.until(isCommit); err != nil {
			return err
		}
		out = append(out, step{name + ": press → commit", time.Since(pressed)})
		if err := t.until(isLoad); err != nil {
			return err
		}
		out = append(out, step{name + ": press → load", time.Since(pressed)})
		out = append(out, step{name + ": move → load", time.Since(start)})
		return nil
	}
	fill := func(name, sel, value string) error {
		return timed(name, func() error {
			expr := fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.focus(); el.select(); })()`, sel)
			if _, err := cdp.Call(tctx, sess, runtime.Evaluate, runtime.EvaluateParams{Expression: expr}); err != nil {
				return err
			}
			_, err := cdp.Call(tctx, sess, input.InsertText, input.InsertTextParams{Text: value})
			return err
		})
	}

	if err := navigate("open /products (navigate → load)", base+"/products"); err != nil {
		return nil, err
	}
	if err := look("look /products (captureSnapshot)"); err != nil {
		return nil, err
	}
	if err := clickNav("click Trail Mug", `[...document.querySelectorAll('a')].find(a => a.textContent.trim() === 'Trail Mug')`); err != nil {
		return nil, err
	}
	if err := look("look product (captureSnapshot)"); err != nil {
		return nil, err
	}
	if err := fill("fill Quantity (focus+select, insertText)", "#qty", "2"); err != nil {
		return nil, err
	}
	// Add to cart: the press sets the fetch going; its response read to
	// the end, then the page's handler writes the status line.
	x, y, err := at(`document.querySelector('#add-form button')`)
	if err != nil {
		return nil, err
	}
	t.drain()
	pressed := time.Now()
	if err := timed("click Add to cart: press+release", func() error { return click(x, y) }); err != nil {
		return nil, err
	}
	var reqID network.RequestID
	if err := t.until(func(ev any) bool {
		r, ok := ev.(*network.EventResponseReceived)
		if ok && strings.HasSuffix(r.Response.URL, "/api/cart") {
			reqID = r.RequestID
		}
		return ok && reqID != ""
	}); err != nil {
		return nil, err
	}
	out = append(out, step{"click Add to cart: press → response", time.Since(pressed)})
	if err := t.until(func(ev any) bool {
		f, ok := ev.(*network.EventLoadingFinished)
		return ok && f.RequestID == reqID
	}); err != nil {
		return nil, err
	}
	out = append(out, step{"click Add to cart: press → body read", time.Since(pressed)})
	if err := look("look product after add (captureSnapshot)"); err != nil {
		return nil, err
	}
	if err := clickNav("click Checkout", `document.querySelector('header a[href="/checkout"]')`); err != nil {
		return nil, err
	}
	if err := look("look checkout (captureSnapshot)"); err != nil {
		return nil, err
	}
	for _, f := range []struct{ sel, v string }{{"#name", "Ann Example"}, {"#email", "ann@example.com"}, {"#password", "demo-pass-123"}} {
		if err := fill("fill "+f.sel, f.sel, f.v); err != nil {
			return nil, err
		}
	}
	if err := look("look checkout filled (captureSnapshot)"); err != nil {
		return nil, err
	}
	return out, nil
}

// serveFlows runs one flow per line read on stdin and prints its steps, in
// ms, as one JSON line: [{"name": …, "ms": …}, …], or {"error": …}.
func serveFlows(t *tab, base string) {
	type out struct {
		Name string  `json:"name"`
		MS   float64 `json:"ms"`
	}
	in := bufio.NewScanner(os.Stdin)
	enc := json.NewEncoder(os.Stdout)
	fmt.Println("ready")
	for in.Scan() {
		got, err := flow(t, base)
		if err != nil {
			_ = enc.Encode(map[string]string{"error": err.Error()})
			continue
		}
		steps := make([]out, len(got))
		for i, s := range got {
			steps[i] = out{s.name, float64(s.d.Microseconds()) / 1000}
		}
		_ = enc.Encode(steps)
	}
}
