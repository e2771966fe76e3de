package driver

import (
	"testing"

	"github.com/waymark-dev/waymark/driver/internal/elem"
)

// A room's checks are the core's, bit for bit: a check lost on the way
// (a cover not looked for) would press what a person could not.
func TestChecksOfARoom(t *testing.T) {
	t.Parallel()
	for in, want := range map[elem.Checks]int{
		0:                                      0,
		elem.Visible:                           checkVisible,
		elem.Visible | elem.Hit:                checkVisible | checkHit,
		elem.Visible | elem.Enabled | elem.Hit: checkVisible | checkEnabled | checkHit,
	} {
		if got := checksOf(in); got != want {
			t.Errorf("checksOf(%b) = %b, want %b", in, got, want)
		}
	}
}
