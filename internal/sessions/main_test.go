package sessions

import (
	"os"
	"testing"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// TestMain runs four of the parallel tests at once (browsertest.Parallel):
// each browser test has a Manager and a Chromium of its own and mostly
// waits on its pages. The package's one shared browser (drivertest),
// for the managers over it (NewShared), ends after the tests.
func TestMain(m *testing.M) {
	browsertest.Parallel(4)
	code := m.Run()
	drivertest.CloseDriver()
	os.Exit(code)
}
