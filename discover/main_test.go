package discover_test

import (
	"testing"

	"github.com/waymark-dev/waymark/internal/browsertest/drivertest"
)

func TestMain(m *testing.M) { drivertest.Main(m) }
