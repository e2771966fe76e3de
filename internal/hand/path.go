package hand

import (
	"math"
	"math/rand/v2"
	"time"
)

// Point is a place in the viewport, in CSS pixels.
type Point struct{ X, Y float64 }

// Size is the width and height of a target, in CSS pixels. A side of zero
// or less means unknown, and counts as [DefaultTargetSide].
type Size struct{ W, H float64 }

// Move is one pointer position of a [Path]: the pointer reaches P at time At
// since the movement began.
type Move struct {
	P  Point
	At time.Duration
}

// Fitts's law, MT = FittsA + FittsB·log2(D/W + 1) (Shannon form, MacKenzie
// 1992). Measured mouse throughput is about 4–7 bits/s (Soukoreff &
// MacKenzie 2004, ISO 9241-9 studies); 160 ms/bit (6.25 bits/s) is a
// practised user on a familiar page, and 80 ms is the fixed cost of starting
// and stopping. A 40 px button 500 px away takes about 0.7 s.
const (
	FittsA = 80 * time.Millisecond
	FittsB = 160 * time.Millisecond
)

// DefaultTargetSide is the side used for a target of unknown size: about a
// line of text or a small icon button.
const DefaultTargetSide = 20.0

// OvershootFrom is the distance, in pixels, past which a movement overshoots
// its target and comes back. Shorter movements land without overshooting.
const OvershootFrom = 200.0

const (
	durationNoise = 0.10 // σ of the log-normal factor on a movement's duration
	minDuration   = 60 * time.Millisecond

	// The warp τ = t^k of minimum-jerk time puts the velocity peak at
	// t = 0.5^(1/k): at 0.36–0.45 of its time for k in [0.68, 0.88], with a long
	// deceleration tail, as measured aimed movements show (the peak at
	// 35–45% of the time; Plamondon's asymmetric bell).
	warpMin, warpMax = 0.68, 0.88

	// The bow: the largest sideways offset, as a share of the distance.
	bowMin, bowMax = 0.015, 0.045

	// The overshoot, as a share of the distance, and at least a few pixels
	// so that it is visible in whole pixels.
	overMin, overMax = 0.02, 0.05
	overFloor        = 3.0

	// The correction's share of the whole time, and its least length: a
	// corrective sub-movement lasts 100–200 ms.
	correctMin, correctMax = 0.15, 0.22
	minCorrection          = 80 * time.Millisecond

	// Sampling: browsers coalesce pointer input to frames, and mice report
	// at 60–125 Hz or more; a path is sampled at one rate in this range.
	rateMin, rateMax = 60.0, 120.0
)

// Path plans the pointer's movement from from to to, a target of the given
// size, and returns the positions it passes after from; from itself is not
// included, since the pointer is already there. Both ends are rounded to
// whole pixels, every position is a whole pixel, no two consecutive
// positions are the same, and the last is exactly to (rounded). Times are
// strictly increasing. Path returns nil when from and to round to the same
// pixel.
//
// The movement takes Fitts's-law time ([FittsA], [FittsB]; W is the
// target's extent along the direction of approach) with a little variation,
// peaks in speed early and slows over a long tail, and bows a few per cent
// of the distance to one side. Past [OvershootFrom] it overshoots by a few
// per cent and comes back. Progress along the line never goes back except
// in that correction.
//
// A nil rng uses a fixed seed.
func Path(from, to Point, target Size, rng *rand.Rand) []Move {
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	from, to = from.round(), to.round()
	dx, dy := to.X-from.X, to.Y-from.Y
	d := math.Hypot(dx, dy)
	if d == 0 {
		return nil
	}
	u := Point{dx / d, dy / d} // along the line
	n := Point{-u.Y, u.X}      // across it

	total := time.Duration(float64(Fitts(d, effectiveWidth(target, u))) * logNormal(rng, durationNoise, 0.75, 1.3))
	total = max(total, minDuration)
	var over float64
	primary := total
	if d > OvershootFrom {
		over = max(d*uniform(rng, overMin, overMax), overFloor)
		corr := max(time.Duration(float64(total)*uniform(rng, correctMin, correctMax)), minCorrection)
		if total < 3*corr {
			total = 3 * corr
		}
		primary = total - corr
	}
	reach := d + over
	k := uniform(rng, warpMin, warpMax)
	bow := reach * uniform(rng, bowMin, bowMax)
	if rng.IntN(2) == 0 {
		bow = -bow
	}
	dt := time.Duration(float64(time.Second) / uniform(rng, rateMin, rateMax))

	at := func(t time.Duration) Point {
		if t <= primary {
			s := progress(float64(t)/float64(primary), k)
			a, b := s*reach, bow*math.Sin(math.Pi*s)
			return Point{from.X + a*u.X + b*n.X, from.Y + a*u.Y + b*n.Y}
		}
		s := minJerk(float64(t-primary) / float64(total-primary))
		a := reach - s*over
		return Point{from.X + a*u.X, from.Y + a*u.Y}
	}
	proj := func(p Point) float64 { return (p.X-from.X)*u.X + (p.Y-from.Y)*u.Y }

	const eps = 1e-9
	moves := make([]Move, 0, int(total/dt)+2)
	last, lastProj := from, 0.0
	for t := dt; ; t += dt {
		end := t >= total
		if end {
			t = total
		}
		p := at(t).round()
		pr := proj(p)
		var keep bool
		switch {
		case t <= primary && over > 0:
			keep = pr >= lastProj-eps // forward, and past to is the overshoot
		case t <= primary:
			keep = pr >= lastProj-eps && pr <= d+eps // forward, never past to
		default:
			keep = pr <= lastProj+eps && pr >= d-eps // back towards to, never short of it
		}
		if keep && p != last {
			moves = append(moves, Move{P: p, At: t})
			last, lastProj = p, pr
			if p == to && (over == 0 || t > primary) {
				break // arrived: the rest of the tail is under a pixel
			}
		}
		if end {
			break
		}
	}
	if last != to {
		moves = append(moves, Move{P: to, At: total})
	}
	return moves
}

