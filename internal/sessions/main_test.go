package sessions

import (
	"os"
	"testing"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// TestMain runs four of the parallel tests at once (browsertest.Parallel):
// each browser test has a Manager over the package's one shared browser
// (newHarness: NewShared over drivertest.Driver) and mostly waits on its
// pages; only a test of what a manager does with a browser of its own
// starts one (newOwnHarness). The shared browser ends after the tests.
func TestMain(m *testing.M) {
	browsertest.Parallel(4)
	code := m.Run()
	drivertest.CloseDriver()
	os.Exit(code)
}
