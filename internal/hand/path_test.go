package hand

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

const runs = 2000

func seeded(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 99)) }

// trip is one planned movement and what it was asked to do.
type trip struct {
	from, to Point
	target   Size
	moves    []Move
}

func (tr trip) d() float64 {
	f, t := tr.from.round(), tr.to.round()
	return math.Hypot(t.X-f.X, t.Y-f.Y)
}

// along and across are the signed distances of p along the line from→to
// (from the start) and off it.
func (tr trip) along(p Point) float64 {
	f, t := tr.from.round(), tr.to.round()
	d := tr.d()
	return ((p.X-f.X)*(t.X-f.X) + (p.Y-f.Y)*(t.Y-f.Y)) / d
}

func (tr trip) across(p Point) float64 {
	f, t := tr.from.round(), tr.to.round()
	d := tr.d()
	return ((p.X-f.X)*(t.Y-f.Y) - (p.Y-f.Y)*(t.X-f.X)) / d
}

// randomTrip plans a movement across a 1920×1080 screen with a distance in
// [dmin, dmax), from a point that may be fractional.
func randomTrip(seed uint64, dmin, dmax float64) trip {
	r := seeded(seed)
	for {
		from := Point{r.Float64() * 1920, r.Float64() * 1080}
		d := dmin + r.Float64()*(dmax-dmin)
		a := r.Float64() * 2 * math.Pi
		to := Point{from.X + d*math.Cos(a), from.Y + d*math.Sin(a)}
		if to.X < 0 || to.Y < 0 || to.X > 1920 || to.Y > 1080 {
			continue
		}
		target := Size{10 + r.Float64()*190, 10 + r.Float64()*60}
		return trip{from, to, target, Path(from, to, target, r)}
	}
}

func TestPathShape(t *testing.T) {
	for seed := range uint64(runs) {
		tr := randomTrip(seed, 1, 1500)
		ms := tr.moves
		if tr.d() == 0 {
			if ms != nil {
				t.Fatalf("seed %d: %d moves for a zero distance, want nil", seed, len(ms))
			}
			continue
		}
		if len(ms) == 0 {
			t.Fatalf("seed %d: no moves for %v → %v", seed, tr.from, tr.to)
		}
		if got, want := ms[len(ms)-1].P, tr.to.round(); got != want {
			t.Fatalf("seed %d: path ends on %v, want %v", seed, got, want)
		}
		if ms[0].P == tr.from.round() {
			t.Fatalf("seed %d: path starts with from %v", seed, tr.from)
		}
		prev := Move{P: tr.from.round()}
		for i, m := range ms {
			if m.P.X != math.Trunc(m.P.X) || m.P.Y != math.Trunc(m.P.Y) {
				t.Fatalf("seed %d: move %d at %v is not a whole pixel", seed, i, m.P)
			}
			if m.P == prev.P {
				t.Fatalf("seed %d: move %d repeats %v", seed, i, m.P)
			}
			// Samples are at least one 120 Hz frame apart.
			if m.At-prev.At < time.Second/120-time.Microsecond {
				t.Fatalf("seed %d: move %d %v after the last, faster than 120 Hz", seed, i, m.At-prev.At)
			}
			prev = m
		}
	}
}

func TestPathSamePixel(t *testing.T) {
	if ms := Path(Point{10.2, 20.4}, Point{9.8, 19.6}, Size{}, seeded(1)); ms != nil {
		t.Errorf("Path to the same pixel = %v, want nil", ms)
	}
}

// Progress along the line only grows until the farthest point, then only
// shrinks back to the target; the farthest point is past the target only
// for distances over 200 px, and then always, by a few per cent.
func TestPathOvershootAndMonotoneProgress(t *testing.T) {
	overshot := 0
	for seed := range uint64(runs) {
		tr := randomTrip(seed, 20, 1200)
		d := tr.d()
		peak, peakAt := 0.0, -1
		for i, m := range tr.moves {
			if a := tr.along(m.P); a > peak {
				peak, peakAt = a, i
			}
		}
		last := 0.0
		for i, m := range tr.moves {
			a := tr.along(m.P)
			if i <= peakAt && a < last-1e-9 {
				t.Fatalf("seed %d (D=%.0f): progress goes back from %.2f to %.2f before the peak at move %d", seed, d, last, a, i)
			}
			if i > peakAt && a > last+1e-9 {
				t.Fatalf("seed %d (D=%.0f): progress goes forward from %.2f to %.2f in the correction at move %d", seed, d, last, a, i)
			}
			last = a
		}
		over := peak - d
		switch {
		case d <= OvershootFrom && over > 1e-9:
			t.Fatalf("seed %d: D=%.1f ≤ 200 overshoots by %.2f px", seed, d, over)
		case d > OvershootFrom && over < 2:
			t.Fatalf("seed %d: D=%.1f > 200 overshoots by only %.2f px", seed, d, over)
		case d > OvershootFrom && over > 0.05*d+1:
			t.Fatalf("seed %d: D=%.1f overshoots by %.1f px, over 5%%", seed, d, over)
		}
		if d > OvershootFrom {
			overshot++
		}
	}
	if overshot < runs/2 {
		t.Fatalf("only %d of %d runs were past 200 px; the test is not testing the overshoot", overshot, runs)
	}
}

func TestPathOvershootThreshold(t *testing.T) {
	for _, tc := range []struct {
		d    float64
		over bool
	}{{50, false}, {150, false}, {199, false}, {200, false}, {201, true}, {260, true}, {900, true}} {
		for seed := range uint64(200) {
			tr := trip{from: Point{100, 100}, to: Point{100 + tc.d, 100}, target: Size{30, 30}}
			tr.moves = Path(tr.from, tr.to, tr.target, seeded(seed))
			maxX := 0.0
			for _, m := range tr.moves {
				maxX = max(maxX, m.P.X)
			}
			if got := maxX > tr.to.X; got != tc.over {
				t.Fatalf("D=%v seed %d: overshoot %v (max x %v), want %v", tc.d, seed, got, maxX, tc.over)
			}
		}
	}
}

