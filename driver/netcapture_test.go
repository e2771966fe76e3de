package driver_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/websocket"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/capture"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// The secrets of the capture test's shop: none of them, in any spelling,
// may reach the capture file or the HAR.
const (
	capToken   = "tok_Zq8xW3pL0vN7kR2mT5yB9cF4"
	capSID     = "sidV4lue-8f3Kq2Lm9Xw1"
	capVisitor = "vis-ABCDEF1234567890"
	capCSRF    = "csrf-Q7w2E9r4T1y6U3i8"
	capCard    = "4242424242424242"
	capTyped   = "Hunter2-Typed-Pw"
)

var capJWT = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." +
	base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"ann","exp":1900000000}`)) + ".c2lnbmF0dXJlLXNpZ25hdHVyZS14eXo"

const capPage = `<!doctype html><html><head><meta name="csrf-token" content="` + capCSRF + `"><title>Shop</title></head><body>
<script id="__NEXT_DATA__" type="application/json">{"props":{"page":1,"shop":"tea"}}</script>
<label>Card number <input id="card"></label>
<label>Password <input id="pw" type="password"></label>
<button onclick="send()">Send order</button>
<div id="status">loading</div>
<iframe src="/frame"></iframe>
<script src="/app.js"></script>
</body></html>`

const capApp = `localStorage.setItem('token', '` + capToken + `');
sessionStorage.setItem('view', 'grid');
const done = {};
function mark(k) { done[k] = 1; if (Object.keys(done).length === 6) document.getElementById('status').textContent = 'ALLDONE'; }
async function load() {
  const r = await fetch('/api/items?page=1', {headers: {
    'Authorization': 'Bearer ' + localStorage.getItem('token'),
    'X-CSRF-Token': document.querySelector('meta[name=csrf-token]').content}});
  const j = await r.json();
  mark('items');
}
load();
const x = new XMLHttpRequest(); x.open('GET', '/api/xhr'); x.onload = () => mark('xhr'); x.send();
fetch('/api/redirect').then(r => r.json()).then(() => mark('redirect'));
fetch('/api/abort').catch(() => mark('abort'));
const ws = new WebSocket('ws://' + location.host + '/ws');
ws.onopen = () => ws.send('hello ' + localStorage.getItem('token'));
ws.onmessage = e => { ws.close(); mark('ws'); };
const es = new EventSource('/events');
es.onmessage = e => { es.close(); mark('es'); };
function send() {
  fetch('/api/order', {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({card: document.getElementById('card').value, note: document.getElementById('pw').value})})
    .then(() => { document.getElementById('status').textContent = 'SENT'; });
}`

const capFrame = `<!doctype html><html><body><p>frame</p><script>
fetch('/api/frame-data').then(r => r.json()).then(() => { document.body.dataset.ok = 1; });
</script></body></html>`

// capShop is the test shop: it counts what it served, by path.
type capShop struct {
	mu   sync.Mutex
	hits map[string]int
}

func (s *capShop) count() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.hits {
		out[k] = v
	}
	return out
}

func newCapShop(t *testing.T) (*capShop, *httptest.Server) {
	shop := &capShop{hits: map[string]int{}}
	wsh := websocket.Handler(func(c *websocket.Conn) {
		var m string
		if websocket.Message.Receive(c, &m) == nil {
			_ = websocket.Message.Send(c, "echo:"+m)
		}
		_, _ = io.Copy(io.Discard, c)
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		shop.mu.Lock()
		shop.hits[r.URL.Path]++
		shop.mu.Unlock()
		js := func(body string) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, body)
		}
		switch r.URL.Path {
		case "/":
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: capSID, Path: "/", HttpOnly: true})
			http.SetCookie(w, &http.Cookie{Name: "visitor", Value: capVisitor, Path: "/"})
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, capPage)
		case "/app.js":
			w.Header().Set("Content-Type", "text/javascript")
			io.WriteString(w, capApp)
		case "/frame":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, capFrame)
		case "/api/items":
			if r.Header.Get("Authorization") != "Bearer "+capToken || r.Header.Get("X-CSRF-Token") != capCSRF {
				http.Error(w, "no", http.StatusUnauthorized)
				return
			}
			js(`{"items":[{"id":1,"name":"Tea"},{"id":2,"name":"Cake"}],"viewer":"` + capJWT + `"}`)
		case "/api/xhr":
			js(`{"ok":true}`)
		case "/api/frame-data":
			js(`{"frame":true}`)
		case "/api/redirect":
			http.Redirect(w, r, "/api/final", http.StatusFound)
		case "/api/final":
			js(`{"final":true}`)
		case "/api/abort":
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
				}
			}
		case "/api/order":
			b, _ := io.ReadAll(r.Body)
			js(`{"received":` + fmt.Sprint(len(b)) + `}`)
		case "/events":
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: tick "+capCSRF+"\n\n")
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		case "/ws":
			wsh.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return shop, srv
}

// spellings are the forms a secret may take in a file.
func spellings(v string) []string {
	b := []byte(v)
	return []string{v, url.QueryEscape(v), url.PathEscape(v), base64.StdEncoding.EncodeToString(b), base64.RawStdEncoding.EncodeToString(b),
		base64.URLEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b)}
}

func TestCaptureRecordsRedacted(t *testing.T) {
	t.Parallel()
	heavy(t)
	s, ctx := newSession(t)
	shop, srv := newCapShop(t)

	// Before the capture: the page loads, and nothing of it is kept.
	open(t, s, ctx, srv.URL+"/")
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: "ALLDONE"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartCapture(ctx, calls.CaptureStartRequest{}); err != nil {
		t.Fatal(err)
	}
	before := shop.count()
	if _, err := s.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: "ALLDONE"}); err != nil {
		t.Fatal(err)
	}
	look := snapshot(t, s, ctx, calls.SnapshotRequest{})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: refOf(t, look, "Card number"), Value: capCard})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActFill, Target: refOf(t, look, "Password"), Value: capTyped, Secret: "pw"})
	act(t, s, ctx, calls.ActRequest{Kind: calls.ActClick, Target: refOf(t, look, "Send order")})
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: "SENT"}); err != nil {
		t.Fatal(err)
	}
	during := shop.count()
	res, err := s.StopCapture(ctx, calls.CaptureStopRequest{HAR: true})
	if err != nil {
		t.Fatal(err)
	}
	// After the capture: nothing more is kept.
	if _, err := s.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: "ALLDONE"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StopCapture(ctx, calls.CaptureStopRequest{}); !isKind(err, calls.ErrBadInput) {
		t.Errorf("stop after stop: %v, want bad input", err)
	}

	// No secret, in any spelling, in the file or the HAR.
	for name, raw := range map[string][]byte{"capture": res.Capture, "har": harPlain(t, res.HAR)} {
		for _, v := range []string{capToken, capSID, capVisitor, capCSRF, capCard, capTyped, capJWT} {
			for _, sp := range spellings(v) {
				if strings.Contains(string(raw), sp) {
					t.Errorf("%s holds %q (a spelling of %q)", name, sp, v)
				}
			}
		}
	}
	var f capture.File
	if err := json.Unmarshal(res.Capture, &f); err != nil {
		t.Fatal(err)
	}
	if testing.Verbose() {
		t.Logf("capture:\n%s", res.Capture)
	}

	// Every request the shop served between start and stop is in the file
	// once per hit, and none from before or after.
	inFile := map[string]int{}
	byPath := map[string]capture.Exchange{}
	for _, e := range f.Exchanges {
		u, err := url.Parse(e.URL)
		if err != nil {
			t.Fatal(err)
		}
		inFile[u.Path]++
		byPath[u.Path] = e
	}
	for path, n := range during {
		if path == "/favicon.ico" || path == "/api/abort" {
			// The browser's own; and a GET whose connection closed
			// unanswered is retried below DevTools (one exchange).
			continue
		}
		if want := n - before[path]; inFile[path] != want {
			t.Errorf("%s: %d in the file, the shop served %d during the capture", path, inFile[path], want)
		}
	}

	// Kinds, initiators, frames.
	for path, kind := range map[string]string{"/": "document", "/app.js": "script", "/api/items": "fetch", "/api/xhr": "xhr",
		"/frame": "document", "/api/frame-data": "fetch", "/ws": "websocket", "/events": "eventsource", "/api/order": "fetch"} {
		if e := byPath[path]; e.Kind != kind {
			t.Errorf("%s: kind %q, want %q", path, e.Kind, kind)
		}
	}
	if in := byPath["/api/items"].Initiator; !strings.Contains(in, "/app.js:") {
		t.Errorf("/api/items initiator %q, want a place in app.js", in)
	}
	if in := byPath["/app.js"].Initiator; in != "parser" {
		t.Errorf("/app.js initiator %q, want parser", in)
	}
	if fr := byPath["/api/frame-data"].Frame; !strings.HasSuffix(fr, "/frame") {
		t.Errorf("/api/frame-data frame %q, want the iframe's URL", fr)
	}
	if fr := byPath["/"].Frame; fr != "" {
		t.Errorf("the top document has frame %q", fr)
	}
	if e := byPath["/api/redirect"]; e.Status != 302 || !strings.HasSuffix(e.RedirectedTo, "/api/final") {
		t.Errorf("redirect hop: %+v", e)
	}
	if e := byPath["/api/final"]; !strings.HasPrefix(e.ID, byPath["/api/redirect"].ID+".") || e.ResponseBody != `{"final":true}` {
		t.Errorf("after the redirect: id %q body %q", e.ID, e.ResponseBody)
	}
	if e := byPath["/api/abort"]; e.Failed == "" {
		t.Errorf("the aborted request has no failure: %+v", e)
	}
	if e := byPath["/app.js"]; e.ResponseBody != "" {
		t.Errorf("a script's body was kept")
	}
	if e := byPath["/api/items"]; !strings.Contains(e.ResponseBody, `"name":"Tea"`) || !strings.Contains(e.ResponseBody, "«redacted:jwt:") {
		t.Errorf("items body %q", e.ResponseBody)
	}
	if e := byPath["/api/order"]; !strings.Contains(e.RequestBody, "«redacted:card:") || !strings.Contains(e.RequestBody, "«redacted:secret:") {
		t.Errorf("order body %q", e.RequestBody)
	}
	var wsIn, wsOut, esIn bool
	for _, m := range f.Messages {
		switch {
		case m.Exchange == byPath["/ws"].ID && m.Direction == "sent":
			wsOut = strings.Contains(m.Data, "hello «redacted:")
		case m.Exchange == byPath["/ws"].ID && m.Direction == "received":
			wsIn = strings.HasPrefix(m.Data, "echo:hello «redacted:")
		case m.Exchange == byPath["/events"].ID:
			esIn = strings.HasPrefix(m.Data, "tick «redacted:")
		}
	}
	if !wsIn || !wsOut || !esIn {
		t.Errorf("frames: ws sent %v received %v, event stream %v: %+v", wsOut, wsIn, esIn, f.Messages)
	}

	// The same value has the same hash in a header and in the state.
	header := func(e capture.Exchange, name string) string {
		for _, h := range e.RequestHeaders {
			if strings.EqualFold(h.Name, name) {
				return h.Value
			}
		}
		t.Errorf("%s has no %s header: %+v", e.URL, name, e.RequestHeaders)
		return ""
	}
	state := map[string]string{}
	for _, v := range f.State {
		state[v.Source] = v.Value
	}
	items := byPath["/api/items"]
	auth := strings.TrimPrefix(header(items, "Authorization"), "Bearer ")
	cookie := header(items, "Cookie")
	for _, c := range []struct{ header, state string }{
		{auth, state["localStorage:token"]},
		{header(items, "X-CSRF-Token"), state["meta:csrf-token"]},
		{cookieValue(cookie, "sid"), state["cookie:sid"]},
	} {
		h1, ok1 := capture.MarkerHash(c.header)
		h2, ok2 := capture.MarkerHash(c.state)
		if !ok1 || !ok2 || h1 != h2 {
			t.Errorf("header %q and state %q are not one value's markers", c.header, c.state)
		}
	}
	if state["sessionStorage:view"] != "grid" || !strings.Contains(state["script:__NEXT_DATA__"], `"shop":"tea"`) {
		t.Errorf("state: %v", state)
	}

	// The HAR has what HAR 1.2 requires.
	checkHAR(t, res.HAR, len(f.Exchanges))
}

func cookieValue(header, name string) string {
	for _, p := range strings.Split(header, ";") {
		if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && k == name {
			return v
		}
	}
	return ""
}

func isKind(err error, kind error) bool { return errors.Is(err, kind) }

// harPlain is a HAR followed by each response's content text, decoded
// (cdproto's har.Content holds text as bytes, base64 in JSON), so that a
// search for a secret's spellings reads the bodies as sent.
func harPlain(t *testing.T, raw []byte) []byte {
	t.Helper()
	var h capture.HAR
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatal(err)
	}
	out := append([]byte(nil), raw...)
	for _, e := range h.Log.Entries {
		if e.Response != nil && e.Response.Content != nil {
			out = append(out, e.Response.Content.Text...)
			out = append(out, '\n')
		}
	}
	return out
}

// checkHAR checks the fields HAR 1.2 requires.
func checkHAR(t *testing.T, raw []byte, entries int) {
	t.Helper()
	var h map[string]any
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatal(err)
	}
	log, _ := h["log"].(map[string]any)
	need := func(where string, m map[string]any, keys ...string) {
		for _, k := range keys {
			if _, ok := m[k]; !ok {
				t.Errorf("HAR %s lacks %q", where, k)
			}
		}
	}
	need("log", log, "version", "creator", "entries")
	if log["version"] != "1.2" {
		t.Errorf("HAR version %v", log["version"])
	}
	es, _ := log["entries"].([]any)
	if len(es) != entries {
		t.Errorf("HAR has %d entries, the capture %d", len(es), entries)
	}
	for _, e := range es {
		e := e.(map[string]any)
		need("entry", e, "startedDateTime", "time", "request", "response", "cache", "timings")
		need("request", e["request"].(map[string]any), "method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize")
		need("response", e["response"].(map[string]any), "status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize")
		need("content", e["response"].(map[string]any)["content"].(map[string]any), "size", "mimeType")
		need("timings", e["timings"].(map[string]any), "send", "wait", "receive")
	}
}

// A page that floods requests and answers with a body over the capture's
// limits does not wedge the session or fill the daemon's memory: the
// capture keeps what its limits allow and counts the rest. The sizes are
// the least that prove it: the body is 4 MB, four times the 1 MB a body
// may hold (it was 50 MB, which cost the browser seconds to parse and
// proved no more: a body over the limit is omitted by its size, whatever
// the size), and 100 requests at once against a limit of 25 exchanges
// leave 75 to count (they were 400 against 100).
func TestCaptureBounded(t *testing.T) {
	t.Parallel()
	heavy(t)
	// 120 s, not newSession's 60: a hang detector for a page that loads
	// a large body and a flood of requests; at a load of 40 on 2 cores
	// the test's calls took 74 s together (with 50 MB and 400 requests)
	// and the last one ran out of the 60.
	s, ctx := drivertest.Session(t, t.Name(), 120*time.Second)
	big := strings.Repeat(`{"n":1234567890},`, 4<<20/17)
	page := `<div id="s">go</div><script>
