package adversarial

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
)

// One session must never hurt another: sessions are browser contexts of
// one Chromium, so a page that floods the browser itself (windows without
// end) would take every session down with it.

// floods is held by each test whose page floods its browser: each test's
// promise is about the sessions of one browser, and two flooding browsers
// at once on a two-core machine measure the machine instead (CI: two
// flood tests side by side under -race, with the driver's tests beside
// them, took 90 to 190 s where each alone takes under 15).
var floods sync.Mutex

// flooding holds floods until the test ends.
func flooding(t *testing.T) {
	floods.Lock()
	t.Cleanup(floods.Unlock)
}

// openUntilStopped opens url, a page that floods, in s and looks at it
// until a look says it was stopped (failing with never if none does); it
// returns that look's error. The open itself may meet the stop.
func openUntilStopped(t *testing.T, s *driver.Session, ctx context.Context, url, never string) error {
	t.Helper()
	if _, err := s.Open(ctx, calls.OpenRequest{URL: url}); err != nil && !errors.Is(err, calls.ErrPageCrashed) {
		t.Fatal(err)
	}
	var stopped error
	waitFor(t, func() bool {
		_, stopped = s.Snapshot(ctx, calls.SnapshotRequest{})
		return errors.Is(stopped, calls.ErrPageCrashed)
	}, never)
	return stopped
}

// popupFlood opens windows for as long as it runs, with an opener and
// without one.
const popupFlood = `<title>Flood</title><p>flood</p><script>
let n = 0;
setInterval(() => {
	for (let i = 0; i < 5; i++) {
		window.open('/popup?' + n, '_blank', n & 1 ? 'noopener' : '');
		n++;
	}
}, 5);
</script>`

// TestPopupFloodIsStopped: a page that opens windows in a loop gets at
// most driver.MaxTabs tabs in its session (the rest are closed before
// their first request reaches the server) and is then stopped, as a stuck
// page is, with an error that says why; the session goes on elsewhere and
// its next look says how many tabs were refused. Another session of the
// same browser opens, reads, clicks and fills meanwhile. Before the limit,
// ~900 windows in ten minutes left the browser answering no session.
func TestPopupFloodIsStopped(t *testing.T) {
	t.Parallel()
	flooding(t)
	b := daemonBrowser(t)
	srv := NewServer(t, map[string]string{"/": popupFlood, "/ok": okPage,
		"/popup": `<title>Popup</title><p>popup</p>`,
		"/form":  `<title>Form</title><button onclick="this.textContent='pressed'">Press</button><label>Name <input></label>`})
	other, octx := daemonSession(t, b, "bystander")
	if _, err := other.Open(octx, calls.OpenRequest{URL: srv.URL("/form")}); err != nil {
		t.Fatal(err)
	}
	s, ctx := daemonSession(t, b, "flood")
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
		t.Fatal(err)
	}
	// A look says how many tabs were refused since the last: whichever
	// look comes after a refusal, here or after the stop.
	var stopped error
	told := false
	waitFor(t, func() bool {
		snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
		stopped = err
		told = told || err == nil && strings.Contains(snap.Text, "[tabs-refused]")
		return errors.Is(err, calls.ErrPageCrashed)
	}, "the flooding page was never stopped")
	if !strings.Contains(stopped.Error(), "opening tabs") || calls.Hint(stopped) == "" {
		t.Errorf("the stopped page's error does not say why, or what to do: %v (hint %q)", stopped, calls.Hint(stopped))
	}
	if n := srv.Count("GET", "/popup"); n > driver.MaxTabs {
		t.Errorf("%d of the page's windows reached the server, want at most %d", n, driver.MaxTabs)
	}
	// The bystander works.
	took, err := bounded(octx, func(ctx context.Context) error {
		if _, err := other.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Press"}); err != nil {
			return err
		}
		if _, err := other.Act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: "label=Name", Value: "Ann"}); err != nil {
			return err
		}
		snap, err := other.Snapshot(ctx, calls.SnapshotRequest{})
		if err == nil && (!strings.Contains(snap.Text, "pressed") || !strings.Contains(snap.Text, "Ann")) {
			err = errors.New("the page read: " + snap.Text)
		}
		return err
	})
	if err != nil || took > 15*time.Second {
		t.Fatalf("the other session after the flood: %v after %s", err, took)
	}
	// The flooding session holds no more than it may, and goes on.
	list, err := s.Tab(ctx, calls.TabRequest{Op: "list"})
	if err != nil {
		t.Fatalf("tab list: %v", err)
	}
	if len(list.Tabs) > driver.MaxTabs {
		t.Errorf("the session holds %d tabs, over %d", len(list.Tabs), driver.MaxTabs)
	}
	if _, err := s.Tab(ctx, calls.TabRequest{Op: "new"}); !errors.Is(err, calls.ErrBadInput) && len(list.Tabs) == driver.MaxTabs {
		t.Errorf("a new tab past the limit: %v, want bad_input", err)
	}
	took, err = bounded(ctx, func(ctx context.Context) error {
		if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/ok")}); err != nil {
			return err
		}
		snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
		if err == nil && !strings.Contains(snap.Text, "still here") {
			err = errors.New("the page read: " + snap.Text)
		}
		told = told || err == nil && strings.Contains(snap.Text, "[tabs-refused]")
		return err
	})
	if err != nil || took > 20*time.Second {
		t.Fatalf("the flooding session after: %v after %s", err, took)
	}
	if !told {
		t.Error("no look said tabs were refused")
	}
}

