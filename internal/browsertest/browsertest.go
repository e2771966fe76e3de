// Package browsertest gives tests a real Chromium: one browser per test
// package, a fresh browser context per test. Browser tests skip only when no
// browser is found and WAYMARK_REQUIRE_BROWSER is not 1; in CI it is 1, so a
// missing browser fails instead of passing silently.
package browsertest

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/waymark-dev/waymark/internal/browser"
)

// GuardArgs are Chromium flags for tests: every host name but the loopback
// ones fails to resolve inside the browser (no DNS query leaves the
// machine), and any request that is not to loopback goes to a dead proxy on
// loopback. Test pages are served on 127.0.0.1 and localhost only.
var GuardArgs = []string{
	"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1",
	"--proxy-server=http://127.0.0.1:9",
}

// guardFlags is GuardArgs as chromedp allocator options.
func guardFlags() []chromedp.ExecAllocatorOption {
	var out []chromedp.ExecAllocatorOption
	for _, a := range GuardArgs {
		name, val, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		out = append(out, chromedp.Flag(name, val))
	}
	return out
}

// Chrome returns the path of the browser for tests, or skips or fails.
func Chrome(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test; -short")
	}
	if p := os.Getenv("WAYMARK_TEST_CHROME"); p != "" {
		return p
	}
	p, err := browser.Find(os.Getenv("WAYMARK_BROWSER"))
	if err == nil {
		return p
	}
	if os.Getenv("WAYMARK_REQUIRE_BROWSER") == "1" {
		t.Fatalf("WAYMARK_REQUIRE_BROWSER=1 and %v", err)
	}
	t.Skipf("%v; set WAYMARK_TEST_CHROME", err)
	return ""
}

var (
	once       sync.Once
	browserCtx context.Context
	browserErr error
)

// Browser returns a chromedp context whose browser is already running. It is
// shared by every test of the package; the process ends when the test binary
// exits (chromedp's allocator kills it with its process group).
func Browser(t testing.TB) context.Context {
	t.Helper()
	path := Chrome(t)
	once.Do(func() {
		actx, _ := chromedp.NewExecAllocator(context.Background(), browser.Flags(path, true, guardFlags()...)...)
		ctx, _ := chromedp.NewContext(actx)
		browserErr = chromedp.Do(ctx)
		browserCtx = ctx
	})
	if browserErr != nil {
		t.Fatalf("start browser: %v", browserErr)
	}
	return browserCtx
}

// Tab returns a context for a new tab in a new browser context (its own
// cookies and storage), closed when the test ends.
func Tab(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(Browser(t), chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open tab: %v", err)
	}
	return ctx
}