// The speed peaks before half the time in at least 90% of runs.
func TestPathEarlyPeak(t *testing.T) {
	early := 0
	var share float64
	for seed := range uint64(runs) {
		tr := randomTrip(seed, 150, 1500)
		prev := Move{P: tr.from.round()}
		var top float64
		var topAt time.Duration
		for _, m := range tr.moves {
			v := math.Hypot(m.P.X-prev.P.X, m.P.Y-prev.P.Y) / (m.At - prev.At).Seconds()
			if v > top {
				top, topAt = v, (prev.At+m.At)/2
			}
			prev = m
		}
		total := tr.moves[len(tr.moves)-1].At
		if topAt < total/2 {
			early++
		}
		share += float64(topAt) / float64(total)
	}
	t.Logf("peak before half time in %d/%d runs; mean peak at %.2f of the time", early, runs, share/runs)
	if early < runs*9/10 {
		t.Errorf("peak before half time in %d/%d runs, want ≥ 90%%", early, runs)
	}
}

func meanDuration(t *testing.T, d float64, target Size) time.Duration {
	t.Helper()
	return meanDurationTo(t, Point{d * 0.6, d * 0.8}, target)
}

func meanDurationTo(t *testing.T, delta Point, target Size) time.Duration {
	t.Helper()
	var sum time.Duration
	for seed := range uint64(300) {
		ms := Path(Point{50, 50}, Point{50 + delta.X, 50 + delta.Y}, target, seeded(seed))
		sum += ms[len(ms)-1].At
	}
	return sum / 300
}

// Durations grow with the distance and shrink with the target's size.
func TestPathFitts(t *testing.T) {
	var last time.Duration
	for _, d := range []float64{25, 50, 100, 200, 400, 800, 1600} {
		got := meanDuration(t, d, Size{40, 40})
		t.Logf("D=%v W=40: %v", d, got)
		if got <= last {
			t.Errorf("D=%v takes %v, no longer than a shorter distance (%v)", d, got, last)
		}
		last = got
	}
	last = time.Hour
	for _, w := range []float64{5, 10, 20, 40, 80, 160} {
		got := meanDuration(t, 600, Size{w, w})
		t.Logf("D=600 W=%v: %v", w, got)
		if got >= last {
			t.Errorf("W=%v takes %v, no shorter than a smaller target (%v)", w, got, last)
		}
		last = got
	}
	// A wide, flat target is wide to a movement across it and flat to one
	// from above.
	flat := Size{W: 200, H: 20}
	across, down := meanDurationTo(t, Point{500, 0}, flat), meanDurationTo(t, Point{0, 500}, flat)
	t.Logf("D=500 to a 200×20 target: %v across, %v from above", across, down)
	if across >= down {
		t.Errorf("D=500 to a 200×20 target takes %v across, no shorter than %v from above", across, down)
	}
}

// The path bows to one side, by no more than a few per cent of the way.
func TestPathBow(t *testing.T) {
	var sides [2]int
	var share float64
	for seed := range uint64(runs) {
		tr := randomTrip(seed, 100, 1500)
		d := tr.d()
		var dev float64
		for _, m := range tr.moves {
			if a := tr.across(m.P); math.Abs(a) > math.Abs(dev) {
				dev = a
			}
		}
		if math.Abs(dev) > 0.05*d+1 {
			t.Fatalf("seed %d: D=%.0f bows %.1f px off the line, over 5%%", seed, d, dev)
		}
		if dev > 0 {
			sides[0]++
		} else {
			sides[1]++
		}
		share += math.Abs(dev) / d
	}
	mean := share / runs
	t.Logf("mean bow %.1f%% of D; sides %v", 100*mean, sides)
	if mean < 0.01 || mean > 0.04 {
		t.Errorf("mean bow %.2f%% of D, want 1–4%%", 100*mean)
	}
	if min(sides[0], sides[1]) < runs/3 {
		t.Errorf("bows to each side %v times, want both often", sides)
	}
}

func TestEffectiveWidth(t *testing.T) {
	flat := Size{W: 200, H: 20}
	if got := effectiveWidth(flat, Point{1, 0}); got != 200 {
		t.Errorf("width across a 200×20 target = %v, want 200", got)
	}
	if got := effectiveWidth(flat, Point{0, 1}); got != 20 {
		t.Errorf("width from above a 200×20 target = %v, want 20", got)
	}
	if got := effectiveWidth(Size{}, Point{0, 1}); got != DefaultTargetSide {
		t.Errorf("width of an unknown target = %v, want %v", got, DefaultTargetSide)
	}
}

func TestRestHold(t *testing.T) {
	r := seeded(7)
	var rests, holds time.Duration
	for range runs {
		rest, hold := Rest(r), Hold(r)
		if rest < 100*time.Millisecond || rest > 300*time.Millisecond {
			t.Fatalf("Rest = %v, want 100–300 ms", rest)
		}
		if hold < 40*time.Millisecond || hold > 130*time.Millisecond {
			t.Fatalf("Hold = %v, want 40–130 ms", hold)
		}
		rests += rest
		holds += hold
	}
	t.Logf("mean rest %v, mean hold %v", rests/runs, holds/runs)
}

func BenchmarkPath(b *testing.B) {
	r := seeded(1)
	b.ReportAllocs()
	for b.Loop() {
		Path(Point{100, 600}, Point{900, 140}, Size{80, 30}, r)
	}
}
