package adversarial

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// The daemon and the browser, attacked: pages that spin their main thread,
// loop on dialogs, or take the browser down; each must end every call
// within seconds with a category that says what happened, leave the
// session usable (another URL, a reload, a tab close), and never touch
// another session. (A renderer crash needs Page.crash from inside the
// driver: those cases are driver/health_test.go.)

// daemonBrowser starts a browser for one test and its subtests, closed
// when the test ends: the cases here leave renderers in any state, or kill
// the browser, so they do not share the package's browser with the other
// files' cases.
func daemonBrowser(t *testing.T) *driver.Browser {
	t.Helper()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := driver.Launch(ctx, driver.Options{ExecPath: path, Args: browsertest.GuardArgs})
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// daemonSession gives the test a session of b, closed when the test ends.
func daemonSession(t *testing.T, b *driver.Browser, name string) (*driver.Session, context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	t.Cleanup(cancel)
	s, err := b.Session(ctx, name)
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	t.Cleanup(func() { b.CloseSession(name) })
	return s, ctx
}

// bounded runs f with its own deadline (far over what it may take) and
// returns its error and how long it took.
func bounded(ctx context.Context, f func(ctx context.Context) error) (time.Duration, error) {
	c, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	start := time.Now()
	err := f(c)
	return time.Since(start), err
}

func snapshotOf(s *driver.Session) func(context.Context) error {
	return func(ctx context.Context) error { _, err := s.Snapshot(ctx, calls.SnapshotRequest{}); return err }
}

func clickOn(s *driver.Session, target string) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: target})
		return err
	}
}

// usable checks the session can go on: another URL opens and reads.
func usable(t *testing.T, s *driver.Session, ctx context.Context, url string) {
	t.Helper()
	took, err := bounded(ctx, func(ctx context.Context) error {
		if _, err := s.Open(ctx, calls.OpenRequest{URL: url}); err != nil {
			return err
		}
		snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
		if err == nil && !strings.Contains(snap.Text, "still here") {
			err = errors.New("the page read: " + snap.Text)
		}
		return err
	})
	if err != nil || took > 20*time.Second {
		t.Fatalf("the session is not usable after: %v (%s)", err, took)
	}
}

const okPage = `<title>OK</title><p>still here</p>`

// stuckCases spin a page's main thread in the ways a page can; each then
// has a call made on it that must end as page_unresponsive within bound.
var stuckCases = []struct {
	name  string
	page  string
	start func(s *driver.Session) func(context.Context) error // what sets it spinning; its error is checked only when check is set
	check bool
	then  func(s *driver.Session) func(context.Context) error
	bound time.Duration
}{
	{name: "click on a button that spins (issue 12)",
		page:  `<title>Spin</title><button onclick="for(;;){}">Spin</button>`,
		start: func(s *driver.Session) func(context.Context) error { return clickOn(s, "text=Spin") }, check: true,
		then: snapshotOf, bound: 20 * time.Second},
	{name: "a timer spins while no call runs",
		page: `<title>Timer</title><p>x</p><script>setTimeout(() => { for(;;){} }, 300)</script>`,
		start: func(s *driver.Session) func(context.Context) error {
			return func(ctx context.Context) error { time.Sleep(time.Second); return nil }
		},
		then: snapshotOf, bound: 15 * time.Second},
	{name: "microtasks starve the thread",
		page:  `<title>Micro</title><button onclick="(function f(){ Promise.resolve().then(f) })()">Starve</button>`,
		start: func(s *driver.Session) func(context.Context) error { return clickOn(s, "text=Starve") }, check: true,
		then: snapshotOf, bound: 20 * time.Second},
	{name: "act on a page that spins after the look",
		page:  `<title>Late</title><button onclick="setTimeout(() => { for(;;){} }, 0)">Later</button><button>Other</button>`,
		start: func(s *driver.Session) func(context.Context) error { return clickOn(s, "text=Later") },
		then:  func(s *driver.Session) func(context.Context) error { return clickOn(s, "text=Other") }, bound: 20 * time.Second},
	{name: "eval of a script that never ends",
		page: `<title>Eval</title><p>x</p>`,
		start: func(s *driver.Session) func(context.Context) error {
			return func(ctx context.Context) error {
				_, err := s.Eval(ctx, calls.EvalRequest{Expression: "for(;;){}", MainWorld: true})
				return err
			}
		}, check: true,
		then: snapshotOf, bound: 20 * time.Second},
	{name: "wait on a page that spins",
		page:  `<title>Wait</title><button onclick="setTimeout(() => { for(;;){} }, 500)">Soon</button>`,
		start: func(s *driver.Session) func(context.Context) error { return clickOn(s, "text=Soon") },
		then: func(s *driver.Session) func(context.Context) error {
			return func(ctx context.Context) error {
				_, err := s.Wait(ctx, calls.WaitRequest{Text: "never", TimeoutMS: 50000})
				return err
			}
		}, bound: 20 * time.Second},
}

