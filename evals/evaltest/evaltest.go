// Package evaltest holds what the evaluations' tests share (build tag
// evals): a TestMain that closes the package's shared browser, the size
// of a corpus from the environment, and whether the full corpora were
// asked for (WAYMARK_EVALS=full, make evals-full).
package evaltest

import (
	"os"
	"strconv"
	"testing"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// Main runs the eval's tests, then closes the browser they shared:
//
//	func TestMain(m *testing.M) { evaltest.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	drivertest.CloseDriver()
	os.Exit(code)
}

// Int reads a positive number from the environment variable name, or
// def when it is unset or not one.
func Int(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// Full reports whether the full corpora were asked for
// (WAYMARK_EVALS=full); the default is the quick set.
func Full() bool { return os.Getenv("WAYMARK_EVALS") == "full" }
