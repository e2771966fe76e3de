package hand

import (
	"math"
	"math/rand/v2"
	"time"
)

// Notch is how far one notch of a mouse wheel scrolls, in CSS pixels: the
// deltaY Chromium reports for one notch of a wheel on Windows and Linux.
const Notch = 100.0

// WheelStep is one notch of the wheel: send a mouse wheel event with
// DeltaY (positive scrolls down), then wait Pause before the next step.
// The last step's Pause lets a smooth scroll finish before the page is
// measured again.
type WheelStep struct {
	DeltaY float64
	Pause  time.Duration
}

const (
	burstMin, burstMax = 3, 6 // notches in one flick of the finger
	// Within a flick the notches come 20–45 ms apart; between flicks the
	// finger lifts and comes back, 120–320 ms; after the last notch a smooth
	// scroll takes 150–300 ms to settle.
	inBurstMin, inBurstMax = 20.0, 45.0
	regripMin, regripMax   = 120.0, 320.0
	settleMin, settleMax   = 150.0, 300.0
)

// Scroll plans rolling the page by dy pixels (positive is down) with a
// mouse wheel, one [Notch] at a time, in flicks of 3–6 notches with
// pauses between them that vary. It rolls ceil(|dy|/Notch) notches, so the
// page moves at least dy; aim dy at putting the target well inside the
// view, where the extra part of a notch does no harm. Scroll returns nil for
// |dy| under one pixel. A nil rng uses a fixed seed.
func Scroll(dy float64, rng *rand.Rand) []WheelStep {
	if math.Abs(dy) < 1 || math.IsNaN(dy) || math.IsInf(dy, 0) {
		return nil
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(0, 0))
	}
	n := int(math.Ceil(math.Abs(dy) / Notch))
	delta := math.Copysign(Notch, dy)
	steps := make([]WheelStep, n)
	left := burstMin + rng.IntN(burstMax-burstMin+1)
	for i := range steps {
		left--
		var pause float64
		switch {
		case i == n-1:
			pause = uniform(rng, settleMin, settleMax)
		case left == 0:
			pause = uniform(rng, regripMin, regripMax)
			left = burstMin + rng.IntN(burstMax-burstMin+1)
		default:
			pause = uniform(rng, inBurstMin, inBurstMax)
		}
		steps[i] = WheelStep{DeltaY: delta, Pause: msBetween(pause)}
	}
	return steps
}
