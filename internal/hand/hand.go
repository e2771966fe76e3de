package hand

import (
	"math/rand/v2"
	"time"
)

// defaultView is the viewport a [Hand] assumes until [Hand.SetView] tells it
// otherwise: about what waymark's 1280×800 window shows.
var defaultView = Size{W: 1280, H: 720}

// Hand is one pointer on one page: it remembers where the pointer is, so
// that each movement starts where the last one ended. A Hand is not safe
// for concurrent use; keep one per page.
type Hand struct {
	rng    *rand.Rand
	view   Size
	place  Point
	placed bool // place is known: a resting point was chosen or a move made
	moved  bool // a move was planned since New or Reset
}

// New returns a Hand whose plans all follow from seed.
func New(seed int64) *Hand {
	return &Hand{rng: rand.New(rand.NewPCG(uint64(seed), 0x68616e64)), view: defaultView}
}

// SetView tells the hand the page's viewport size, which bounds where the
// pointer rests before its first move. Until it is called, or for a side
// of zero or less, the view is taken to be 1280×720.
func (h *Hand) SetView(view Size) {
	if view.W <= 0 {
		view.W = defaultView.W
	}
	if view.H <= 0 {
		view.H = defaultView.H
	}
	h.view = view
	if !h.moved {
		h.placed = false // choose the resting point again, inside the new view
	}
}

// MoveTo plans a movement from the pointer's place to to, a target of the
// given size (see [Path]), and makes to the new place. The first movement
// after [New] or [Reset] starts from a resting point and begins with that
// point itself at time 0, so the page sees the pointer arrive there. Later
// movements return nil when the pointer is already on to.
func (h *Hand) MoveTo(to Point, target Size) []Move {
	from := h.Place()
	moves := Path(from, to, target, h.rng)
	if !h.moved {
		moves = append([]Move{{P: from, At: 0}}, moves...)
	}
	h.moved = true
	h.place = to.round()
	return moves
}

// Place returns where the pointer is: where the last movement ended or,
// before any, the resting point the first movement will start from.
func (h *Hand) Place() Point {
	if !h.placed {
		h.place = h.restingPoint()
		h.placed = true
	}
	return h.place
}

// Reset forgets the pointer's place, for a new page: the next movement
// starts from a new resting point.
func (h *Hand) Reset() {
	h.placed, h.moved = false, false
}

// Rest is [Rest] with the hand's random source.
func (h *Hand) Rest() time.Duration { return Rest(h.rng) }

// Hold is [Hold] with the hand's random source.
func (h *Hand) Hold() time.Duration { return Hold(h.rng) }

// Scroll is [Scroll] with the hand's random source.
func (h *Hand) Scroll(dy float64) []WheelStep { return Scroll(dy, h.rng) }

// restingPoint is where a pointer idles while a person reads a page: in
// the middle and lower part of the view, away from the edges.
func (h *Hand) restingPoint() Point {
	return Point{
		X: float64(int(h.view.W * uniform(h.rng, 0.3, 0.8))),
		Y: float64(int(h.view.H * uniform(h.rng, 0.45, 0.85))),
	}
}
