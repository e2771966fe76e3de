package driver_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
)

// TestConsoleAndNetwork: a session keeps its pages' console messages
// (errors first-class) and requests (method, URL, type, status, failure),
// masks what looks secret in them and the secrets typed into the page,
// and reads only what came after Since.
func TestConsoleAndNetwork(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/items":
			w.Write([]byte(`[]`))
		case "/gone":
			http.Error(w, "gone", http.StatusGone)
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<title>L</title><input id=pw type=password aria-label=Password>
<script>
console.log("hello", 1); console.warn("careful"); console.error("bad thing");
console.assert(false, "never");
fetch("/api/items?token=Zx8Kq2Lp9Wm3Nb7Vc4XzR1tY");
fetch("/gone").then(() => { document.title = "fetched" });
document.getElementById("pw").addEventListener("change", e => console.log("typed " + e.target.value));
</script>`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	open(t, s, ctx, srv.URL+"/")

	// Open returns after the load; the console calls ran before it, and
	// their events come first on the tab's connection.
	con, err := s.Console(ctx, calls.ConsoleRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// (The browser's own messages about the requests may come too.)
	var got []string
	for _, m := range con.Messages {
		if m.Source == "console" {
			got = append(got, m.Level+":"+m.Source+":"+m.Text)
		}
		if m.Seq == 0 || m.UnixMS == 0 {
			t.Errorf("message %+v has no seq or time", m)
		}
	}
	want := []string{"log:console:hello 1", "warning:console:careful", "error:console:bad thing", "error:console:assertion failed: never"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("console:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	errs, _ := s.Console(ctx, calls.ConsoleRequest{Errors: true})
	if len(errs.Messages) < 2 || errs.Errors != len(errs.Messages) {
		t.Errorf("errors only: %+v", errs.Messages)
	}
	for _, m := range errs.Messages {
		if m.Level != "error" {
			t.Errorf("errors only: %+v", m)
		}
	}

	// The fetches end after the load: wait for their outcome to be
	// reported (an event, not a guess).
	var netLog *calls.NetworkLog
	for deadline := time.Now().Add(10 * time.Second); ; {
		if netLog, err = s.Network(ctx, calls.NetworkRequest{}); err != nil {
			t.Fatal(err)
		}
		pending := 0
		for _, r := range netLog.Requests {
			if r.Pending {
				pending++
			}
		}
		if len(netLog.Requests) >= 3 && pending == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	byPath := map[string]calls.Request{}
	for _, r := range netLog.Requests {
		byPath[strings.TrimPrefix(r.URL, srv.URL)] = r
	}
	if d := byPath["/"]; d.Method != "GET" || d.Type != "document" || d.Status != 200 {
		t.Errorf("document request: %+v", d)
	}
	if g := byPath["/gone"]; g.Type != "fetch" || g.Status != 410 || !g.Bad() {
		t.Errorf("/gone: %+v", g)
	}
	if _, ok := byPath["/api/items?token=«secret»"]; !ok {
		t.Errorf("the token in a URL is not masked: %v", netLog.Requests)
	}
	bad, _ := s.Network(ctx, calls.NetworkRequest{Failed: true})
	for _, r := range bad.Requests {
		if !r.Bad() || strings.HasSuffix(r.URL, "/api/items?token=«secret»") {
			t.Errorf("failed only: %+v", bad.Requests)
		}
	}
	docs, _ := s.Network(ctx, calls.NetworkRequest{Type: "document"})
	if len(docs.Requests) != 1 {
		t.Errorf("documents only: %+v", docs.Requests)
	}

	// A secret typed into the page is masked in what the page echoes.
	con, _ = s.Console(ctx, calls.ConsoleRequest{})
	snap := snapshot(t, s, ctx, calls.SnapshotRequest{})
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActFill, Target: "@" + refOf(t, snap, "Password"), Value: "hunter2-Secret", Secret: "PW"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActPress, Key: "Tab"}); err != nil {
		t.Fatal(err)
	}
	after, err := s.Console(ctx, calls.ConsoleRequest{Since: con.Next})
	if err != nil {
		t.Fatal(err)
	}
	// The browser's own favicon request may fail into the log at any
	// time (seen after the fill on a loaded machine): the page's words
	// are what is checked.
	var echoed []calls.ConsoleMessage
	for _, m := range after.Messages {
		if !strings.HasSuffix(m.URL, "/favicon.ico") {
			echoed = append(echoed, m)
		}
	}
	if len(echoed) != 1 || echoed[0].Text != "typed «secret:PW»" || echoed[0].Line != 7 {
		t.Errorf("after the fill: %+v", after.Messages)
	}

	// Clear forgets; Problems reads the same record.
	p, err := s.Problems(ctx, calls.ProblemsRequest{Clear: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Console) < 2 || !strings.Contains(strings.Join(p.Requests, "\n"), "/gone → HTTP 410") {
		t.Errorf("problems: %+v", p)
	}
	if c, _ := s.Console(ctx, calls.ConsoleRequest{}); len(c.Messages) != 0 {
		t.Errorf("kept after clear: %+v", c.Messages)
	}
	if _, err := s.Console(ctx, calls.ConsoleRequest{Last: -1}); !errors.Is(err, calls.ErrBadInput) {
		t.Errorf("last -1: %v", err)
	}
}

// TestPageLogEntriesAreBounded: the log is bounded in entries, and each
// entry in size too: a page that logs megabyte strings, or asks for
// megabyte URLs, would otherwise grow the daemon by gigabytes within its
// 500 messages and 1,000 requests. A secret typed into the page and
// logged past the cut is masked whole, never cut in two.
func TestPageLogEntriesAreBounded(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<title>Big</title><input id=pw type=password aria-label=Password>
<button onclick="const big = 'x'.repeat(4090); console.log(big + document.getElementById('pw').value + big);
console.log('y'.repeat(1 << 20)); fetch('/big?' + 'z'.repeat(1 << 20)).catch(() => {}); document.title = 'logged'">Log</button>`})
	open(t, s, ctx, srv.URL+"/")
	const pw = "Qv7#pL2x!wR9"
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: "css=#pw", Value: pw, Secret: "pw"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: "text=Log"})
	var con *calls.ConsoleLog
	var net *calls.NetworkLog
	var err error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if con, err = s.Console(ctx, calls.ConsoleRequest{}); err != nil {
			t.Fatal(err)
		}
		if net, err = s.Network(ctx, calls.NetworkRequest{}); err != nil {
			t.Fatal(err)
		}
		big := 0
		for _, r := range net.Requests {
			if strings.Contains(r.URL, "/big?") {
				big++
			}
		}
		if len(con.Messages) >= 2 && big > 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, m := range con.Messages {
		if len(m.Text) > 8<<10 {
			t.Errorf("a console message of %d bytes is kept whole", len(m.Text))
		}
		if strings.Contains(m.Text, pw[:4]) {
			t.Errorf("the secret, cut or whole, is in %q", m.Text[len(m.Text)-100:])
		}
	}
	for _, r := range net.Requests {
		if len(r.URL) > 8<<10 {
			t.Errorf("a request URL of %d bytes is kept whole", len(r.URL))
		}
	}
}