// TestConsoleFloodIsStopped: every session's events come over the one
// connection to the browser, so a page that logs without end held another
// session's replies behind its messages until that session's idle page
// was reported stuck. The flooding page is stopped, saying why; the other
// session opens, clicks and reads meanwhile.
func TestConsoleFloodIsStopped(t *testing.T) {
	t.Parallel()
	flooding(t)
	b := daemonBrowser(t)
	srv := NewServer(t, map[string]string{"/ok": okPage,
		"/": `<title>Spam</title><p>spam</p><script>let n = 0;
setInterval(() => { for (let i = 0; i < 3000; i++) console.log('spam ' + (n++)) }, 0);</script>`,
		"/form": `<title>Form</title><button onclick="this.textContent='pressed'">Press</button>`})
	other, octx := daemonSession(t, b, "bystander")
	if _, err := other.Open(octx, calls.OpenRequest{URL: srv.URL("/form")}); err != nil {
		t.Fatal(err)
	}
	s, ctx := daemonSession(t, b, "spam")
	stopped := openUntilStopped(t, s, ctx, srv.URL("/"), "the page that logs without end was never stopped")
	if !strings.Contains(stopped.Error(), "console messages") {
		t.Errorf("the stopped page's error does not say why: %v", stopped)
	}
	took, err := bounded(octx, func(ctx context.Context) error {
		if _, err := other.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Press"}); err != nil {
			return err
		}
		snap, err := other.Snapshot(ctx, calls.SnapshotRequest{})
		if err == nil && !strings.Contains(snap.Text, "pressed") {
			err = errors.New("the page read: " + snap.Text)
		}
		return err
	})
	if err != nil || took > 10*time.Second {
		t.Fatalf("the other session after the flood: %v after %s", err, took)
	}
	usable(t, s, ctx, srv.URL("/ok"))
}

// busyPage is a heavy page that must never be stopped: an image grid of
// 300 pictures, one in five missing (the browser logs each failure), a
// poll every 50 ms, and an analytics burst of 300 beacons, half of them
// to a host its policy refuses (the browser logs each refusal).
const busyPage = `<title>Busy</title><meta http-equiv="Content-Security-Policy" content="connect-src 'self'; img-src 'self'">
<p>working</p><div id=grid></div><script>
for (let i = 0; i < 300; i++) { const im = new Image(8, 8); im.src = '/pic/' + i + (i % 5 ? '' : '-missing'); grid.append(im); }
setInterval(() => fetch('/poll').catch(() => {}), 50);
for (let i = 0; i < 300; i++) try { navigator.sendBeacon(i % 2 ? '/beacon' : 'http://localhost:1/collect?e=' + i, 'e' + i); } catch (e) {}
</script>`

// TestRefusedRequestFloodIsStopped: a page that asks in a loop for what
// its own Content Security Policy refuses sends no request, but the
// browser logs a refusal for each, over the connection every session
// shares; under -race another session's idle page was reported stuck,
// then crashed. The flooding page is stopped, saying why; a heavy page in
// the other session (busyPage) is not, and answers.
func TestRefusedRequestFloodIsStopped(t *testing.T) {
	t.Parallel()
	flooding(t)
	b := daemonBrowser(t)
	srv := NewServer(t, map[string]string{"/ok": okPage, "/busy": busyPage,
		"/": `<title>Refused</title><meta http-equiv="Content-Security-Policy" content="connect-src 'none'; img-src 'none'">
<p>refused</p><script>const end = Date.now() + 60000; let n = 0;
setInterval(() => { if (Date.now() > end) return;
	for (let i = 0; i < 100; i++) { fetch('/r?' + n++).catch(() => {}); new Image().src = '/i?' + n++; } }, 0);</script>`})
	for i := range 300 {
		srv.Handle(fmt.Sprintf("/pic/%d", i), "")
	}
	srv.Handle("/poll", "")
	srv.Handle("/beacon", "")
	other, octx := daemonSession(t, b, "busy")
	if _, err := other.Open(octx, calls.OpenRequest{URL: srv.URL("/busy")}); err != nil {
		t.Fatal(err)
	}
	// The busy page's burst is logged (60 missing pictures, 150 refused
	// beacons: most of them is enough) and it goes on polling.
	waitFor(t, func() bool {
		l, err := other.Console(octx, calls.ConsoleRequest{})
		return err == nil && len(l.Messages)+l.Dropped >= 150 && srv.Count("", "/poll") >= 5
	}, "the busy page never logged its burst")
	s, ctx := daemonSession(t, b, "refused")
	stopped := openUntilStopped(t, s, ctx, srv.URL("/"), "the page that floods refused requests was never stopped")
	if !strings.Contains(stopped.Error(), "console messages") || calls.Hint(stopped) == "" {
		t.Errorf("the stopped page's error does not say why, or what to do: %v (hint %q)", stopped, calls.Hint(stopped))
	}
	if n := srv.Count("", "/r") + srv.Count("", "/i"); n != 0 {
		t.Errorf("%d refused requests reached the server", n)
	}
	// The busy page was not stopped: it reads, and still polls.
	polls := srv.Count("", "/poll")
	snap, err := other.Snapshot(octx, calls.SnapshotRequest{})
	if err != nil || !strings.Contains(snap.Text, "working") {
		t.Fatalf("the busy page after the flood: %v (%+v)", err, snap)
	}
	waitFor(t, func() bool { return srv.Count("", "/poll") > polls }, "the busy page stopped polling")
	usable(t, s, ctx, srv.URL("/ok"))
}
