package discover_test

import (
	"os"
	"testing"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	drivertest.CloseDriver()
	os.Exit(code)
}
