package e2e

import (
	"os"
	"testing"

	"github.com/waymark-dev/waymark/internal/browsertest"
	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// TestMain runs four of the parallel tests at once (browsertest.Parallel):
// the browser tests here mostly wait for a browser of their own (the
// matrix for its runners one after another), so two at a time left the
// cores idle; the tests that change the working folder stay alone. The
// browser tests that call the handler in-process share the package's one
// browser (drivertest, sessions.NewShared), each in a session of its own,
// ended after the tests.
func TestMain(m *testing.M) {
	browsertest.Parallel(4)
	code := m.Run()
	drivertest.CloseDriver()
	os.Exit(code)
}
