package driver_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// timed runs f with its own deadline and returns its error and how long it
// took.
func timed(ctx context.Context, d time.Duration, f func(ctx context.Context) error) (time.Duration, error) {
	c, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	start := time.Now()
	err := f(c)
	return time.Since(start), err
}

func snap(s *driver.Session) func(context.Context) error {
	return func(ctx context.Context) error { _, err := s.Snapshot(ctx, calls.SnapshotRequest{}); return err }
}

func click(s *driver.Session, target string) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: target})
		return err
	}
}

func TestCrashedTabAnswersAtOnce(t *testing.T) {
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<title>A</title><button>Go</button>`})
	open(t, s, ctx, srv.URL+"/")
	if err := driver.CrashTab(ctx, s); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(context.Context) error{
		"snapshot": snap(s), "click": click(s, "text=Go"),
		"get": func(ctx context.Context) error {
			_, err := s.Get(ctx, calls.GetRequest{What: "title"})
			return err
		},
	} {
		took, err := timed(ctx, 20*time.Second, f)
		if !errors.Is(err, calls.ErrPageCrashed) || took > 2*time.Second {
			t.Errorf("%s after a crash: %v (%s), want page_crashed at once", name, err, took)
		}
		if h := calls.Hint(err); err != nil && h == "" {
			t.Errorf("%s: no hint", name)
		}
	}
	// The way on: reload.
	if _, err := s.Reload(ctx); err != nil {
		t.Fatalf("reload after a crash: %v", err)
	}
	if _, err := timed(ctx, 10*time.Second, snap(s)); err != nil {
		t.Fatalf("snapshot after reload: %v", err)
	}
}

func TestCrashDuringCallEndsIt(t *testing.T) {
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<title>A</title>`})
	open(t, s, ctx, srv.URL+"/")
	errc := make(chan error, 1)
	go func() {
		_, err := s.Wait(ctx, calls.WaitRequest{Text: "never on this page", TimeoutMS: 30000})
		errc <- err
	}()
	time.Sleep(300 * time.Millisecond) // let the wait begin; it would run 30 s
	if err := driver.CrashTab(ctx, s); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, calls.ErrPageCrashed) {
			t.Fatalf("wait across a crash: %v, want page_crashed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("wait still runs 5 s after its page crashed")
	}
}

// stuckPages spin their main thread when the button is pressed.
var stuckPages = map[string]string{
	"/":  `<title>Spin</title><button onclick="for(;;){}">Spin</button>`,
	"/b": `<title>Other</title><p>fine</p>`,
}

// stuckProbe gives a test of stuck pages a probe timeout of
// stuckProbeTimeout (TestMain widens it for the package's busy pages). Call
// it first: these tests are not parallel, so no other call reads it
// meanwhile, and its restore runs after the sessions closed.
func stuckProbe(t *testing.T) {
	t.Helper()
	t.Cleanup(driver.SetProbeTimeout(stuckProbeTimeout))
}

// stuckProbeTimeout is short enough that a stuck page is told in a few
// seconds (each of these tests waits it out several times; the product's
// 8 s made them 20 s each) and long enough for a page that is well to
// answer "0" on a loaded machine.
const stuckProbeTimeout = 4 * time.Second

func TestStuckPageIsReported(t *testing.T) {
	stuckProbe(t)
	s, ctx := newSession(t)
	srv := serve(t, stuckPages)
	open(t, s, ctx, srv.URL+"/")
	took, err := timed(ctx, 60*time.Second, click(s, "text=Spin"))
	if !errors.Is(err, calls.ErrPageUnresponsive) || took > 20*time.Second {
		t.Fatalf("click that spins the page: %v after %s, want page_unresponsive within seconds", err, took)
	}
	took, err = timed(ctx, 60*time.Second, snap(s))
	if !errors.Is(err, calls.ErrPageUnresponsive) || took > 20*time.Second {
		t.Fatalf("snapshot of a stuck page: %v after %s, want page_unresponsive within seconds", err, took)
	}
	// The way on: another URL in the same tab.
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/b"}); err != nil {
		t.Fatalf("open after a stuck page: %v", err)
	}
	if out := snapshot(t, s, ctx, calls.SnapshotRequest{}); !strings.Contains(out, "fine") {
		t.Fatalf("snapshot after open:\n%s", out)
	}
}

