package hand

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHandKeepsItsPlace(t *testing.T) {
	for seed := range int64(200) {
		h := New(seed)
		h.SetView(Size{W: 1024, H: 600})
		rest := h.Place()
		if rest.X < 0 || rest.Y < 0 || rest.X >= 1024 || rest.Y >= 600 || rest != rest.round() {
			t.Fatalf("seed %d: resting point %v is not a whole pixel in a 1024×600 view", seed, rest)
		}
		first := h.MoveTo(Point{500.4, 80}, Size{W: 60, H: 24})
		if first[0] != (Move{P: rest, At: 0}) {
			t.Fatalf("seed %d: first move starts %v, want the resting point %v at 0", seed, first[0], rest)
		}
		if got, want := first[len(first)-1].P, (Point{500, 80}); got != want {
			t.Fatalf("seed %d: first move ends on %v, want %v", seed, got, want)
		}
		if got := h.Place(); got != (Point{500, 80}) {
			t.Fatalf("seed %d: Place after the move = %v, want (500, 80)", seed, got)
		}
		second := h.MoveTo(Point{700, 300}, Size{W: 40, H: 40})
		if second[0].At == 0 || second[0].P == (Point{500, 80}) {
			t.Fatalf("seed %d: second move starts with %v, want the first step away from (500, 80)", seed, second[0])
		}
		if d := second[0].P; abs(d.X-500) > 20 || abs(d.Y-80) > 20 {
			t.Fatalf("seed %d: second move's first step %v is far from the last place (500, 80)", seed, d)
		}
		if again := h.MoveTo(Point{700, 300}, Size{}); again != nil {
			t.Fatalf("seed %d: moving to where the pointer is = %v, want nil", seed, again)
		}
		h.Reset()
		third := h.MoveTo(Point{700, 300}, Size{W: 40, H: 40})
		if third[0].At != 0 {
			t.Fatalf("seed %d: after Reset the move starts %v, want a resting point at 0", seed, third[0])
		}
	}
}

func TestHandSeeded(t *testing.T) {
	plan := func(seed int64) []Move {
		h := New(seed)
		a := h.MoveTo(Point{300, 200}, Size{W: 50, H: 20})
		return append(a, h.MoveTo(Point{900, 650}, Size{W: 50, H: 20})...)
	}
	if diff := cmp.Diff(plan(3), plan(3)); diff != "" {
		t.Errorf("same seed, different plans (-first +second):\n%s", diff)
	}
	if cmp.Equal(plan(3), plan(4)) {
		t.Errorf("seeds 3 and 4 plan the same moves")
	}
}

func abs(x float64) float64 { return max(x, -x) }