(async () => {
  await fetch('/big').then(r => r.text()).catch(() => {});
  const all = [];
  for (let i = 0; i < 100; i++) all.push(fetch('/n?i=' + i).catch(() => {}));
  await Promise.all(all);
  document.getElementById('s').textContent = 'FLOODED';
})();
</script>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, "["+big+"0]")
		case "/n":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":1}`)
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, page)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	if _, err := s.StartCapture(ctx, calls.CaptureStartRequest{MaxExchanges: 25}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartCapture(ctx, calls.CaptureStartRequest{}); !isKind(err, calls.ErrBadInput) {
		t.Errorf("start twice: %v, want bad input", err)
	}
	open(t, s, ctx, srv.URL+"/")
	if _, err := s.Wait(ctx, calls.WaitRequest{Text: "FLOODED", TimeoutMS: 60000}); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	res, err := s.StopCapture(ctx, calls.CaptureStopRequest{HAR: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stop took %v; capture %d bytes, %d exchanges, %d dropped", time.Since(started), len(res.Capture), res.Exchanges, res.Dropped)
	if res.Exchanges != 25 || res.Dropped < 75 {
		t.Errorf("kept %d exchanges, dropped %d; want 25 kept and the rest counted", res.Exchanges, res.Dropped)
	}
	var f capture.File
	if err := json.Unmarshal(res.Capture, &f); err != nil {
		t.Fatal(err)
	}
	bigs := 0
	for _, e := range f.Exchanges {
		if !strings.HasSuffix(e.URL, "/big") {
			continue
		}
		bigs++
		if e.BodyOmitted != "too large" || e.ResponseBody != "" {
			t.Errorf("the 4 MB body: omitted %q, kept %d bytes", e.BodyOmitted, len(e.ResponseBody))
		}
	}
	if bigs != 1 {
		t.Errorf("the 4 MB answer is in the capture %d times, want once", bigs)
	}
	if len(res.Capture) > 2<<20 {
		t.Errorf("the capture is %d bytes", len(res.Capture))
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("heap in use after stop: %d MiB", ms.HeapInuse>>20)
	// The session goes on.
	if _, err := s.StopCapture(ctx, calls.CaptureStopRequest{}); !isKind(err, calls.ErrBadInput) {
		t.Errorf("stop without a capture: %v, want bad input", err)
	}
	if _, err := s.Reload(ctx); err != nil {
		t.Errorf("reload after the capture: %v", err)
	}
}
