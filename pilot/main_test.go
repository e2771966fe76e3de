package pilot_test

import (
	"testing"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

// TestMain ends the package's one browser after the tests.
func TestMain(m *testing.M) { drivertest.Main(m) }
