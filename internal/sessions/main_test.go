package sessions

import (
	"os"
	"testing"

	"github.com/waymark-dev/waymark/internal/browsertest"
)

// TestMain runs four of the parallel tests at once (browsertest.Parallel):
// each browser test has a Manager and a Chromium of its own and mostly
// waits on its pages.
func TestMain(m *testing.M) {
	browsertest.Parallel(4)
	os.Exit(m.Run())
}
