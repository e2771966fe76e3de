package hand

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"
)

// ErrNewline is returned by [Cadence] for text with a line break: typing
// never presses Enter, which may submit a form. Type each line separately
// and press Enter as its own action, where the submit check sees it.
var ErrNewline = errors.New("text to type has a line break")

// KeyTiming is the timing of one key of [Cadence]. Send the key of Rune
// (for example with keys.Type(string(Rune))) after waiting Down, and hold
// it for Hold. When Shift is set the key is typed with Shift held: Shift
// goes down ShiftLead before the keydown (ShiftLead is part of Down) and
// comes up ShiftLag after the keyup (ShiftLag is part of the next key's
// Down). Within a run of shifted keys Shift stays down, so only the run's
// first key has a ShiftLead and only its last a ShiftLag. [Timeline]
// flattens a plan into events.
type KeyTiming struct {
	Rune rune
	// Down is the wait before the keydown, from the previous key's keyup
	// (or from the start, for the first key).
	Down time.Duration
	// Hold is the time from keydown to keyup.
	Hold  time.Duration
	Shift bool
	// ShiftLead and ShiftLag are zero inside a run of shifted keys.
	ShiftLead, ShiftLag time.Duration
}

// Typing constants. A typist of about 45 words a minute spends about 240 ms
// per character from one keydown to the next: a hold of about 85 ms and a
// wait of about 150 ms. Each plan draws its typist's pace once, 0.85–1.2
// times that, and every key varies by a log-normal factor around it.
const (
	baseDown                   = 150 * time.Millisecond
	paceMin, paceMax           = 0.85, 1.2
	keyNoise                   = 0.2 // σ of the log-normal factor on each wait
	minDown, maxDown           = 35 * time.Millisecond, time.Second
	holdMin, holdMax           = 50.0, 120.0           // ms
	shiftLeadMin, shiftLeadMax = 45.0, 90.0            // ms: Shift down before the key
	shiftLagMin, shiftLagMax   = 20.0, 70.0            // ms: Shift up after the key
	minGap                     = 25 * time.Millisecond // between a Shift event and a key event
)

// Factors on the wait before a key, from typing studies (Salthouse 1984;
// Dhakal et al. 2018, "Observations on typing from 136 million
// keystrokes"): keys on alternate hands are quicker than on one hand, and
// two keys on one finger are slowest; frequent letter pairs are practised
// and quick; a space ends a word and the next word's first key waits for
// the word to be recalled; punctuation and digits are reaches.
const (
	alternateHands = 0.85
	sameHand       = 1.0
	sameFinger     = 1.3
	repeatKey      = 1.05
	commonPair     = 0.7
	spaceKey       = 1.3
	wordStart      = 1.25
	punctKey       = 1.5
	digitKey       = 1.2
	otherKey       = 1.5 // Tab, and characters typed by inserting text
)

// commonPairs are the 30 most frequent letter pairs of English text
// (Norvig, "English letter frequency counts: Mayzner revisited", 2013).
var commonPairs = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Fields(`th he in er an re on at en nd ti es or te of
		ed is it al ar st to nt ng se ha as ou io le`) {
		m[p] = true
	}
	return m
}()

// Fingers of touch typing on a US QWERTY keyboard, by the unshifted key.
const (
	leftPinky = iota + 1
	leftRing
	leftMiddle
	leftIndex
	rightIndex
	rightMiddle
	rightRing
	rightPinky
	thumb
)

var fingerOf = func() map[rune]int {
	m := map[rune]int{' ': thumb}
	for f, chars := range []string{
		leftPinky: "`1qaz", leftRing: "2wsx", leftMiddle: "3edc", leftIndex: "4rfv5tgb",
		rightIndex: "6yhn7ujm", rightMiddle: "8ik,", rightRing: "9ol.", rightPinky: "0p;/-['=]\\",
	} {
		for _, r := range chars {
			m[r] = f
		}
	}
	return m
}()

// unshifted maps a character typed with Shift to its key's own character.
var unshifted = func() map[rune]rune {
	m := map[rune]rune{}
	const from, to = `~!@#$%^&*()_+{}|:"<>?`, "`1234567890-=[]\\;',./"
	tr := []rune(to)
	for i, r := range []rune(from) {
		m[r] = tr[i]
	}
	for r := 'A'; r <= 'Z'; r++ {
		m[r] = unicode.ToLower(r)
	}
	return m
}()

// baseKey is the unshifted character of r's key, and whether r needs Shift.
func baseKey(r rune) (rune, bool) {
	if b, ok := unshifted[r]; ok {
		return b, true
	}
	return r, false
}

