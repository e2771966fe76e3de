package hand

import (
	"math"
	"testing"
	"time"
)

func TestScroll(t *testing.T) {
	for _, tc := range []struct {
		dy    float64
		steps int
	}{
		{0, 0}, {0.5, 0}, {math.NaN(), 0}, {1, 1}, {99, 1}, {100, 1}, {101, 2},
		{850, 9}, {-250, 3}, {3000, 30},
	} {
		r := seeded(5)
		steps := Scroll(tc.dy, r)
		if len(steps) != tc.steps {
			t.Errorf("Scroll(%v) = %d steps, want %d", tc.dy, len(steps), tc.steps)
			continue
		}
		for i, s := range steps {
			if s.DeltaY != math.Copysign(Notch, tc.dy) {
				t.Errorf("Scroll(%v) step %d rolls %v, want one notch of %v", tc.dy, i, s.DeltaY, math.Copysign(Notch, tc.dy))
			}
			if s.Pause < 20*time.Millisecond || s.Pause > 320*time.Millisecond {
				t.Errorf("Scroll(%v) step %d pauses %v, want 20–320 ms", tc.dy, i, s.Pause)
			}
		}
		if n := len(steps); n > 0 && steps[n-1].Pause < 150*time.Millisecond {
			t.Errorf("Scroll(%v) last pause %v, want ≥ 150 ms for the scroll to settle", tc.dy, steps[n-1].Pause)
		}
	}
}

// Long scrolls come in flicks: short gaps within one, longer between.
func TestScrollFlicks(t *testing.T) {
	steps := Scroll(5000, seeded(11))
	var short, long int
	seen := map[time.Duration]bool{}
	for _, s := range steps[:len(steps)-1] {
		seen[s.Pause] = true
		if s.Pause <= 45*time.Millisecond {
			short++
		} else {
			long++
		}
	}
	// Flicks of 3–6 notches: between 1/6 and 1/3 of the gaps are long.
	gaps := len(steps) - 1
	if long < gaps/7 || long > gaps/3+1 || short < gaps/2 {
		t.Errorf("%d short and %d long gaps in %d, want flicks of 3–6 notches", short, long, gaps)
	}
	if len(seen) < gaps*9/10 {
		t.Errorf("only %d different pauses in %d, want them to vary", len(seen), gaps)
	}
}
