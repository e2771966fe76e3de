package adversarial

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/apptest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
	"github.com/waymark-dev/waymark/internal/sessions"
	"github.com/waymark-dev/waymark/pilot"
)

// A secret is one thing to the session, however it was typed (issue 27,
// item 3): a value typed by form fill, doc insert or a sheet write is
// masked in every output as one typed by act --secret is, also where the
// page echoes it (its title, URL and text, its console, its requests, a
// response that spells it in hex or inside a Basic credential), and a
// later act of the pilot that was never told it does not send the echo
// to the model.

// typedSecret reads as words, so that no heuristic takes it for a
// secret: only the session's registry can mask it.
const typedSecret = "correct horse battery staple"

// spellings are the forms of typedSecret a page or a server may write.
func spellings(v string) map[string]string {
	basic := base64.StdEncoding.EncodeToString([]byte("ann:" + v))
	return map[string]string{
		"raw":          v,
		"path-escaped": url.PathEscape(v),
		"query":        url.QueryEscape(v),
		"hex":          hex.EncodeToString([]byte(v)),
		// The characters that encode the password alone inside the
		// credential (the review's probe, §1.3).
		"inside basic": basic[8 : len(basic)-2],
	}
}

// noSpelling fails the test if any text holds any spelling of v.
func noSpelling(t *testing.T, v string, texts map[string]string) {
	t.Helper()
	for form, s := range spellings(v) {
		for what, text := range texts {
			if strings.Contains(text, s) {
				t.Errorf("%s holds the secret (%s): …%s…", what, form, around(text, s))
			}
		}
	}
}

func around(text, s string) string {
	i := strings.Index(text, s)
	return text[max(0, i-60):min(len(text), i+len(s)+60)]
}

// echoServer answers /echo?v=… with the value in hex and inside a Basic
// credential, as a site that reflects what it was sent does; any origin
// may read it.
func echoServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := r.URL.Query().Get("v")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(map[string]string{
			"echo1": hex.EncodeToString([]byte(v)),
			"echo2": "Basic " + base64.StdEncoding.EncodeToString([]byte("ann:"+v)),
		})
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// echoPage is a form whose Memo field, once changed, is echoed into the
// page's title, URL and text, its console, a request of its own site and
// a request to echo (an echoServer), whose answer spells it in hex and
// inside a Basic credential.
func echoPage(echo string) string {
	return `<!doctype html><title>Profile</title>
<form onsubmit="return false"><label>Memo <input name=memo id=memo></label></form>
<button id=go onclick="document.body.append(' go pressed')">Go</button>
<p id=out></p>
<script>
let seen = '';
const tell = () => {
  const v = memo.value;
  if (!v || v === seen) return;
  seen = v;
  console.log('memo is ' + v);
  fetch('/save?memo=' + encodeURIComponent(v));
  fetch('` + echo + `/echo?v=' + encodeURIComponent(v)).then(r => r.text()).then(t => console.log('server said ' + t.length));
  document.title = 'Saved ' + v;
  history.replaceState({}, '', '/profile?m=' + encodeURIComponent(v));
  out.textContent = 'you typed ' + v;
};
memo.addEventListener('input', tell);
memo.addEventListener('change', tell);
</script>`
}

