package adversarial

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// The NetLog is the browser's, not a session's: a summary holds every
// request of the span, whichever session made it. A value one session
// typed as a secret, which its page then put in a request's path, must
// not come back in that session's summary nor in another session's of
// the same browser (the daemon's sessions share one Chromium). Before,
// a NetLog summary was redacted by the heuristic only: no session's
// registry reached it, and a passphrase in a path was raw in both.
func TestNetLogHoldsNoSessionsSecret(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := driver.Launch(ctx, driver.Options{ExecPath: browsertest.Chrome(t), Args: browsertest.GuardArgs,
		NetLog: filepath.Join(t.TempDir(), "net.json")})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	srv := NewServer(t, map[string]string{"/profile": `<!doctype html><title>Profile</title>
<label>Memo <input name=memo id=memo></label>
<script>memo.addEventListener('change', () => fetch('/notes/' + encodeURIComponent(memo.value) + '/saved'))</script>`})
	since := time.Now()
	a, err := b.Session(ctx, "typist")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Open(ctx, calls.OpenRequest{URL: srv.URL("/profile")}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.FillForm(ctx, calls.FormFillRequest{Secrets: map[string]string{"memo": typedSecret}}); err != nil {
		t.Fatal(err)
	}
	waitNetLog := func(s *driver.Session) *calls.NetLogResult {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			nl, err := s.NetLog(ctx, calls.NetLogRequest{SinceUnixMS: since.UnixMilli()})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(nl.Markdown+string(nl.Summary), "/saved") || time.Now().After(deadline) {
				return nl
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if srv.Count("GET", "/notes/"+typedSecret+"/saved") != 1 {
		t.Fatalf("the page did not send the memo in a path: %v", srv.Requests())
	}
	other, err := b.Session(ctx, "reader")
	if err != nil {
		t.Fatal(err)
	}
	mine, theirs := waitNetLog(a), waitNetLog(other)
	if !strings.Contains(mine.Markdown+string(mine.Summary), "/saved") {
		t.Fatalf("the NetLog has no request of the page:\n%s", mine.Markdown)
	}
	noSpelling(t, typedSecret, map[string]string{
		"the typing session's NetLog summary": mine.Markdown + mine.Brief + string(mine.Summary),
		"another session's NetLog summary":    theirs.Markdown + theirs.Brief + string(theirs.Summary),
	})
}