func TestStuckTabCanBeReloadedOrClosed(t *testing.T) {
	stuckProbe(t)
	s, ctx := newSession(t)
	srv := serve(t, stuckPages)
	open(t, s, ctx, srv.URL+"/")
	// A page stuck while no call ran: the first call finds it.
	if _, err := s.Eval(ctx, calls.EvalRequest{Expression: "setTimeout(() => { for(;;){} }, 0)", MainWorld: true}); err != nil {
		t.Fatal(err)
	}
	// A read whose answer comes from the browser asks the renderer beside
	// it (health.go readPage) and fails all the same, once past the
	// freshness of the eval's answer, which stands for a probe.
	time.Sleep(20 * time.Millisecond)
	if took, err := timed(ctx, 30*time.Second, func(ctx context.Context) error {
		_, err := s.Get(ctx, calls.GetRequest{What: "url"})
		return err
	}); !errors.Is(err, calls.ErrPageUnresponsive) || took > 20*time.Second {
		t.Fatalf("get url of a stuck page: %v after %s, want page_unresponsive", err, took)
	}
	if took, err := timed(ctx, 30*time.Second, func(ctx context.Context) error { _, err := s.Reload(ctx); return err }); err != nil || took > 20*time.Second {
		t.Fatalf("reload of a stuck page: %v after %s", err, took)
	}
	if _, err := timed(ctx, 10*time.Second, snap(s)); err != nil {
		t.Fatalf("snapshot after reload: %v", err)
	}
	// Stuck again, in a second tab; close it and carry on in the first.
	if _, err := s.Tab(ctx, calls.TabRequest{Op: "new", URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	_, _ = timed(ctx, 30*time.Second, click(s, "text=Spin"))
	took, err := timed(ctx, 30*time.Second, func(ctx context.Context) error {
		_, err := s.Tab(ctx, calls.TabRequest{Op: "close", Index: -1})
		return err
	})
	if err != nil || took > 20*time.Second {
		t.Fatalf("tab close of a stuck tab: %v after %s", err, took)
	}
	if _, err := timed(ctx, 10*time.Second, snap(s)); err != nil {
		t.Fatalf("snapshot of the tab left: %v", err)
	}
}

// alertLoop cannot be answered away: each answer opens the next.
var alertLoop = map[string]string{
	"/":  `<title>Alerts</title><button onclick="for(;;) alert('again')">Go</button>`,
	"/b": `<title>Other</title><p>fine</p>`,
}

func TestAlertLoopCanBeLeft(t *testing.T) {
	s, ctx := newSession(t)
	srv := serve(t, alertLoop)
	open(t, s, ctx, srv.URL+"/")
	out, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Go"})
	if err != nil || out.Dialog == nil {
		t.Fatalf("click: %+v, %v; want the dialog reported", out, err)
	}
	for i := 0; i < 3; i++ {
		out, took, err := answer(ctx, s)
		if err != nil || took > 5*time.Second {
			t.Fatalf("answer %d: %v after %s", i, err, took)
		}
		if out.Dialog == nil {
			t.Fatalf("answer %d: the next alert is not reported: %+v", i, out)
		}
	}
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/b"}); err != nil {
		t.Fatalf("open away from an alert loop: %v", err)
	}
	if out := snapshot(t, s, ctx, calls.SnapshotRequest{}); !strings.Contains(out, "fine") {
		t.Fatalf("snapshot after open:\n%s", out)
	}
}

func answer(ctx context.Context, s *driver.Session) (*calls.Outcome, time.Duration, error) {
	c, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	start := time.Now()
	out, err := s.Dialog(c, calls.DialogRequest{Accept: true})
	return out, time.Since(start), err
}

// TestStuckSessionsLeaveOthersAlone: a session whose page loops on alerts,
// or spins, is left half way through and closed; another session of the
// same browser keeps working throughout.
func TestStuckSessionsLeaveOthersAlone(t *testing.T) {
	stuckProbe(t)
	b := drivertest.Driver(t)
	srv := serve(t, map[string]string{
		"/":     alertLoop["/"],
		"/b":    alertLoop["/b"],
		"/spin": stuckPages["/"],
	})
	other, octx := drivertest.Session(t, t.Name()+"-other", 120*time.Second)
	open(t, other, octx, srv.URL+"/b")
	for _, tc := range []struct{ name, path, button string }{
		{"alerts", "/", "text=Go"},
		{"spin", "/spin", "text=Spin"},
	} {
		name := t.Name() + "-" + tc.name
		s, ctx := drivertest.Session(t, name, 60*time.Second)
		open(t, s, ctx, srv.URL+tc.path)
		_, _ = timed(ctx, 30*time.Second, click(s, tc.button))
		// A navigation given up half way, as a client that hangs up does.
		_, _ = timed(ctx, 200*time.Millisecond, func(ctx context.Context) error {
			_, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/b"})
			return err
		})
		// Dialogs of one session never reach another.
		if out, err := other.Act(octx, calls.ActRequest{Kind: calls.ActPress, Key: "Tab"}); err != nil || out.Dialog != nil {
			t.Fatalf("%s: the other session's action: %+v, %v", tc.name, out, err)
		}
		if err := b.CloseSession(name); err != nil {
			t.Logf("%s: close: %v", tc.name, err)
		}
		if !b.Alive() {
			t.Fatalf("closing the %s session ended the browser", tc.name)
		}
		if _, err := timed(octx, 10*time.Second, snap(other)); err != nil {
			t.Fatalf("%s: the other session after the close: %v", tc.name, err)
		}
	}
}

// TestBrowserDeathMidCallIsBrowserGone: Chromium killed while a call runs
// ends the call as browser_gone (exit 3), not as canceled (exit 130). And
// a ref of the look before, resolved for an act after the death, is
// browser_gone too: its node cannot be reached because the connection
// went, which is no word on the node, so a batch row is retried, not
// failed as stale_ref (a flake of batch's TestBrowserCrashMidBatch).
func TestBrowserDeathMidCallIsBrowserGone(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := driver.Launch(ctx, driver.Options{ExecPath: path, Args: browsertest.GuardArgs})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s, err := b.Session(ctx, "dies")
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, map[string]string{"/": `<title>A</title><button>Go</button>`})
	open(t, s, ctx, srv.URL+"/")
	ref := refOf(t, snapshot(t, s, ctx, calls.SnapshotRequest{}), "button", "Go")
	errc := make(chan error, 1)
	go func() {
		_, err := s.Wait(ctx, calls.WaitRequest{Text: "never on this page", TimeoutMS: 30000})
		errc <- err
	}()
	time.Sleep(300 * time.Millisecond)
	if err := syscall.Kill(b.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, calls.ErrBrowserGone) || errors.Is(err, context.Canceled) {
			t.Fatalf("wait across the browser's death: %v (code %s), want browser_gone", err, calls.Code(err))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("wait still runs 10 s after the browser died")
	}
	<-b.Gone()
	if err := driver.ResolveRef(ctx, s, ref); !errors.Is(err, calls.ErrBrowserGone) {
		t.Fatalf("resolving %s after the browser died: %v (code %s), want browser_gone", ref, err, calls.Code(err))
	}
}