// The value typed by form fill --secret, echoed by the page everywhere it
// can: not in the fill's result, a look (title, URL, text), the console,
// the network log, the capture file, its HAR, nor in what a capture's
// response spells in hex or inside a Basic credential. Before the
// registry, only act --secret told the session, and all of these held it.
func TestFormFillSecretIsMaskedEverywhere(t *testing.T) {
	t.Parallel()
	echo := echoServer(t)
	srv := NewServer(t, map[string]string{"/profile": echoPage(echo.URL)})
	s, ctx := secretSession(t, srv.URL("/profile"))
	if _, err := s.StartCapture(ctx, calls.CaptureStartRequest{}); err != nil {
		t.Fatal(err)
	}
	res, err := s.FillForm(ctx, calls.FormFillRequest{Secrets: map[string]string{"memo": typedSecret}})
	if err != nil {
		t.Fatal(err)
	}
	waitEcho(t, srv)
	// Wait for the answer from echo to be read (the page logs its length).
	waitConsole(t, s, ctx, "server said")
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.PageInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	con, err := s.Console(ctx, calls.ConsoleRequest{})
	if err != nil {
		t.Fatal(err)
	}
	netw, err := s.Network(ctx, calls.NetworkRequest{})
	if err != nil {
		t.Fatal(err)
	}
	capt, err := s.StopCapture(ctx, calls.CaptureStopRequest{HAR: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(capt.Capture), "echo1") {
		t.Fatalf("the capture has no answer from the echo server:\n%s", capt.Capture)
	}
	noSpelling(t, typedSecret, map[string]string{
		"the fill's result": jsonOf(res),
		"a look":            snap.Text + snap.Title + snap.URL,
		"the page info":     info.Title + info.URL,
		"the console":       jsonOf(con),
		"the network log":   jsonOf(netw),
		"the capture file":  string(capt.Capture),
		"the HAR":           string(capt.HAR),
	})
	if !strings.Contains(snap.Title, "«secret:memo»") {
		t.Errorf("the look's title does not name the secret: %q", snap.Title)
	}
}

// waitEcho waits until the page sent the secret to its server: the echo
// happened (what reached the server says so).
func waitEcho(t *testing.T, srv *Server) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for srv.Count("GET", "/save") == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	var saved string
	for _, r := range srv.Requests() {
		if r.Path == "/save" {
			saved = r.Query
		}
	}
	if !strings.Contains(saved, url.PathEscape(typedSecret)) {
		t.Fatalf("the page did not echo the secret to its server (it got %q)", saved)
	}
}

// waitConsole waits until the console holds words.
func waitConsole(t *testing.T, s *driver.Session, ctx context.Context, words string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if l, err := s.Console(ctx, calls.ConsoleRequest{}); err == nil && strings.Contains(jsonOf(l), words) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the console never said %q", words)
}

// A value typed by form fill --secret, which the pilot was never told,
// echoed by the page into its title, URL and text: a later act of the
// pilot without --secret does not send the echo to the model, nor return
// it in its result.
func TestFormFillSecretEchoNeverReachesTheModel(t *testing.T) {
	t.Parallel()
	echo := echoServer(t)
	srv := NewServer(t, map[string]string{"/profile": echoPage(echo.URL)})
	s, ctx := secretSession(t, srv.URL("/profile"))
	if _, err := s.FillForm(ctx, calls.FormFillRequest{Secrets: map[string]string{"memo": typedSecret}}); err != nil {
		t.Fatal(err)
	}
	waitEcho(t, srv)
	m := Wrap(&steps{next: []func(string) string{on("click", "", `"Go"`), on("click", "", `"Go"`)}})
	p := pilot.New(s, m, nil)
	res, err := p.Act(ctx, "click Go", &pilot.ActOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Prompts()) == 0 {
		t.Fatal("the model was never asked")
	}
	noSpelling(t, typedSecret, map[string]string{"the act's result": jsonOf(res)})
	m.NoLeak(t, typedSecret, 0)
	for _, word := range strings.Fields(typedSecret) {
		m.NoLeak(t, "Saved "+word, 0)
	}
}

// The daemon's replies (what the CLI and the MCP tools print) and a trace
// of the session: a value typed by form fill --secret is in neither, nor
// in the trace's record of the fill's own parameters. Before, the trace
// masked only act's value, and a reply's title and URL echoed it.
func TestFormFillSecretNotInRepliesOrTrace(t *testing.T) {
	t.Parallel()
	echo := echoServer(t)
	srv := NewServer(t, map[string]string{"/profile": echoPage(echo.URL)})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	m := sessions.NewShared(drivertest.Driver(t))
	defer m.Close()
	call := func(method string, req any) string {
		t.Helper()
		p, _ := json.Marshal(req)
		res, err := m.Handle(ctx, "traced", method, p)
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return jsonOf(res)
	}
	call(calls.MethodTraceStart, calls.Empty{})
	replies := map[string]string{}
	replies["open"] = call(calls.MethodOpen, calls.OpenRequest{URL: srv.URL("/profile")})
	replies["form fill"] = call(calls.MethodFormFill, calls.FormFillRequest{Secrets: map[string]string{"memo": typedSecret}})
	replies["snapshot"] = call(calls.MethodSnapshot, calls.SnapshotRequest{Full: true})
	replies["click"] = call(calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: "text=Go"})
	replies["page info"] = call(calls.MethodSnapshot, calls.SnapshotRequest{})
	replies["tabs"] = call(calls.MethodTab, calls.TabRequest{})
	replies["eval"] = call(calls.MethodEval, calls.EvalRequest{Expression: "document.title"})
	replies["trace"] = call(calls.MethodTraceStop, calls.Empty{})
	if !strings.Contains(replies["snapshot"], "Saved «secret:memo»") {
		t.Errorf("the page did not echo the secret, or its echo is not named: %s", replies["snapshot"])
	}
	noSpelling(t, typedSecret, replies)
}

