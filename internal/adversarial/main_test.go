package adversarial

import (
	"os"
	"testing"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// TestMain ends the package's one browser after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	drivertest.CloseDriver()
	os.Exit(code)
}