func TestStuckPageEndsTheCall(t *testing.T) {
	t.Parallel()
	b := daemonBrowser(t)
	// The cases wait out the product's own probe timings (seconds each),
	// so they run side by side, each in a session of its own: a stuck page
	// must not hold up another session's calls either.
	for i, tc := range stuckCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := NewServer(t, map[string]string{"/": tc.page, "/ok": okPage})
			s, ctx := daemonSession(t, b, fmt.Sprintf("stuck-%d", i))
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
				t.Fatal(err)
			}
			took, err := bounded(ctx, tc.start(s))
			if tc.check && (!errors.Is(err, calls.ErrPageUnresponsive) || took > tc.bound) {
				t.Fatalf("the call that set it spinning: %v after %s, want page_unresponsive within %s", err, took, tc.bound)
			}
			took, err = bounded(ctx, tc.then(s))
			if !errors.Is(err, calls.ErrPageUnresponsive) || took > tc.bound {
				t.Fatalf("the next call: %v after %s, want page_unresponsive within %s", err, took, tc.bound)
			}
			if calls.Hint(err) == "" {
				t.Error("no hint says what to do")
			}
			usable(t, s, ctx, srv.URL("/ok"))
		})
	}
}

// dialogCases open dialogs the agent cannot answer away.
var dialogCases = []struct{ name, page string }{
	{"alert loop (issue 12)", `<button onclick="for(;;) alert('again')">Go</button>`},
	{"confirm loop", `<button onclick="while(true) confirm('sure?')">Go</button>`},
	{"prompt loop", `<button onclick="for(;;) prompt('name?')">Go</button>`},
	{"alert reopened from its own close", `<button onclick="(function f(){ alert('x'); setTimeout(f, 0) })()">Go</button>`},
	{"alert loop in a cross-site frame", `<iframe style="width:300px;height:80px" src="{{other}}/frame"></iframe>`},
}

// TestDialogLoopsCanBeLeft: each loop is left by opening another URL, and
// the session closed after; another session of the same browser works
// throughout and never sees the dialogs; the browser lives on.
func TestDialogLoopsCanBeLeft(t *testing.T) {
	t.Parallel()
	b := daemonBrowser(t)
	for _, tc := range dialogCases {
		t.Run(tc.name, func(t *testing.T) {
			srv := NewServer(t, map[string]string{"/ok": okPage,
				"/frame": `<button onclick="for(;;) alert('frame')">Go</button>`})
			_, port, _ := net.SplitHostPort(srv.Host())
			srv.Handle("/", "<title>Dialogs</title>"+strings.ReplaceAll(tc.page, "{{other}}", "http://localhost:"+port))
			other, octx := daemonSession(t, b, "bystander")
			if _, err := other.Open(octx, calls.OpenRequest{URL: srv.URL("/ok")}); err != nil {
				t.Fatal(err)
			}
			s, ctx := daemonSession(t, b, "dialogs")
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
				t.Fatal(err)
			}
			if took, err := bounded(ctx, clickOn(s, "text=Go")); err != nil || took > 15*time.Second {
				t.Fatalf("click: %v after %s", err, took)
			}
			// The bystander acts and reads with the dialogs open next door.
			if out, err := other.Act(octx, calls.ActRequest{Kind: calls.ActPress, Key: "Tab"}); err != nil || out.Dialog != nil {
				t.Fatalf("the other session: %+v, %v", out, err)
			}
			usable(t, s, ctx, srv.URL("/ok"))
			// Again, and this time the session is closed with the loop on.
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
				t.Fatal(err)
			}
			_, _ = bounded(ctx, clickOn(s, "text=Go"))
			_, _ = bounded(ctx, func(ctx context.Context) error { // a navigation given up half way
				c, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
				defer cancel()
				_, err := s.Open(c, calls.OpenRequest{URL: srv.URL("/ok")})
				return err
			})
			_ = b.CloseSession("dialogs")
			if !b.Alive() {
				t.Fatal("closing the session ended the browser")
			}
			if _, err := bounded(octx, snapshotOf(other)); err != nil {
				t.Fatalf("the other session after the close: %v", err)
			}
		})
	}
}

