package driver

import (
	"math"
	"testing"
)

// coverage counts overlaps once and what is off the view not at all.
func TestCoverage(t *testing.T) {
	for _, c := range []struct {
		name  string
		boxes []graphicBox
		want  float64
	}{
		{"none", nil, 0},
		{"the left half", []graphicBox{{0, 0, 500, 800}}, 0.5},
		{"the left half twice", []graphicBox{{0, 0, 500, 800}, {0, 0, 500, 800}}, 0.5},
		{"two quarters overlapping by half of one", []graphicBox{{0, 0, 500, 400}, {250, 0, 500, 400}}, 0.375},
		{"the whole view", []graphicBox{{0, 0, 1000, 800}}, 1},
	} {
		if got := coverage(1000, 800, c.boxes); math.Abs(got-c.want) > 0.02 {
			t.Errorf("%s: coverage %.3f; want %.3f", c.name, got, c.want)
		}
	}
}
