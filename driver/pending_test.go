package driver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// heldPage serves "/" with links to /held, a page whose first half comes at
// once and whose second half (a script that draws the final state) only
// once release is closed.
func heldPage(t *testing.T) (srv *httptest.Server, release chan struct{}) {
	t.Helper()
	release = make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>Start</title><a href="/held">Held</a>`)
	})
	mux.HandleFunc("/held", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>Held</title><p id=out>first half</p>`+strings.Repeat(" ", 2048))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, `<script>setTimeout(() => { out.textContent = 'second half'; }, 0)</script><p>end of page</p>`)
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	return srv, release
}

// within runs f, failing the test if it has not returned after d: what
// must not wait for another page's load.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not answer within %s: it waits for a load it should not", what, d)
	}
}

// A click answers once its navigation committed, not after the new page
// loaded; a look right after it waits for that load and sees the page
// drawn to the end.
func TestAClickAnswersBeforeTheLoadAndTheNextLookWaitsForIt(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv, release := heldPage(t)
	open(t, s, ctx, srv.URL+"/")

	var out *calls.Outcome
	within(t, 10*time.Second, "a click whose new page is still loading", func() {
		out = act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=link[name="Held"]`})
	})
	if !out.Navigated || !strings.HasSuffix(out.URL, "/held") {
		t.Errorf("the click's outcome does not say where it went: %+v", out)
	}

	// The look starts while the page is still loading: it must not answer
	// before the rest of the page came.
	looked := make(chan string, 1)
	go func() {
		o, err := s.Snapshot(ctx, calls.SnapshotRequest{Full: true})
		if err != nil {
			looked <- "error: " + err.Error()
			return
		}
		looked <- o.Text
	}()
	select {
	case o := <-looked:
		t.Fatalf("a look answered while the page the click opened was still loading:\n%s", o)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	if o := <-looked; !strings.Contains(o, "second half") || !strings.Contains(o, "end of page") {
		t.Errorf("the look after the click does not show the page drawn to the end:\n%s", o)
	}
}

// A pending settle is its tab's: a command on another tab of the session,
// or on another session, does not wait for it; the tab's own next command
// does.
func TestAPendingSettleStaysWithItsTab(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	other, octx := drivertest.Session(t, t.Name()+"-other", 60*time.Second)
	srv, release := heldPage(t)
	open(t, s, ctx, srv.URL+"/")
	within(t, 10*time.Second, "a click whose new page is still loading", func() {
		act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=link[name="Held"]`})
	})

	within(t, 10*time.Second, "a look on another session", func() {
		open(t, other, octx, srv.URL+"/")
		if o := snapshot(t, other, octx, calls.SnapshotRequest{Full: true}); !strings.Contains(o, "Held") {
			t.Errorf("the other session's look:\n%s", o)
		}
	})
	within(t, 10*time.Second, "a look on another tab", func() {
		if _, err := s.Tab(ctx, calls.TabRequest{Op: "new", URL: srv.URL + "/"}); err != nil {
			t.Fatal(err)
		}
		if o := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true}); !strings.Contains(o, `link "Held"`) {
			t.Errorf("the new tab's look:\n%s", o)
		}
	})

	close(release)
	if _, err := s.Tab(ctx, calls.TabRequest{Op: "switch", Index: 0}); err != nil {
		t.Fatal(err)
	}
	if o := snapshot(t, s, ctx, calls.SnapshotRequest{Full: true}); !strings.Contains(o, "second half") {
		t.Errorf("back on the tab of the click, the look does not show its page drawn:\n%s", o)
	}
}

// A session closed right after an action whose request is still under way
// (a program's last step) lets the request reach its server first.
func TestClosingASessionLetsTheLastActionsRequestsEnd(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	got := 0
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>Send</title><button onclick="fetch('/send', {method: 'POST', body: 'x'}).then(() => { document.title = 'sent'; })">Send</button>`)
	})
	mux.HandleFunc("/send", func(w http.ResponseWriter, r *http.Request) {
		// A slow server: a send cut off by the session's end does not
		// count.
		select {
		case <-time.After(300 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		mu.Lock()
		got++
		mu.Unlock()
		io.WriteString(w, `{}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	b := drivertest.Driver(t)
	s, ctx := drivertest.Session(t, t.Name(), 60*time.Second)
	open(t, s, ctx, srv.URL+"/")
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Send"]`})
	if err := b.CloseSession(t.Name()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got != 1 {
		t.Errorf("the server answered %d sends of the last click before its session closed, want 1", got)
	}
}

// The request log read right after an action lists its requests answered,
// as it did when the action itself waited for them.
func TestTheNetworkLogAfterAnActionListsItsRequestsAnswered(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>Send</title><button onclick="fetch('/slow-send', {method: 'POST'})">Send</button>`)
	})
	mux.HandleFunc("/slow-send", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(200 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, `{}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	open(t, s, ctx, srv.URL+"/")
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Send"]`})
	log, err := s.Network(ctx, calls.NetworkRequest{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range log.Requests {
		if strings.HasSuffix(r.URL, "/slow-send") {
			found = true
			if r.Pending || r.Status != 200 {
				t.Errorf("the click's request read right after it: %+v", r)
			}
		}
	}
	if !found {
		t.Errorf("the click's request is not in the log: %+v", log.Requests)
	}
}

// graceLaterPage has a button whose handler goes to /next after 20 ms,
// and one that asks nothing of anyone.
const graceLaterPage = `<!doctype html><title>Start</title>
<p id=out>start</p>
<button onclick="setTimeout(() => { location.href = '/next'; }, 20)">Later</button>
<button onclick="out.textContent = 'toggled'">Toggle</button>`

// A click on what cannot start a download (a button outside a form) leaves
// the grace settle waits for a download to the next command: what the
// click starts in that time (a navigation from a 20 ms timer) is still
// waited for by a look right after, which sees the new page loaded; a
// click on a link still waits for its download within the click.
func TestAClickOnAButtonLeavesItsGraceToTheNextCommand(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, graceLaterPage)
	})
	mux.HandleFunc("/next", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>Next</title><p id=out>next page</p>
<script>setTimeout(() => { out.textContent = 'next page drawn'; }, 0)</script>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for range 3 {
		open(t, s, ctx, srv.URL+"/")
		act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Later"]`})
		snap, err := s.Snapshot(ctx, calls.SnapshotRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if snap.Title != "Next" || !strings.Contains(snap.Text, "next page drawn") {
			t.Fatalf("a look right after the click shows %q:\n%s", snap.Title, snap.Text)
		}
	}
	open(t, s, ctx, srv.URL+"/")
	if out := act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: `role=button[name="Toggle"]`}); out.Navigated {
		t.Errorf("a click that changes nothing but text: outcome %+v", out)
	}
	if got := getText(t, s, ctx, "css=#out"); got != "toggled" {
		t.Errorf("after the toggle the page says %q", got)
	}
}
