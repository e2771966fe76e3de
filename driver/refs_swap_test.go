package driver_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

var refRE = regexp.MustCompile(`\[ref=(e\d+)\]`)

// refLines maps each ref of an outline to its line.
func refLines(outline string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(outline, "\n") {
		if m := refRE.FindStringSubmatch(line); m != nil {
			out[m[1]] = strings.TrimSpace(line)
		}
	}
	return out
}

// TestRefsSurviveRendererSwap: a ref names one element for the life of
// the session. After an error page the next page runs in a new renderer,
// whose node ids start again from where the first page's did; its
// elements must get refs of their own, not the first page's (before the
// fix, the login page's Password field took the ref Quantity had had).
func TestRefsSurviveRendererSwap(t *testing.T) {
	t.Parallel()
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{
		"/product": `<title>Product</title><h1>Trail Mug</h1><form><label>Quantity <input type=number value=1></label>
<label>Note <input></label><button>Add to cart</button></form><a href="/cart">Cart</a>`,
		"/login": `<title>Login</title><h1>Sign in</h1><form><label>Email <input type=email></label>
<label>Password <input type=password></label><label>Remember me <input type=checkbox></label><button>Sign in</button></form>`,
	})
	open(t, s, ctx, srv.URL+"/product")
	first := refLines(snapshot(t, s, ctx, calls.SnapshotRequest{}))
	if len(first) < 4 {
		t.Fatalf("refs on the first page: %v", first)
	}
	// Nothing listens on port 9: Chromium shows its error page, in a
	// renderer of its own.
	_, _ = s.Open(ctx, calls.OpenRequest{URL: "http://127.0.0.1:9/"})
	_ = snapshot(t, s, ctx, calls.SnapshotRequest{})
	open(t, s, ctx, srv.URL+"/login")
	second := refLines(snapshot(t, s, ctx, calls.SnapshotRequest{}))
	if len(second) < 4 {
		t.Fatalf("refs on the login page: %v", second)
	}
	for ref, line := range second {
		if old, ok := first[ref]; ok {
			t.Errorf("%s names %q now, and named %q on the first page", ref, line, old)
		}
	}
	// An old ref is refused as gone, never taken for the new element.
	for ref := range first {
		if _, err := s.Act(ctx, calls.ActRequest{Kind: calls.ActFocus, Target: "@" + ref}); err == nil {
			t.Errorf("focus @%s of the first page worked on the login page", ref)
		}
	}
}
