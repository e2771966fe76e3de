package e2e

import (
	"os"
	"testing"

	"github.com/waymark-dev/waymark/internal/browsertest"
)

// TestMain runs four of the parallel tests at once (browsertest.Parallel):
// the browser tests here mostly wait for a browser of their own (the
// matrix for its runners one after another), so two at a time left the
// cores idle; the tests that change the working folder stay alone.
func TestMain(m *testing.M) {
	browsertest.Parallel(4)
	os.Exit(m.Run())
}