// A secret typed by doc insert --secret, which the document then holds
// and the page echoes into its title and console: masked in doc read, a
// look, the console and the insert's own reply.
func TestDocInsertSecretIsMasked(t *testing.T) {
	t.Parallel()
	srv := NewServer(t, map[string]string{"/doc": `<!doctype html><title>Notes</title>
<div contenteditable="true" id=ed><p>Dear Ann,</p></div>
<script>ed.addEventListener('input', () => { document.title = ed.innerText.trim(); console.log('doc: ' + ed.innerText) })</script>`})
	s, ctx := secretSession(t, srv.URL("/doc"))
	if _, err := s.Wait(ctx, calls.WaitRequest{Selector: "[contenteditable]"}); err != nil {
		t.Fatal(err)
	}
	ins, err := s.DocInsert(ctx, calls.DocInsertRequest{End: true, Text: typedSecret, Secret: "phrase"})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := s.DocRead(ctx, calls.DocReadRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc.Text, "«secret:phrase»") {
		t.Errorf("doc read does not show the mark where the secret is: %q", doc.Text)
	}
	waitConsole(t, s, ctx, "doc: ")
	snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Full: true})
	if err != nil {
		t.Fatal(err)
	}
	con, _ := s.Console(ctx, calls.ConsoleRequest{})
	noSpelling(t, typedSecret, map[string]string{
		"the insert's reply": jsonOf(ins),
		"doc read":           jsonOf(doc),
		"a look":             snap.Text + snap.Title,
		"the console":        jsonOf(con),
	})
}

// A secret written into a spreadsheet cell, which the page then sends in
// a request of its own and keeps in its storage: masked in a capture file
// and its HAR as in the network log. Before, a capture learnt only act's
// values and held the cell's secret raw.
func TestSheetSecretIsMaskedInCapture(t *testing.T) {
	t.Parallel()
	s, ctx := session(t)
	srv := apptest.Sheet(t, apptest.SheetOptions{Data: [][]string{{"user", "phrase"}, {"ann", ""}}})
	if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Wait(ctx, calls.WaitRequest{Selector: ".jss_worksheet td[data-x='0'][data-y='0']"}); err != nil {
		t.Fatalf("the sheet was not drawn: %v", err)
	}
	if _, err := s.StartCapture(ctx, calls.CaptureStartRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SheetWrite(ctx, calls.SheetWriteRequest{Cell: "B2", Value: typedSecret, Secret: "phrase"}); err != nil {
		t.Fatal(err)
	}
	// The page echoes the cell: a request of its own, and its storage.
	if _, err := s.Eval(ctx, calls.EvalRequest{MainWorld: true, Expression: `(() => {
  const v = String(window.sheet.getValueFromCoords(1, 1));
  localStorage.setItem('draft', v);
  return fetch('/autosave?cell=' + encodeURIComponent(v)).then(() => v.length);
})()`}); err != nil {
		t.Fatal(err)
	}
	capt, err := s.StopCapture(ctx, calls.CaptureStopRequest{HAR: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(capt.Capture), "/autosave") {
		t.Fatalf("the capture missed the page's request:\n%s", capt.Capture)
	}
	g, err := s.SheetRead(ctx, calls.SheetReadRequest{Range: "A2:B2"})
	if err != nil {
		t.Fatal(err)
	}
	netw, _ := s.Network(ctx, calls.NetworkRequest{})
	noSpelling(t, typedSecret, map[string]string{
		"the capture file": string(capt.Capture),
		"the HAR":          string(capt.HAR),
		"the network log":  jsonOf(netw),
		"a sheet read":     jsonOf(g),
	})
}
