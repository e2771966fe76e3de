package driver_test

import (
	"context"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/driver"
	"github.com/waymark-dev/waymark/internal/browsertest"
)

// TestAfterWatchIsTheTabsAlone: a click's watch going on after its step
// (sendgate_after.go) judges its own tab's sends only: another session's
// POST in the same browser goes meanwhile; and once the session closes,
// the browser target's patterns are narrowed again (no watcher is left).
// In a browser of its own, whose count of watchers no other test moves.
func TestAfterWatchIsTheTabsAlone(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := driver.Launch(ctx, driver.Options{ExecPath: browsertest.Chrome(t), Args: browsertest.GuardArgs})
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	defer b.Close()
	srv := serve(t, map[string]string{
		"/a": `<!doctype html><title>A</title><button type=button id=b onclick="document.addEventListener('go',()=>fetch('/pay',{method:'POST',body:'card=4242'}),{once:true})">Continue</button>`,
		"/b": `<!doctype html><title>B</title><script>document.addEventListener('go',()=>fetch('/save',{method:'POST',body:'order=1'}).then(()=>document.body.append('saved')))</script>`,
	})
	a, err := b.Session(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	other, err := b.Session(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	defer b.CloseSession("b")
	if _, err := a.Open(ctx, calls.OpenRequest{URL: srv.URL + "/a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Open(ctx, calls.OpenRequest{URL: srv.URL + "/b"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Act(ctx, calls.ActRequest{Kind: calls.ActClick, Target: "css=#b", Submits: "ask"}); err != nil {
		t.Fatal(err)
	}
	if n := driver.Watchers(b); n == 0 {
		t.Fatal("no watch goes on after the click")
	}
	// Session b's own POST, while a's click is still watched.
	if _, err := other.Eval(ctx, calls.EvalRequest{Expression: `document.dispatchEvent(new Event('go')), true`}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Wait(ctx, calls.WaitRequest{Text: "saved", TimeoutMS: 10000}); err != nil {
		t.Fatalf("session b's POST, with session a's click watched: %v", err)
	}
	b.CloseSession("a")
	for deadline := time.Now().Add(5 * time.Second); driver.Watchers(b) != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d watchers left after the session closed", driver.Watchers(b))
		}
	}
}
