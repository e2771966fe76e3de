package batch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/demo"
	"github.com/waymark-dev/waymark/internal/rpc"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/routine"
)

// browserManager gives the test a session manager over the package's one
// shared browser (sessions.NewShared over drivertest.Driver), a browser
// context per session, closed with its sessions when the test ends. Its
// sessions are named apart from every other test's (each test's worker
// has a name of its own; newRecorder numbers its sessions): a name
// another test's manager holds is refused, never shared.
func browserManager(t testing.TB) *sessions.Manager {
	t.Helper()
	m := sessions.NewShared(drivertest.Driver(t))
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// ownBrowserManager starts a session manager with a Chromium of its own
// (one browser, a context per session), as the daemon's, for a test that
// must not share the package's browser: one that kills it, or measures
// its memory.
func ownBrowserManager(t testing.TB) *sessions.Manager {
	t.Helper()
	m := sessions.New(driver.Options{ExecPath: browsertest.Chrome(t), Args: browsertest.GuardArgs})
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// recorder builds a routine the way the recorder does: each element's
// locator, evidence and fingerprint come from the live page.
type recorder struct {
	t   testing.TB
	ctx context.Context
	s   calls.Remote
	r   *routine.Routine
}

func (rec *recorder) gotoStep(id, url, recordURL string) {
	rec.t.Helper()
	info, err := rec.s.Open(rec.ctx, calls.OpenRequest{URL: recordURL})
	if err != nil {
		rec.t.Fatal(err)
	}
	st := routine.Step{ID: id, Kind: routine.KindGoto, URL: url}
	if url == recordURL { // a URL with a variable lands where the row says
		st.Landed = routine.LandedAt(url, info, nil)
	}
	rec.r.Steps = append(rec.r.Steps, st)
}

func (rec *recorder) act(id, op string, v *routine.Value, actual string, words ...string) {
	rec.t.Helper()
	snap, err := rec.s.Snapshot(rec.ctx, calls.SnapshotRequest{Interactive: true, Full: true})
	if err != nil {
		rec.t.Fatal(err)
	}
	ref := ""
	for _, line := range strings.Split(snap.Text, "\n") {
		all := true
		for _, w := range words {
			all = all && strings.Contains(line, w)
		}
		if i := strings.Index(line, "[ref="); all && i >= 0 {
			rest := line[i+5:]
			ref = rest[:strings.IndexByte(rest, ']')]
			break
		}
	}
	if ref == "" {
		rec.t.Fatalf("no line with a ref holds %q in:\n%s", words, snap.Text)
	}
	ev, err := rec.s.Locate(rec.ctx, calls.LocateRequest{Target: "@" + ref})
	if err != nil {
		rec.t.Fatal(err)
	}
	tg := routine.TargetOf(ev)
	req := calls.ActRequest{Kind: op, Target: tg.Locator}
	switch op {
	case calls.ActFill:
		req.Value = actual
	case calls.ActSelect:
		req.Values = []string{actual}
	}
	if _, err := rec.s.Act(rec.ctx, req); err != nil {
		rec.t.Fatalf("record %s: %v", id, err)
	}
	rec.r.Steps = append(rec.r.Steps, routine.Step{ID: id, Kind: routine.KindAct, Op: op, Target: tg, Value: v})
}

func (rec *recorder) verify(id string, c routine.Check) {
	rec.r.Steps = append(rec.r.Steps, routine.Step{ID: id, Kind: routine.KindVerify, Check: &c})
}

func (rec *recorder) json() json.RawMessage {
	rec.t.Helper()
	b, err := json.Marshal(rec.r)
	if err != nil {
		rec.t.Fatal(err)
	}
	if _, err := routine.Parse(b); err != nil {
		rec.t.Fatalf("recorded routine: %v\n%s", err, b)
	}
	return b
}

// recorders numbers the recorders' sessions, so that two tests recording
// the same routine in the shared browser record in sessions of their own.
var recorders atomic.Int32

func newRecorder(t testing.TB, m calls.Caller, name string, vars ...routine.Variable) *recorder {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	s := calls.Remote{Caller: m, Session: fmt.Sprintf("record-%s-%d", name, recorders.Add(1))}
	t.Cleanup(func() { _ = rpc.Daemon{Caller: m, Session: s.Session}.CloseSession(context.Background()) })
	return &recorder{t: t, ctx: ctx, s: s, r: &routine.Routine{Format: routine.Format, Name: name, Version: 1, Variables: vars}}
}

// recordAddToCart records a five-step routine on the demo shop: open a
// product (%id%), set the quantity, add to cart (a POST: journaled),
// check the page says so, open the cart.
func recordAddToCart(t testing.TB, m calls.Caller, base string) json.RawMessage {
	rec := newRecorder(t, m, "add-to-cart", routine.Variable{Name: "id"}, routine.Variable{Name: "qty"})
	rec.gotoStep("product", base+"/products/%id%", base+"/products/1")
	rec.act("qty", calls.ActFill, &routine.Value{From: "input", Slot: "qty"}, "2", "spinbutton", "Quantity")
	rec.act("add", calls.ActClick, nil, "", "button", "Add to cart")
	rec.verify("added", routine.Check{Text: "to your cart"})
	rec.gotoStep("cart", base+"/cart", base+"/cart")
	return rec.json()
}

// recordCheckout records the demo checkout: a name and email from the
// row, the password a secret, "Place order" a submit.
func recordCheckout(t testing.TB, m calls.Caller, base string) json.RawMessage {
	rec := newRecorder(t, m, "checkout", routine.Variable{Name: "email"}, routine.Variable{Name: "password", Secret: true})
	rec.gotoStep("open", base+"/checkout", base+"/checkout")
	rec.act("name", calls.ActFill, &routine.Value{Literal: "Ann Example"}, "Ann Example", "textbox", "Full name")
	rec.act("email", calls.ActFill, &routine.Value{From: "input", Slot: "email"}, "ann@example.com", "textbox", "Email")
	rec.act("password", calls.ActFill, &routine.Value{From: "secret", Slot: "password"}, "s3cret-pass", "textbox", "Account password")
	rec.act("country", calls.ActSelect, &routine.Value{Literal: "United Kingdom"}, "United Kingdom", "combobox", "Country")
	rec.act("shipping", calls.ActCheck, nil, "", "radio", "Standard")
	rec.act("terms", calls.ActCheck, nil, "", "checkbox", "terms")
	// Not pressed while recording: the tests count orders.
	rec.r.Steps = append(rec.r.Steps, placeOrderStep(rec))
	rec.verify("thanks", routine.Check{Text: "Thank you", URL: "/orders/*"})
	return rec.json()
}

// placeOrderStep records "Place order" without pressing it.
func placeOrderStep(rec *recorder) routine.Step {
	rec.t.Helper()
	snap, err := rec.s.Snapshot(rec.ctx, calls.SnapshotRequest{Interactive: true, Full: true})
	if err != nil {
		rec.t.Fatal(err)
	}
	for _, line := range strings.Split(snap.Text, "\n") {
		if i := strings.Index(line, "[ref="); i >= 0 && strings.Contains(line, "button") && strings.Contains(line, "Place order") {
			rest := line[i+5:]
			ev, err := rec.s.Locate(rec.ctx, calls.LocateRequest{Target: "@" + rest[:strings.IndexByte(rest, ']')]})
			if err != nil {
				rec.t.Fatal(err)
			}
			return routine.Step{ID: "place", Kind: routine.KindAct, Op: calls.ActClick, Target: routine.TargetOf(ev)}
		}
	}
	rec.t.Fatalf("no Place order in:\n%s", snap.Text)
	return routine.Step{}
}

func demoSite(t testing.TB) (*demo.Site, string) {
	site := demo.New(nil)
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	return site, srv.URL
}

// TestDemoShopRows: 32 rows of a five-step routine on the demo shop, four
// at a time in one browser (8 rounds; a third of the products asked for
// twice, in rows of their own keys): every row's result exactly once,
// every cart filled once. WAYMARK_BATCH_ROWS sets another number (200
// took 3.5 minutes of the suite's 2 cores; 60, each product two or three
// times, took 77 s of CPU, about twice 32's, for nothing 32 does not
// show: the rows overlap four at a time either way).
func TestDemoShopRows(t *testing.T) {
	t.Parallel()
	rows := 32
	if testing.Short() {
		rows = 24
	}
	if n, err := strconv.Atoi(os.Getenv("WAYMARK_BATCH_ROWS")); err == nil && n > 0 {
		rows = n
	}
	e, _, _ := testEngine(t, EngineOptions{})
	m := browserManager(t)
	site, base := demoSite(t)
	rt := recordAddToCart(t, m, base)
	before := len(site.Sessions())
	ctx := context.Background()
	spec, err := e.Submit(ctx, Spec{Routine: rt, Submits: "allow", Key: "n"}, rowsOf(rows, func(i int, f map[string]json.RawMessage) {
		f["n"] = json.RawMessage(fmt.Sprint(i + 1))
		f["id"] = json.RawMessage(fmt.Sprintf(`"%d"`, i%24+1))
		f["qty"] = json.RawMessage(fmt.Sprintf(`"%d"`, i%3+1))
	}))
	if err != nil {
		t.Fatal(err)
	}
	w := WorkerOptions{Parallel: 4}
	startWorker(t, e, "demo", []Endpoint{{Name: "local", Caller: m, Max: 4}}, w)
	st := waitDone(t, e, spec.ID, 10*time.Minute)
	res, err := e.Results(ctx, spec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.OK != rows || len(res) != rows {
		for _, r := range res {
			if r.Status != StatusOK {
				t.Errorf("row %d: %s %s: %s", r.N, r.Status, r.Cause, r.Message)
			}
		}
		t.Fatalf("status = %+v", st)
	}
	// Each row filled one cart, in a session of its own (cookies are
	// cleared between rows): rows sessions with one cart line each.
	carts := 0
	for _, sid := range site.Sessions()[before:] {
		s := site.Session(sid)
		if len(s.Cart) > 0 {
			carts++
			if len(s.Cart) != 1 {
				t.Errorf("session %s cart = %+v", sid, s.Cart)
			}
		}
	}
	if carts != rows {
		t.Errorf("%d carts filled, want %d", carts, rows)
	}
	t.Logf("%d rows in %s (%.0f rows/min)", rows, time.Since(spec.Created).Round(time.Millisecond), st.RatePerMin)
}

// TestMain runs the worker process when asked to (workerEnv), else the
// tests: the three long browser batches (demo rows, the pool over CDP,
// the killed worker on a cluster) side by side, each with its own engine
// and shop and its sessions in the package's one shared browser
// (browserManager), as they mostly wait on their rows (five at once, with
// a form row and rows that sign in again, ran past the recorder's 60 s on
// a loaded machine). TestBrowserCrashMidBatch is not parallel: it kills
// the Chromium child of this process that its own manager started (the
// one not running before it), so it runs before the parallel tests start
// theirs. The shared browser ends after the tests.
func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) != "" {
		os.Exit(workerMain())
	}
	browsertest.Parallel(4)
	code := m.Run()
	drivertest.CloseDriver()
	os.Exit(code)
}

// TestBrowserCrashMidBatch: the browser is killed in the middle of a
// batch; the next call starts a new one, the rows it cut are run again
// (or, if they had pressed, come back uncertain), and the batch ends.
func TestBrowserCrashMidBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a browser")
	}
	e, _, _ := testEngine(t, EngineOptions{})
	// A browser of its own, which it kills: the shared one (running, if
	// an earlier test started it) is among the browsers before.
	others := browserChildren()
	m := ownBrowserManager(t)
	site, base := demoSite(t)
	rt := recordAddToCart(t, m, base)
	before := len(site.Sessions())
	const rows = 16
	spec, err := e.Submit(context.Background(), Spec{Routine: rt, Submits: "allow", Retries: 2}, rowsOf(rows, func(i int, f map[string]json.RawMessage) {
		f["id"] = json.RawMessage(fmt.Sprintf(`"%d"`, i%24+1))
		f["qty"] = json.RawMessage(`"1"`)
	}))
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, e, "local", []Endpoint{{Name: "local", Caller: m, Max: 2}}, WorkerOptions{Parallel: 2})
	for {
		st, err := e.Status(context.Background(), spec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if st.Done >= 4 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	killed := killBrowser(t, others)
	st := waitDone(t, e, spec.ID, 3*time.Minute)
	res, _ := e.Results(context.Background(), spec.ID)
	retried := 0
	for _, r := range res {
		if r.Attempts > 1 {
			retried++
		}
		if r.Status != StatusOK && r.Status != StatusUncertain {
			t.Errorf("row %d: %s %s: %s", r.N, r.Status, r.Cause, r.Message)
		}
	}
	if st.Done != rows {
		t.Fatalf("status %+v", st)
	}
	units := 0
	for _, sid := range site.Sessions()[before:] {
		for _, it := range site.Session(sid).Cart {
			units += it.Qty
		}
	}
	if units < st.OK || units > rows {
		t.Errorf("%d units for %d ok rows", units, st.OK)
	}
	t.Logf("killed browser pid %d; %d ok, %d uncertain, %d rows retried", killed, st.OK, st.Uncertain, retried)
}

// browserChildren returns the browsers' main processes among this
// process's children: the children whose command is a browser.
func browserChildren() map[int]bool {
	me := strconv.Itoa(os.Getpid())
	out := map[int]bool{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 2 || f[1] != me {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join(d, "cmdline"))
		if !strings.Contains(string(cmd), "chrom") {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		out[pid] = true
	}
	return out
}

// killBrowser kills this test's Chromium: the browser child of this
// process that is not among others (the ones running before the test
// started its own).
func killBrowser(t *testing.T, others map[int]bool) int {
	t.Helper()
	for pid := range browserChildren() {
		if others[pid] {
			continue
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		return pid
	}
	t.Fatal("no browser process of this test's found")
	return 0
}

// TestPoolOverCDP: rows run in the local browser and in one reached over
// its DevTools port ([pool] endpoints), each within its maximum.
func TestPoolOverCDP(t *testing.T) {
	t.Parallel()
	// The remote browser is one of the test's own: one reached at a
	// DevTools port (the shared browser is driven over a pipe and has
	// none), which the test starts as a person would. Its local endpoint
	// is the shared browser.
	path := browsertest.Chrome(t)
	dir, err := os.MkdirTemp("", "wm-pool")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--remote-debugging-port=0", "--user-data-dir=" + dir}, browsertest.GuardArgs...)
	cmd := exec.CommandContext(ctx, path, append(args, "about:blank")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the browser and its helpers
		_ = cmd.Wait()
		for i := 0; i < 20 && os.RemoveAll(dir) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	}()
	var port string
	for port == "" {
		if b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort")); err == nil {
			port = strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
		}
		select {
		case <-ctx.Done():
			t.Fatal("the browser wrote no DevToolsActivePort")
		case <-time.After(50 * time.Millisecond):
		}
	}
	remote := sessions.New(driver.Options{CDP: port})
	defer remote.Close()

	e, _, _ := testEngine(t, EngineOptions{})
	local := browserManager(t)
	_, base := demoSite(t)
	rt := recordAddToCart(t, local, base)
	const rows = 12
	spec, err := e.Submit(ctx, Spec{Routine: rt, Submits: "allow"}, rowsOf(rows, func(i int, f map[string]json.RawMessage) {
		f["id"] = json.RawMessage(fmt.Sprintf(`"%d"`, i%24+1))
		f["qty"] = json.RawMessage(`"1"`)
	}))
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, e, "pool", []Endpoint{{Name: "local", Caller: local, Max: 1}, {Name: "cdp:" + port, Caller: remote, Max: 2}}, WorkerOptions{Parallel: 3})
	st := waitDone(t, e, spec.ID, 3*time.Minute)
	res, _ := e.Results(ctx, spec.ID)
	by := map[string]int{}
	for _, r := range res {
		by[r.Browser]++
	}
	if st.OK != rows || by["local"] == 0 || by["cdp:"+port] == 0 {
		t.Fatalf("status %+v, rows by browser %v", st, by)
	}
	t.Logf("rows by browser: %v", by)
}
