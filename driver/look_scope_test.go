package driver_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/waymark-dev/waymark/calls"
)

// TestScopeRefusalsNameNoFlag: a scope that finds nothing is refused in
// words every front reads (an MCP client's scope argument, a program's
// SnapshotRequest.Scope), not the CLI's --scope.
func TestScopeRefusalsNameNoFlag(t *testing.T) {
	s, ctx := newSession(t)
	srv := serve(t, map[string]string{"/": `<button>Go</button><div id="hidden" style="display:none"><button>Off</button></div>`})
	open(t, s, ctx, srv.URL+"/")
	for _, scope := range []string{"#nope", "#hidden"} {
		_, err := s.Snapshot(ctx, calls.SnapshotRequest{Scope: scope})
		if err == nil {
			t.Fatalf("scope %s: no error", scope)
		}
		if msg := err.Error() + " hint: " + calls.Hint(err); !errors.Is(err, calls.ErrNoMatch) || strings.Contains(msg, "--") {
			t.Errorf("scope %s: %s", scope, msg)
		}
	}
}
