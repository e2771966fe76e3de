package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRecordAfterOpenReplaysInANewSession is the natural order a newcomer
// takes (issue 28, item 1): open the page, then record start, act, record
// stop; the routine replays in a new session, whose tab opens on
// about:blank, with no model: record start recorded the page the tab was
// on as the first step and said so. The server counts the replay's visits.
func TestRecordAfterOpenReplaysInANewSession(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "record-open")
	var product, details atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/products/1":
			product.Add(1)
			fmt.Fprint(w, `<!doctype html><title>Mug</title><h1>Mug</h1><a href="/products/1/details">Details</a>`)
		case "/products/1/details":
			details.Add(1)
			fmt.Fprint(w, `<!doctype html><title>Mug details</title><p>Stoneware, 350 ml</p>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	rec := []string{"--session", "rec-open"}
	defer c.run(append(rec, "close")...)
	c.ok(append(rec, "open", srv.URL+"/products/1")...)
	start := c.run(append(rec, "record", "start")...)
	if start.code != 0 || !strings.Contains(start.stderr, "recording from "+srv.URL+"/products/1 (the first step opens it)") {
		t.Fatalf("record start does not say it records the page the tab is on: %d\n%s%s", start.code, start.stdout, start.stderr)
	}
	c.ok(append(rec, "click", "text=Details")...)
	file := filepath.Join(t.TempDir(), "mug.json")
	stop := c.run(append(rec, "record", "stop", file)...)
	if stop.code != 0 || strings.Contains(stop.stderr, "no start page") {
		t.Fatalf("record stop: %d\n%s%s", stop.code, stop.stdout, stop.stderr)
	}
	saved, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rt struct {
		Steps []struct {
			Kind string `json:"kind"`
			URL  string `json:"url"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(saved, &rt); err != nil || len(rt.Steps) != 2 || rt.Steps[0].Kind != "goto" || rt.Steps[0].URL != srv.URL+"/products/1" {
		t.Fatalf("want a goto of the page, then the click (%v):\n%s", err, saved)
	}

	product.Store(0)
	details.Store(0)
	fresh := []string{"--session", "rec-open-replay"}
	defer c.run(append(fresh, "close")...)
	var res struct {
		Status     string `json:"status"`
		Cause      string `json:"cause"`
		Message    string `json:"message"`
		ModelCalls int    `json:"model_calls"`
	}
	out := strings.TrimSpace(c.ok(append(append([]string{"--json"}, fresh...), "replay", file)...))
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal([]byte(out[strings.LastIndexByte(out, '\n')+1:]), &env); err != nil || json.Unmarshal(env.Data, &res) != nil {
		t.Fatalf("replay --json: %v\n%s", err, out)
	}
	if res.Status != "ok" || res.ModelCalls != 0 {
		t.Fatalf("replay in a new session: %+v", res)
	}
	if product.Load() != 1 || details.Load() != 1 {
		t.Fatalf("the server saw %d visits of the product and %d of its details; want 1 and 1", product.Load(), details.Load())
	}
}

// TestNoStartPageSaysSo: a routine recorded from about:blank whose first
// step is not an open is warned of at record stop, and its replay in a
// new session says the routine has no start page and how to add one, not
// to configure a model.
func TestNoStartPageSaysSo(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "record-open")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Mug</title><a href="#more">More</a>`)
	}))
	t.Cleanup(srv.Close)
	rec := []string{"--session", "rec-blank"}
	defer c.run(append(rec, "close")...)
	// A routine with no start page: its first step a click, as a routine
	// written by hand (or recorded by an old waymark) can be.
	file := filepath.Join(t.TempDir(), "more.json")
	routine := `{"format":"waymark.routine/1","name":"more","version":1,"steps":[{"id":"click","kind":"act","op":"click","target":{"locator":"text=More","fingerprint":{"role":"link","name":"More","text":"More","tag":"a"}}}]}`
	if err := os.WriteFile(file, []byte(routine), 0o600); err != nil {
		t.Fatal(err)
	}
	r := c.run(append(rec, "replay", file)...)
	if r.code != 15 || !strings.Contains(r.stderr, "no start page") || strings.Contains(r.stderr, "configure a model") {
		t.Fatalf("replay of a routine with no start page: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	start := c.run(append(rec, "record", "start")...)
	if start.code != 0 || !strings.Contains(start.stderr, "open the page the routine starts on first") {
		t.Fatalf("record start on about:blank: %d\n%s", start.code, start.stderr)
	}
	c.ok(append(rec, "press", "Tab")...) // a step that opens nothing
	stop := c.run(append(rec, "record", "stop", filepath.Join(t.TempDir(), "blank.json"))...)
	if stop.code != 0 || !strings.Contains(stop.stderr, "warning: the routine has no start page") {
		t.Fatalf("record stop of a routine with no start page does not warn: %d\n%s", stop.code, stop.stderr)
	}
}

// TestOpenLocalFile: `open file://…` is refused by default with a hint
// that can open it; with --allow-files given to the daemon it opens
// (issue 28, item 6).
func TestOpenLocalFile(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "files")
	const mark = "local-report-91c2"
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, []byte(`<!doctype html><title>Report</title><h1>`+mark+`</h1>`), 0o600); err != nil {
		t.Fatal(err)
	}
	u := "file://" + filepath.ToSlash(path)
	s := []string{"--session", "files"}
	// The daemon is restarted with --allow-files below: the next run
	// (go test -count=2) must start with a daemon that refuses files.
	t.Cleanup(func() { c.run("daemon", "stop") })
	defer c.run(append(s, "close")...)
	r := c.run(append(s, "open", u)...)
	if r.code == 0 || !strings.Contains(r.stderr, "files = true in [policy]") || !strings.Contains(r.stderr, "python3 -m http.server") || strings.Contains(r.stderr, "allow and block lists") {
		t.Fatalf("open a local file by default: exit %d\n%s", r.code, r.stderr)
	}
	c.ok("--allow-files", "daemon", "restart")
	c.ok(append([]string{"--allow-files"}, append(s, "open", u)...)...)
	if out := c.ok(append([]string{"--allow-files"}, append(s, "snapshot")...)...); !strings.Contains(out, mark) {
		t.Fatalf("the local file's page:\n%s", out)
	}
}