// Fitts returns the Fitts's-law time to point at a target w pixels wide
// (along the direction of approach) at distance d pixels: FittsA +
// FittsB·log2(d/w + 1). A w of zero or less counts as [DefaultTargetSide].
func Fitts(d, w float64) time.Duration {
	if w <= 0 {
		w = DefaultTargetSide
	}
	id := math.Log2(max(d, 0)/w + 1)
	return FittsA + time.Duration(id*float64(FittsB))
}

// effectiveWidth is the target's extent along direction u through its
// centre (MacKenzie & Buxton 1992, "W′"): the width when approached from
// the side, the height from above or below.
func effectiveWidth(s Size, u Point) float64 {
	w, h := s.W, s.H
	if w <= 0 {
		w = DefaultTargetSide
	}
	if h <= 0 {
		h = DefaultTargetSide
	}
	cx, cy := math.Abs(u.X), math.Abs(u.Y)
	e := math.Inf(1)
	if cx > 1e-12 {
		e = w / cx
	}
	if cy > 1e-12 {
		e = min(e, h/cy)
	}
	return e
}

// progress is the share of the distance covered at share x of the time: a
// minimum-jerk profile on warped time, so that the speed peaks before the
// midpoint and tails off slowly.
func progress(x, k float64) float64 {
	return minJerk(math.Pow(clamp(x, 0, 1), k))
}

// minJerk is the minimum-jerk position profile (Flash & Hogan 1985).
func minJerk(x float64) float64 {
	x = clamp(x, 0, 1)
	return x * x * x * (10 - 15*x + 6*x*x)
}

func (p Point) round() Point { return Point{math.Round(p.X), math.Round(p.Y)} }

// Rest returns the pause between arriving on a target and pressing it:
// 100–300 ms, most often near 200 ms (the time to see that the pointer is
// there and decide, about one visual reaction time).
func Rest(rng *rand.Rand) time.Duration {
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	return msBetween(triangular(rng, 100, 300))
}

// Hold returns how long a mouse button is held down in a click: 50–130 ms,
// most often near 90 ms. Measured click holds are about 60–140 ms; anything
// under 40 ms is faster than a finger.
func Hold(rng *rand.Rand) time.Duration {
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	return msBetween(triangular(rng, 50, 130))
}

func uniform(rng *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }

// triangular is the mean of two uniform draws: symmetric around the middle
// of [lo, hi] and never outside it.
func triangular(rng *rand.Rand, lo, hi float64) float64 {
	return lo + (hi-lo)*(rng.Float64()+rng.Float64())/2
}

// logNormal is exp(σ·N(0,1)), clamped to [lo, hi].
func logNormal(rng *rand.Rand, sigma, lo, hi float64) float64 {
	return clamp(math.Exp(sigma*rng.NormFloat64()), lo, hi)
}

func clamp(x, lo, hi float64) float64 { return min(max(x, lo), hi) }

func msBetween(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