// TestBrowserDeathIsBrowserGone: the browser killed under calls of every
// kind ends them as browser_gone (exit 3), never as canceled (exit 130).
func TestBrowserDeathIsBrowserGone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		call func(s *driver.Session) func(context.Context) error
	}{
		{"wait", func(s *driver.Session) func(context.Context) error {
			return func(ctx context.Context) error {
				_, err := s.Wait(ctx, calls.WaitRequest{Text: "never", TimeoutMS: 30000})
				return err
			}
		}},
		{"click that waits for a slow page", func(s *driver.Session) func(context.Context) error { return clickOn(s, "text=Slow") }},
		{"snapshot of a spinning page", func(s *driver.Session) func(context.Context) error {
			return func(ctx context.Context) error {
				_, _ = s.Eval(ctx, calls.EvalRequest{Expression: "setTimeout(() => { for(;;){} }, 0)", MainWorld: true})
				_, err := s.Snapshot(ctx, calls.SnapshotRequest{})
				return err
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// /slow answers only when the test ends: the click's settle
			// waits on it. asked closes when the click's navigation asked
			// for it: the browser is killed then, and not while the click
			// still looks for its link (after a fixed 400 ms, a loaded
			// machine killed it there, and the call said stale_ref).
			hang, asked := make(chan struct{}), make(chan struct{})
			var once sync.Once
			slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				once.Do(func() { close(asked) })
				<-hang
			}))
			defer slow.Close()
			defer close(hang)
			srv := NewServer(t, map[string]string{"/": `<title>A</title><a href="` + slow.URL + `/slow">Slow</a>`})
			b := daemonBrowser(t)
			s, ctx := daemonSession(t, b, "dies")
			if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
				t.Fatal(err)
			}
			errc := make(chan error, 1)
			go func() { _, err := bounded(ctx, tc.call(s)); errc <- err }()
			if tc.name == "click that waits for a slow page" {
				select {
				case <-asked:
				case err := <-errc:
					t.Fatalf("the click ended before its page was asked for: %v", err)
				case <-time.After(15 * time.Second):
					t.Fatal("the click never asked for its page")
				}
			} else {
				time.Sleep(400 * time.Millisecond)
			}
			if err := syscall.Kill(b.PID(), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-errc:
				if !errors.Is(err, calls.ErrBrowserGone) && !errors.Is(err, calls.ErrPageUnresponsive) || errors.Is(err, context.Canceled) {
					t.Fatalf("%v (code %s), want browser_gone", err, calls.Code(err))
				}
			case <-time.After(15 * time.Second):
				t.Fatal("the call still runs 15 s after the browser died")
			}
		})
	}
}

// TestDialogLoopWaysOut: the other ways on that the errors name — a
// reload, and closing the tab — leave a dialog loop of the page and of a
// cross-site frame too.
func TestDialogLoopWaysOut(t *testing.T) {
	t.Parallel()
	b := daemonBrowser(t)
	for _, place := range []string{"page", "frame"} {
		for _, way := range []string{"reload", "tab close"} {
			t.Run(place+"/"+way, func(t *testing.T) {
				srv := NewServer(t, map[string]string{"/ok": okPage,
					"/frame": `<button onclick="for(;;) alert('frame')">Go</button>`})
				_, port, _ := net.SplitHostPort(srv.Host())
				page := `<p>still here</p><button onclick="for(;;) alert('page')">Go</button>`
				if place == "frame" {
					page = `<p>still here</p><iframe style="width:300px;height:80px" src="http://localhost:` + port + `/frame"></iframe>`
				}
				srv.Handle("/", "<title>Loop</title>"+page)
				s, ctx := daemonSession(t, b, "ways")
				if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
					t.Fatal(err)
				}
				if _, err := s.Tab(ctx, calls.TabRequest{Op: "new", URL: srv.URL("/ok")}); err != nil {
					t.Fatal(err)
				}
				if _, err := s.Tab(ctx, calls.TabRequest{Op: "switch", Index: 0}); err != nil {
					t.Fatal(err)
				}
				if took, err := bounded(ctx, clickOn(s, "text=Go")); err != nil || took > 15*time.Second {
					t.Fatalf("click: %v after %s", err, took)
				}
				took, err := bounded(ctx, func(ctx context.Context) error {
					if way == "reload" {
						_, err := s.Reload(ctx)
						return err
					}
					_, err := s.Tab(ctx, calls.TabRequest{Op: "close", Index: -1})
					return err
				})
				if err != nil || took > 15*time.Second {
					t.Fatalf("%s: %v after %s", way, err, took)
				}
				if _, err := bounded(ctx, func(ctx context.Context) error {
					snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
					if err == nil && !strings.Contains(snap.Text, "still here") {
						err = errors.New("the page read: " + snap.Text)
					}
					return err
				}); err != nil {
					t.Fatalf("after %s: %v", way, err)
				}
				if !b.Alive() {
					t.Fatal("the browser died")
				}
			})
		}
	}
}
