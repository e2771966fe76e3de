package main_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNetLogThroughTheCLI: "waymark --netlog FILE open URL" starts a daemon
// whose browser logs to FILE; once the daemon has stopped (closing its
// browser gracefully, so the log ends whole) "waymark netlog summarize"
// reads the page's request from it, with no query value.
func TestNetLogThroughTheCLI(t *testing.T) {
	t.Parallel()
	c := newCLI(t, "netlog")
	_, base := demoSite(t)
	logPath := filepath.Join(t.TempDir(), "net.json")
	c.ok("--netlog", logPath, "open", base+"/products?token=QV-7781")
	c.ok("daemon", "stop")
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := c.run("daemon", "status")
		if r.code == 0 && strings.Contains(r.stdout+r.stderr, "no daemon") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status 10 s after stop: %+v", r)
		}
		time.Sleep(50 * time.Millisecond)
	}
	type summary struct {
		Truncated bool `json:"truncated"`
		Requests  []struct {
			URL    string `json:"url"`
			Status int    `json:"status"`
		} `json:"requests"`
	}
	// The socket goes before the browser has closed: the log ends whole
	// once Chromium has exited.
	var sum summary
	for deadline := time.Now().Add(15 * time.Second); ; {
		sum = summary{}
		c.jsonData(&sum, "netlog", "summarize", logPath)
		if !sum.Truncated || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	found := false
	for _, r := range sum.Requests {
		found = found || (r.URL == base+"/products?token" && r.Status == 200)
	}
	if !found || sum.Truncated {
		t.Errorf("summary %+v: want the page's 200, a whole log", sum)
	}
	if out := c.ok("netlog", "summarize", logPath); strings.Contains(out, "QV-7781") || !strings.Contains(out, "/products?token") {
		t.Errorf("the Markdown summary:\n%s", out)
	}
}
