package driver_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// TestAStartedBrowserKeepsNoTabOfItsOwn: the blank tab Chromium starts
// with (a window and a renderer no session uses) is closed, the browser
// still counts as alive with no tab at all, before the first session and
// after the last one closes, and its death is still seen.
func TestAStartedBrowserKeepsNoTabOfItsOwn(t *testing.T) {
	t.Parallel()
	path := browsertest.Chrome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := driver.Launch(ctx, driver.Options{ExecPath: path, Args: browsertest.GuardArgs})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// pages waits up to 5 s for want page targets: Chromium answers
	// Target.closeTarget before the target is gone from its list.
	pages := func(want int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			ps, err := driver.PageTargets(ctx, b)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) == want {
				return
			}
			if time.Now().After(deadline) {
				var urls []string
				for _, p := range ps {
					urls = append(urls, string(p.BrowserContextID)+" "+p.URL)
				}
				t.Fatalf("%d page targets %q after 5 s, want %d", len(ps), urls, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	pages(0)
	if !b.Alive() {
		t.Fatal("the browser counts as gone once its first tab is closed")
	}
	srv := serve(t, map[string]string{"/": `<title>A</title><p>a`})
	s, err := b.Session(ctx, "one")
	if err != nil {
		t.Fatal(err)
	}
	open(t, s, ctx, srv.URL+"/")
	pages(1)
	if err := b.CloseSession("one"); err != nil {
		t.Fatal(err)
	}
	pages(0)
	if !b.Alive() {
		t.Fatal("the browser counts as gone with no session left")
	}
	s, err = b.Session(ctx, "two")
	if err != nil {
		t.Fatalf("a session after the last one closed: %v", err)
	}
	open(t, s, ctx, srv.URL+"/")
	if err := syscall.Kill(b.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-b.Gone():
	case <-time.After(10 * time.Second):
		t.Fatal("the browser's death not seen 10 s after it was killed")
	}
	if b.Alive() {
		t.Fatal("a killed browser counts as alive")
	}
}
