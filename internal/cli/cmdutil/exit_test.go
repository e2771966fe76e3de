package cmdutil

import (
	"testing"

	"github.com/waymark-dev/waymark/calls"
	"github.com/waymark-dev/waymark/replay"
)

// TestReplayExits: each replay cause has its own status, apart from the
// usage and unavailable errors and from drift's.
func TestReplayExits(t *testing.T) {
	want := map[replay.Cause]int{
		replay.CauseNone: 0, replay.CauseFailed: 1, replay.CauseLandedAway: 10, replay.CauseSignIn: 11,
		replay.CauseVerify: 12, replay.CauseReplaced: 13, replay.CauseAmbiguous: 14, replay.CauseMissing: 15,
		replay.CauseNeedsApproval: 16, replay.CauseNeedsModel: 17, replay.CausePopup: 18, replay.CauseCanceled: 130,
		"a cause from a newer replay": 1,
	}
	seen := map[int]replay.Cause{}
	for c, n := range want {
		if got := ReplayExit(c); got != n {
			t.Errorf("replayExit(%q) = %d, want %d", c, got, n)
		}
	}
	for c := range replayExits {
		n := ReplayExit(c)
		if prev, dup := seen[n]; dup {
			t.Errorf("%s and %s share exit status %d", c, prev, n)
		}
		seen[n] = c
		if n == ExitUsage || n == ExitUnavailable || n == DriftExitMoved || n == DriftExitBroken {
			t.Errorf("%s exits %d, a status that means something else", c, n)
		}
	}
}

func TestDriftExit(t *testing.T) {
	tests := []struct {
		counts map[string]int
		want   int
	}{
		{map[string]int{calls.Found: 3}, DriftExitFound},
		{map[string]int{calls.Found: 2, replay.DriftUnreached: 1}, DriftExitFound},
		{map[string]int{calls.Found: 2, calls.Moved: 1}, DriftExitMoved},
		{map[string]int{calls.Moved: 1, calls.Missing: 1}, DriftExitBroken},
		{map[string]int{replay.DriftElsewhere: 1}, DriftExitBroken},
	}
	for _, tt := range tests {
		if got := DriftExit(&replay.DriftReport{Counts: tt.counts}); got != tt.want {
			t.Errorf("driftExit(%v) = %d, want %d", tt.counts, got, tt.want)
		}
	}
}
