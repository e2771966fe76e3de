//go:build evals

package rules

import (
	"os"
	"testing"
	"time"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/evals/evaltest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// TestOutlines prints the outline the model sees of one task of every
// family, with RULES_OUTLINES=1: for writing the rules, not a measure.
func TestOutlines(t *testing.T) {
	if os.Getenv("RULES_OUTLINES") == "" {
		t.Skip("RULES_OUTLINES=1 prints the outlines")
	}
	for _, task := range Generate(uint64(evaltest.Int("RULES_SEED", 31)), 4*len(families)) {
		if f := os.Getenv("RULES_FAMILY"); f != "" && f != task.Family {
			continue
		}
		srv := serve(t, task)
		s, ctx := drivertest.Session(t, task.Name, 30*time.Second)
		if _, err := s.Open(ctx, calls.OpenRequest{URL: srv.URL("/")}); err != nil {
			t.Fatal(err)
		}
		snap, err := s.Snapshot(ctx, calls.SnapshotRequest{Interactive: true, Full: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s\n%s", task.Name, snap.Text)
	}
}
