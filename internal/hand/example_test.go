package hand_test

import (
	"fmt"

	"github.com/waymark-dev/waymark/internal/hand"
)

func ExampleHand() {
	h := hand.New(1)
	moves := h.MoveTo(hand.Point{X: 640.4, Y: 360}, hand.Size{W: 120, H: 32})
	// The driver sends a mouseMoved for each move at its time, waits
	// h.Rest(), then presses and holds the button for h.Hold().
	fmt.Println("starts at rest:", moves[0].At == 0)
	fmt.Println("ends on:", moves[len(moves)-1].P)
	fmt.Println("place:", h.Place())
	// Output:
	// starts at rest: true
	// ends on: {640 360}
	// place: {640 360}
}

func ExampleCadence() {
	_, err := hand.Cadence("two\nlines", 7)
	fmt.Println(err)
	plan, _ := hand.Cadence("Hi", 7)
	for _, ev := range hand.Timeline(plan) {
		name := string(plan[ev.Index].Rune)
		if ev.Shift {
			name = "Shift"
		}
		dir := "up"
		if ev.Down {
			dir = "down"
		}
		fmt.Println(name, dir)
	}
	// Output:
	// text to type has a line break at character 4: type each line on its own and press Enter as a separate action (Enter may submit a form)
	// Shift down
	// H down
	// H up
	// Shift up
	// i down
	// i up
}