// Cadence plans typing text key by key: the wait before each key, how long
// it is held, and Shift around capitals and shifted symbols. The plan
// follows from seed alone: the same text and seed give the same plan. It
// refuses text with "\n" or "\r" with [ErrNewline]. The error does not
// quote the text, which may be a secret.
func Cadence(text string, seed int64) ([]KeyTiming, error) {
	runes := []rune(text)
	for i, r := range runes {
		if r == '\n' || r == '\r' {
			return nil, fmt.Errorf("%w at character %d: type each line on its own and press Enter as a separate action (Enter may submit a form)", ErrNewline, i+1)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6b657973))
	pace := uniform(rng, paceMin, paceMax)
	plan := make([]KeyTiming, len(runes))
	var lag time.Duration // the previous key's ShiftLag
	for i, r := range runes {
		var prev rune
		if i > 0 {
			prev = runes[i-1]
		}
		f := keyFactor(prev, r, i == 0, rng)
		down := time.Duration(float64(baseDown) * pace * f * logNormal(rng, keyNoise, 0.6, 1.8))
		down = min(max(down, minDown), maxDown)
		_, shift := baseKey(r)
		_, prevShift := baseKey(prev)
		kt := KeyTiming{Rune: r, Shift: shift}
		if shift && (i == 0 || !prevShift) {
			kt.ShiftLead = msBetween(uniform(rng, shiftLeadMin, shiftLeadMax))
			down += kt.ShiftLead / 2 // reaching for Shift costs some time
			down = max(down, kt.ShiftLead+minGap)
		}
		if lag > 0 {
			down = max(down, lag+minGap)
		}
		kt.Down = down
		kt.Hold = msBetween(triangular(rng, holdMin, holdMax))
		lag = 0
		if shift {
			if i+1 == len(runes) {
				kt.ShiftLag = msBetween(uniform(rng, shiftLagMin, shiftLagMax))
			} else if _, nextShift := baseKey(runes[i+1]); !nextShift {
				kt.ShiftLag = msBetween(uniform(rng, shiftLagMin, shiftLagMax))
			}
			lag = kt.ShiftLag
		}
		plan[i] = kt
	}
	return plan, nil
}

// keyFactor is the factor on the wait before r, typed after prev.
func keyFactor(prev, r rune, first bool, rng *rand.Rand) float64 {
	if first {
		return uniform(rng, 0.5, 1.2)
	}
	p, _ := baseKey(prev)
	k, _ := baseKey(r)
	f := pairFactor(p, k)
	if commonPairs[string([]rune{p, k})] {
		f *= commonPair
	}
	switch {
	case k == ' ':
		f *= spaceKey
	case k >= 'a' && k <= 'z':
	case k >= '0' && k <= '9':
		f *= digitKey
	case fingerOf[k] != 0:
		f *= punctKey
	default:
		f *= otherKey
	}
	if p == ' ' && k != ' ' {
		f *= wordStart
	}
	return f
}

// pairFactor compares the fingers that type p and then k.
func pairFactor(p, k rune) float64 {
	fp, fk := fingerOf[p], fingerOf[k]
	switch {
	case fp == 0 || fk == 0:
		return sameHand
	case p == k:
		return repeatKey
	case fp == thumb || fk == thumb:
		return alternateHands
	case fp == fk:
		return sameFinger
	case (fp <= leftIndex) == (fk <= leftIndex):
		return sameHand
	default:
		return alternateHands
	}
}

// KeyEvent is one key going down or up in a [Timeline].
type KeyEvent struct {
	// At is the time since typing began.
	At time.Duration
	// Index is the plan entry the event belongs to.
	Index int
	// Shift says the event is of the Shift key; otherwise it is of the key
	// of the entry's Rune.
	Shift bool
	// Down is a keydown; otherwise a keyup.
	Down bool
}

// Timeline flattens a plan of [Cadence] into key events in time order: for
// each key, Shift down (if it starts a shifted run), the keydown, the
// keyup, and Shift up (if it ends one).
func Timeline(plan []KeyTiming) []KeyEvent {
	evs := make([]KeyEvent, 0, 2*len(plan))
	var t time.Duration
	for i, k := range plan {
		t += k.Down
		if k.Shift && k.ShiftLead > 0 {
			evs = append(evs, KeyEvent{At: t - k.ShiftLead, Index: i, Shift: true, Down: true})
		}
		evs = append(evs, KeyEvent{At: t, Index: i, Down: true})
		t += k.Hold
		evs = append(evs, KeyEvent{At: t, Index: i})
		if k.Shift && k.ShiftLag > 0 {
			evs = append(evs, KeyEvent{At: t + k.ShiftLag, Index: i, Shift: true})
		}
	}
	return evs
}