// TestReadsEndWhileADialogIsOpen: an open dialog holds the page's main
// thread, so a read of the page (a text, an evaluation, a wait) never got
// an answer: it ran until its caller gave up, and then held on in its
// cleanup (the release of what it read, with no deadline), so the daemon's
// lane for the session stayed taken for good (an eval or a screenshot
// the same). Each ends within seconds,
// saying a dialog is open, and the session answers the dialog and goes on.
func TestReadsEndWhileADialogIsOpen(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<title>Al</title><p>alert page</p><button onclick="alert('hi')">Go</button>`,
		"/stay": `<title>Stay</title><script>addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = 'stay' })</script><button onclick="document.title = 'armed'">Arm</button>`,
		"/next": `<title>Next</title><p>next page</p>`})
	open(t, s, ctx, srv.URL+"/")
	if out, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Go"}); err != nil || out.Dialog == nil {
		t.Fatalf("click: %+v, %v; want the dialog reported", out, err)
	}
	for name, read := range map[string]func(context.Context) error{
		"get text": func(ctx context.Context) error {
			_, err := s.Get(ctx, calls.GetRequest{What: "text", Target: "css=p"})
			return err
		},
		"wait": func(ctx context.Context) error {
			_, err := s.Wait(ctx, calls.WaitRequest{Text: "never"})
			return err
		},
	} {
		done := make(chan error, 1)
		c, cancel := context.WithTimeout(ctx, 20*time.Second)
		start := time.Now()
		go func() { done <- read(c) }()
		select {
		case err := <-done:
			if !errors.Is(err, calls.ErrNotInteractable) || !strings.Contains(err.Error(), "dialog") || time.Since(start) > 15*time.Second {
				t.Errorf("%s with a dialog open: %v (code %s) after %s, want one that says a dialog is open", name, err, calls.Code(err), time.Since(start))
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s with a dialog open has not returned 10 s after its deadline", name)
		}
		cancel()
	}
	if _, _, err := answer(ctx, s); err != nil {
		t.Fatalf("answer: %v", err)
	}
	if text := snapshot(t, s, ctx, calls.SnapshotRequest{}); !strings.Contains(text, "alert page") {
		t.Fatalf("after the answer: %s", text)
	}

	// Leaving a page that asks whether to leave (beforeunload, armed by
	// the click) says so, rather than "did not finish loading" after
	// 30 s; accepting it leaves.
	open(t, s, ctx, srv.URL+"/stay")
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Arm"})
	start := time.Now()
	_, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/next"})
	if !errors.Is(err, calls.ErrNotInteractable) || !strings.Contains(err.Error(), "beforeunload") || time.Since(start) > 15*time.Second {
		t.Fatalf("leaving a page that asks first: %v (code %s) after %s, want one that names the beforeunload dialog", err, calls.Code(err), time.Since(start))
	}
	if _, _, err := answer(ctx, s); err != nil {
		t.Fatalf("accept the beforeunload: %v", err)
	}
	if text := snapshot(t, s, ctx, calls.SnapshotRequest{}); !strings.Contains(text, "next page") {
		t.Fatalf("after accepting to leave: %s", text)
	}
}

// TestAcceptingToLeaveWaitsForTheNextPage: accepting a beforeunload
// question lets the navigation it held go on, so the answer's settle
// waits for that page as an action's would. Its server answering late
// (as a loaded machine makes any server) left the answer, and the look
// after it, on the page being left.
func TestAcceptingToLeaveWaitsForTheNextPage(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	var served atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/stay":
			io.WriteString(w, `<title>Stay</title><script>addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = 'stay' })</script><button onclick="document.title = 'armed'">Arm</button>`)
		case "/next":
			served.Add(1)
			time.Sleep(700 * time.Millisecond) // a server that takes its time
			io.WriteString(w, `<title>Next</title><p>next page</p>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	open(t, s, ctx, srv.URL+"/stay")
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Arm"})
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/next"}); !errors.Is(err, calls.ErrNotInteractable) {
		t.Fatalf("leaving a page that asks first: %v, want not_interactable", err)
	}
	if _, _, err := answer(ctx, s); err != nil {
		t.Fatalf("accept the beforeunload: %v", err)
	}
	if text := snapshot(t, s, ctx, calls.SnapshotRequest{}); !strings.Contains(text, "next page") || served.Load() != 1 {
		t.Fatalf("after accepting to leave (%d requests for /next): %s", served.Load(), text)
	}
}
