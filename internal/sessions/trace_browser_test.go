package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/internal/testplan"
)

// TestTrace traces a session through the daemon's handler, as the CLI's
// commands reach it: every call with its outcome, a screenshot before and
// after each that may change the page (the clicked button outlined in
// red before), the console messages and requests of each call, a failed
// call with its code, a secret masked; the trace renders as an HTML
// report with its images inside.
func TestTrace(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/save":
			http.Error(w, "nope", http.StatusInternalServerError)
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<title>T</title><style>button { font-size: 28px; padding: 12px 30px }</style>
<label>Token <input></label> <button id=b onclick="console.error('save failed badly'); fetch('/api/save').then(() => document.body.append('all saved'))">Save</button>`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close) // after the harness closes its sessions
	h := newHarness(t, 90*time.Second)
	call := func(method string, req any) (any, error) { return h.call("trace-traced", method, req) }
	if _, err := call(calls.MethodTraceStop, calls.Empty{}); !errors.Is(err, calls.ErrBadInput) {
		t.Fatalf("stop before start: %v", err)
	}
	if _, err := call(calls.MethodTraceStart, calls.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := call(calls.MethodTraceStart, calls.Empty{}); !errors.Is(err, calls.ErrBadInput) {
		t.Fatalf("second start: %v", err)
	}
	steps := []struct {
		method string
		req    any
	}{
		{calls.MethodOpen, calls.OpenRequest{URL: srv.URL + "/"}},
		{calls.MethodAct, calls.ActRequest{Kind: calls.ActFill, Target: "label=Token", Value: "tok-Zq9Lm2Xw7", Secret: "TOKEN"}},
		{calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b"}},
		{calls.MethodWait, calls.WaitRequest{Text: "all saved", TimeoutMS: 5000}},
		{calls.MethodAct, calls.ActRequest{Kind: calls.ActClick, Target: "text=Nothing like this", TimeoutMS: 300}},
		{calls.MethodSnapshot, calls.SnapshotRequest{}},
	}
	for i, st := range steps {
		_, err := call(st.method, st.req)
		if (err != nil) != (i == 4) {
			t.Fatalf("call %d %s: %v", i+1, st.method, err)
		}
	}
	res, err := call(calls.MethodTraceStop, calls.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.(*calls.Trace)
	if tr.Format != calls.TraceFormat || len(tr.Entries) != len(steps) {
		t.Fatalf("trace: %d entries, format %q", len(tr.Entries), tr.Format)
	}
	for i, e := range tr.Entries {
		shots := e.Method != calls.MethodWait && e.Method != calls.MethodSnapshot
		if e.Index != i+1 || e.Method != steps[i].method || (len(e.After) > 0) != shots {
			t.Errorf("entry %d: %s, before %d bytes, after %d bytes", i+1, e.Method, len(e.Before), len(e.After))
		}
	}
	fill, click, failed := tr.Entries[1], tr.Entries[2], tr.Entries[4]
	if strings.Contains(string(fill.Params), "Zq9Lm2Xw7") || !strings.Contains(string(fill.Params), "«secret:TOKEN»") {
		t.Errorf("fill params not masked: %s", fill.Params)
	}
	if failed.OK || failed.Code != "not_found" || failed.Error == "" {
		t.Errorf("failed call: %+v", failed)
	}
	if !click.OK || len(click.Before) == 0 || reds(t, click.Before) < 200 || reds(t, click.After) > 0 {
		t.Errorf("click: ok %v, red pixels before %d after %d", click.OK, reds(t, click.Before), reds(t, click.After))
	}
	var logged []string
	for _, c := range click.Console {
		logged = append(logged, c.Level+" "+c.Text)
	}
	if !strings.Contains(strings.Join(logged, "\n"), "error save failed badly") {
		t.Errorf("console of the click: %q", logged)
	}
	// The fetch may end after the click returns: it is in the click's
	// requests or the wait's, with its status once it ended.
	var saved []calls.Request
	for _, e := range tr.Entries[2:4] {
		for _, r := range e.Requests {
			if strings.HasSuffix(r.URL, "/api/save") && !r.Pending {
				saved = append(saved, r)
			}
		}
	}
	if len(saved) != 1 || saved[0].Status != 500 {
		t.Errorf("the save request: %+v", saved)
	}
	timeKeys(t, "", tr) // the trace, its calls, their console and requests

	var b bytes.Buffer
	if err := testplan.TraceHTML(&b, tr); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	pictures := 0
	for _, e := range tr.Entries {
		for _, p := range [][]byte{e.Before, e.After} {
			if len(p) > 0 {
				pictures++
			}
		}
	}
	// Before and after each of the four calls that change the page; the
	// first call (open) started the browser: nothing to picture before.
	if n := strings.Count(page, `src="data:image/png;base64,`); pictures < 7 || n != pictures {
		t.Errorf("report has %d images, the trace %d", n, pictures)
	}
	for _, want := range []string{"click css=#b", "fill label=Token «secret:TOKEN»", "not_found", "save failed badly", "/api/save → HTTP 500"} {
		if !strings.Contains(page, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(page, "Zq9Lm2Xw7") {
		t.Error("report holds the secret")
	}
}

// reds counts the outline's red pixels in a PNG.
func reds(t *testing.T, data []byte) int {
	t.Helper()
	if len(data) == 0 {
		return 0
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 > 0xe0 && g>>8 < 0x40 && bl>>8 < 0x80 {
				n++
			}
		}
	}
	return n
}

// timeKeys checks what the keys of v's JSON say they hold (docs/json.md):
// a key ending in unix_ms a moment (Unix milliseconds), every other
// *_ms a duration, here under a day. An epoch named time_ms or
// started_ms read as a duration of 56 years.
func timeKeys(t *testing.T, path string, v any) {
	t.Helper()
	if path == "" {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		v = nil
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if n, ok := e.(float64); ok && strings.HasSuffix(k, "_ms") {
				moment := strings.HasSuffix(k, "unix_ms")
				if moment && n < 1e12 || !moment && n > 24*3600*1000 {
					t.Errorf("%s.%s = %.0f: a key ending in unix_ms holds a moment, every other *_ms a duration", path, k, n)
				}
			}
			timeKeys(t, path+"."+k, e)
		}
	case []any:
		for i, e := range x {
			timeKeys(t, fmt.Sprintf("%s[%d]", path, i), e)
		}
	}
}
