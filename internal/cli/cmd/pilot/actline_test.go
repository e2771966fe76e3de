package pilot

import (
	"testing"

	"github.com/waymark-dev/waymark/pilot"
)

// act's line for a step with no element said "goto goto" and "press press".
func TestActLine(t *testing.T) {
	for _, tt := range []struct {
		a    pilot.ActAnswer
		line string
		want string
	}{
		{pilot.ActAnswer{Action: "goto", URL: "http://shop.test/"}, "", "goto http://shop.test/"},
		{pilot.ActAnswer{Action: "press", Key: "Enter"}, "", "press Enter"},
		{pilot.ActAnswer{Action: "scroll", Direction: "down"}, "", "scroll down"},
		{pilot.ActAnswer{Action: "click", Ref: "e1"}, `button "Go" [ref=e1]`, `click button "Go" [ref=e1]`},
	} {
		if got := actLine(tt.a, tt.line); got != tt.want {
			t.Errorf("actLine(%+v) = %q, want %q", tt.a, got, tt.want)
		}
	}
}
