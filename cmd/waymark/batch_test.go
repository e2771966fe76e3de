package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/batch"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// batchStatus is the part of `batch status --json` the test reads.
type batchStatus struct {
	ID        string `json:"id"`
	State     string `json:"state"`
	Total     int    `json:"total"`
	Done      int    `json:"done"`
	OK        int    `json:"ok"`
	Uncertain int    `json:"uncertain"`
	Failed    int    `json:"failed"`
}

// TestBatchSurvivesADaemonRestart records a routine with the CLI, runs it
// over 30 rows as a batch in the daemon, stops the daemon mid-batch and
// starts it again: the batch resumes by itself, every row has one result,
// and no row pressed "Add to cart" twice.
func TestBatchSurvivesADaemonRestart(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "batch")
	site, base := demoSite(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "add.json")
	s := []string{"--session", "rec"}
	c.ok(append(s, "record", "start")...)
	c.ok(append(s, "open", base+"/products/3")...)
	out := c.ok(append(s, "snapshot", "-i")...)
	c.ok(append(s, "click", refOn(t, out, "button", "Add to cart"))...)
	c.ok(append(s, "record", "stop", file)...)
	c.ok(append(s, "close")...)
	before := len(site.Sessions())

	const rows = 30
	var in strings.Builder
	for i := range rows {
		fmt.Fprintf(&in, "{\"n\": %d}\n", i+1)
	}
	inputs := filepath.Join(dir, "rows.jsonl")
	if err := os.WriteFile(inputs, []byte(in.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	var st batchStatus
	c.jsonData(&st, "batch", file, "--inputs", inputs, "--parallel", "2", "--key", "n", "--allow-submit", "--detach")
	if st.ID == "" || st.Total != rows {
		t.Fatalf("submitted %+v", st)
	}
	wait := func(done int) batchStatus {
		deadline := time.Now().Add(3 * time.Minute)
		for {
			var now batchStatus
			c.jsonData(&now, "batch", "status", st.ID)
			if now.Done >= done || now.State != "running" {
				return now
			}
			if time.Now().After(deadline) {
				t.Fatalf("batch stuck at %+v", now)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	mid := wait(5)
	c.ok("daemon", "stop")
	t.Logf("stopped the daemon at %d of %d rows", mid.Done, rows)
	// Any command starts the daemon again; it resumes the batch at once.
	final := wait(rows)
	if final.State != "done" || final.Done != rows || final.OK+final.Uncertain != rows {
		t.Fatalf("after the restart: %+v", final)
	}
	res := filepath.Join(dir, "results.jsonl")
	c.ok("batch", "results", st.ID, "--out", res)
	b, err := os.ReadFile(res)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct {
			N      int    `json:"n"`
			Status string `json:"status"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("result line %q: %v", line, err)
		}
		if _, dup := seen[r.N]; dup {
			t.Errorf("row %d has two results", r.N)
		}
		seen[r.N] = r.Status
	}
	if len(seen) != rows {
		t.Errorf("%d rows have results, want %d", len(seen), rows)
	}
	// One cart line of one unit per row that pressed: each row ran in a
	// fresh session (cookies cleared), and none pressed twice.
	units := 0
	for _, sid := range site.Sessions()[before:] {
		for _, it := range site.Session(sid).Cart {
			units += it.Qty
			if it.Qty != 1 {
				t.Errorf("session %s: %d units", sid, it.Qty)
			}
		}
	}
	if units < final.OK || units > rows {
		t.Errorf("%d units in carts for %d ok and %d uncertain rows", units, final.OK, final.Uncertain)
	}

	// Submitted again with the same key: every row is skipped.
	// With --json, a "row" event a line, then the envelope.
	lines := strings.Split(strings.TrimSpace(c.ok("--json", "batch", file, "--inputs", inputs, "--key", "n", "--allow-submit")), "\n")
	var env struct {
		OK   bool        `json:"ok"`
		Data batchStatus `json:"data"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &env); err != nil || len(lines) != rows+1 || !strings.Contains(lines[0], `"type":"row"`) {
		t.Fatalf("batch --json: %d lines, last %q (%v)", len(lines), lines[len(lines)-1], err)
	}
	again := env.Data
	if again.State != "done" || again.Done != rows || again.OK != 0 {
		t.Errorf("the batch again: %+v", again)
		for _, l := range lines {
			if !strings.Contains(l, `"skipped"`) {
				t.Logf("again: %s", l)
			}
		}
		t.Logf("first:\n%s", b)
	}
}

// TestWorkerProcessTakesRows: the daemon's embedded server listens on
// loopback ([batch] listen in waymark.toml); `waymark worker --nats` in
// another process takes rows of the daemon's batch and runs them in its
// own browser.
func TestWorkerProcessTakesRows(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "wk")
	// The daemon's NATS listens where this run's waymark.toml says: the
	// next run (go test -count=2) picks another port and needs a daemon
	// that reads it.
	t.Cleanup(func() { c.dir = ""; c.run("daemon", "stop") }) // c.dir, a TempDir, is gone by then
	_, base := demoSite(t)
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	if err := os.WriteFile(filepath.Join(dir, "waymark.toml"), []byte("[batch]\nlisten = \""+addr+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c.dir = dir
	file := filepath.Join(dir, "add.json")
	s := []string{"--session", "rec"}
	c.ok(append(s, "record", "start")...)
	c.ok(append(s, "open", base+"/products/5")...)
	out := c.ok(append(s, "snapshot", "-i")...)
	c.ok(append(s, "click", refOn(t, out, "button", "Add to cart"))...)
	c.ok(append(s, "record", "stop", file)...)
	c.ok(append(s, "close")...)

	const rows = 16
	var in strings.Builder
	for i := range rows {
		fmt.Fprintf(&in, "{\"n\": %d}\n", i+1)
	}
	inputs := filepath.Join(dir, "rows.jsonl")
	if err := os.WriteFile(inputs, []byte(in.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	// The worker first, so it is ready when the rows come.
	w := exec.Command(binPath, "worker", "--nats", "nats://"+addr, "--parallel", "2", "--name", "ext")
	w.Dir = dir
	w.Env = append(os.Environ(), "WAYMARK_SOCKET="+c.socket, "WAYMARK_BROWSER_ARGS="+strings.Join(browsertest.GuardArgs, "\n"))
	var werr strings.Builder
	w.Stderr = &werr
	// The embedded server starts with the daemon's first batch call.
	var list struct{}
	c.jsonData(&list, "batch", "status")
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = w.Process.Signal(syscall.SIGINT)
		_ = w.Wait()
		if t.Failed() {
			t.Logf("worker stderr:\n%s", werr.String())
		}
	})
	var st batchStatus
	c.jsonData(&st, "batch", file, "--inputs", inputs, "--parallel", "1", "--allow-submit", "--detach")
	deadline := time.Now().Add(3 * time.Minute)
	for st.State != "done" {
		if time.Now().After(deadline) {
			t.Fatalf("batch stuck at %+v", st)
		}
		time.Sleep(300 * time.Millisecond)
		c.jsonData(&st, "batch", "status", st.ID)
	}
	var res struct {
		Results []struct {
			N      int    `json:"n"`
			Status string `json:"status"`
			Worker string `json:"worker"`
			Exit   int    `json:"exit"`
		} `json:"results"`
	}
	c.jsonData(&res, "batch", "results", st.ID)
	byWorker := map[string]int{}
	for _, r := range res.Results {
		byWorker[r.Worker]++
		if r.Status != "ok" || r.Exit != 0 {
			t.Errorf("row %d: %s exit %d", r.N, r.Status, r.Exit)
		}
	}
	if len(res.Results) != rows || byWorker["ext"] == 0 {
		t.Fatalf("%d results, by worker %v", len(res.Results), byWorker)
	}
	t.Logf("rows by worker: %v", byWorker)
}

// TestDaemonOnExternalNATS: with [batch] nats the daemon keeps its batches
// on that NATS server (here one started by the test): the same commands,
// and the batch is read back from the server directly.
func TestDaemonOnExternalNATS(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "ext")
	_, base := demoSite(t)
	dir := t.TempDir()
	srv, err := batch.StartServer(batch.ServerOptions{Dir: t.TempDir(), Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.run("daemon", "stop")
		srv.Shutdown()
	})
	if err := os.WriteFile(filepath.Join(dir, "waymark.toml"), []byte("[batch]\nnats = \""+srv.ClientURL()+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c.dir = dir
	file := filepath.Join(dir, "add.json")
	s := []string{"--session", "rec"}
	c.ok(append(s, "record", "start")...)
	c.ok(append(s, "open", base+"/products/7")...)
	c.ok(append(s, "record", "stop", file)...)
	c.ok(append(s, "close")...)
	inputs := filepath.Join(dir, "rows.jsonl")
	if err := os.WriteFile(inputs, []byte("{}\n{}\n{}\n{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := c.ok("--json", "batch", file, "--inputs", inputs, "--parallel", "2", "--id", "ext-1")
	if !strings.Contains(out, `"state":"done"`) {
		t.Fatalf("batch: %s", out)
	}
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e, err := batch.Open(ctx, nc, batch.EngineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := e.Status(ctx, "ext-1")
	if err != nil || st.OK != 4 {
		t.Fatalf("on the NATS server: %+v, %v", st, err)
	}
}
